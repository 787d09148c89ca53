// Stable sort of row indices by numeric keys in linear time. A comparison sort of a million indices
// calls its comparator some twenty million times (300 ms and more); a least-significant-digit radix sort
// keeps ties in row order, which is the order the table promises. Each pass reads the keys in their
// current order and moves them along with the row indices (reading them through an index array instead
// is a cache miss per row at five million rows), with digits of at most 12 bits so a pass writes to a
// few thousand places at once rather than 65,536. Keys that are exact decimals with up to three places
// in a range of 2^32 (amounts, dates as numbers) are sorted as one 32-bit integer: two or three passes
// instead of the six a whole double needs.

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);

/**
 * Row indices `0..count-1` ordered by `keys` (ascending, or descending with ties still in row order);
 * NaN keys (values without the column's shape, empty cells) go last in row order, in both directions.
 */
export function radixSortIndices(count: number, keys: Float64Array, desc: boolean): Uint32Array {
  const out = new Uint32Array(count);
  // The rows with a key, in row order, in one pass (a key is NaN when it is not equal to itself).
  const idx = new Uint32Array(count);
  let valid = 0;
  for (let i = 0; i < count; i++) {
    const k = keys[i];
    if (k === k) idx[valid++] = i;
  }
  if (valid < count) for (let i = 0, rest = valid; i < count; i++) if (keys[i] !== keys[i]) out[rest++] = i;
  if (valid === 0) return out;
  const rows = idx.subarray(0, valid);
  const small = asIntegers(keys, rows, desc);
  const sorted = small ? lsd([small.key], [small.bits], rows, out) : lsd(asWords(keys, rows, desc), [32, 32], rows, out);
  if (sorted !== out) out.set(sorted, 0);
  return out;
}

/** Keys as whole numbers key * 10^s (s = 0..3, the first that is exact) in 32 bits, or undefined. */
function asIntegers(keys: Float64Array, idx: Uint32Array, desc: boolean): { key: Uint32Array; bits: number } | undefined {
  scales: for (const scale of [1, 10, 100, 1000]) {
    let min = Infinity;
    let max = -Infinity;
    for (let v = 0; v < idx.length; v++) {
      const k = keys[idx[v]];
      const m = Math.round(k * scale);
      // Exact (the integer divided back is the key) and distinct keys stay distinct, in the same order.
      if (m / scale !== k || Math.abs(m) > Number.MAX_SAFE_INTEGER) continue scales;
      if (m < min) min = m;
      if (m > max) max = m;
    }
    if (max - min > 0xffffffff) return undefined;
    const key = new Uint32Array(idx.length);
    for (let v = 0; v < idx.length; v++) {
      const m = Math.round(keys[idx[v]] * scale);
      key[v] = desc ? max - m : m - min;
    }
    return { key, bits: Math.max(1, Math.ceil(Math.log2(max - min + 1))) };
  }
  return undefined;
}

/** Keys as two 32-bit words (low, high) that order as unsigned integers like the doubles do. */
function asWords(keys: Float64Array, idx: Uint32Array, desc: boolean): Uint32Array[] {
  const lo = new Uint32Array(idx.length);
  const hi = new Uint32Array(idx.length);
  for (let v = 0; v < idx.length; v++) {
    const k = keys[idx[v]];
    scratch[0] = k === 0 ? 0 : k; // -0 sorts with 0
    // IEEE 754 order as unsigned integers: flip all bits of negatives, only the sign bit of the others.
    let h = words[1];
    let l = words[0];
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[v] = desc ? ~h >>> 0 : h;
    lo[v] = desc ? ~l >>> 0 : l;
  }
  return [lo, hi];
}

/**
 * Sorts `idx` stably by the key made of `keys` (least significant word first, `bits` used of each),
 * moving the words still needed along with it; passes where every key has the same digit are skipped.
 * Every digit's counts are taken in one read of the words before the first pass; the last pass moves the
 * row indices alone, into `into` (which has room for them) where it can. Returns where the order ended.
 */
function lsd(keys: Uint32Array[], bits: number[], idx: Uint32Array, into: Uint32Array): Uint32Array {
  // At most two words (a double's); each pass moves its own word and the one above it.
  const n = idx.length;
  const digits: { word: number; shift: number; mask: number; counts: Uint32Array }[] = [];
  bits.forEach((b, word) => {
    const passes = Math.ceil(b / 12);
    const width = Math.ceil(b / passes);
    for (let shift = 0; shift < b; shift += width)
      digits.push({ word, shift, mask: (1 << width) - 1, counts: new Uint32Array(1 << width) });
  });
  for (let w = 0; w < keys.length; w++) {
    const key = keys[w];
    const mine = digits.filter((d) => d.word === w);
    if (mine.length === 2) {
      const [a, b] = mine;
      const [ca, cb] = [a.counts, b.counts];
      for (let i = 0; i < n; i++) {
        const k = key[i];
        ca[(k >>> a.shift) & a.mask]++;
        cb[(k >>> b.shift) & b.mask]++;
      }
    } else for (const d of mine) for (let i = 0; i < n; i++) d.counts[(key[i] >>> d.shift) & d.mask]++;
  }
  // Passes where every key has the same digit change nothing.
  const passes = digits.filter((d) => n > 0 && d.counts[(keys[d.word][0] >>> d.shift) & d.mask] !== n);
  const spare: Uint32Array[] = keys.map(() => new Uint32Array(n));
  // The ping-pong buffers are chosen so the last pass writes into `into`.
  let idx2: Uint32Array = passes.length % 2 === 1 ? into.subarray(0, n) : new Uint32Array(n);
  if (passes.length % 2 === 0 && passes.length > 0) {
    into.set(idx, 0);
    [idx, idx2] = [into.subarray(0, n), idx];
  }
  passes.forEach(({ word: w, shift, mask, counts }, p) => {
    const key = keys[w];
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    const last = p === passes.length - 1;
    // Words whose digits are all done are not read again: only this one and the more significant one move.
    const next = w + 1 < keys.length ? keys[w + 1] : undefined;
    const to1 = spare[w];
    const to2 = spare[w + 1];
    if (last) {
      for (let i = 0; i < n; i++) idx2[counts[(key[i] >>> shift) & mask]++] = idx[i];
    } else if (next) {
      for (let i = 0; i < n; i++) {
        const to = counts[(key[i] >>> shift) & mask]++;
        to1[to] = key[i];
        to2[to] = next[i];
        idx2[to] = idx[i];
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = key[i];
        const to = counts[(k >>> shift) & mask]++;
        to1[to] = k;
        idx2[to] = idx[i];
      }
    }
    [keys[w], spare[w]] = [to1, key];
    if (next && !last) [keys[w + 1], spare[w + 1]] = [to2, next];
    [idx, idx2] = [idx2, idx];
  });
  return idx;
}
