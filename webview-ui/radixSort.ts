// Stable sort of row indices by numeric keys in linear time. A comparison sort of a million indices
// calls its comparator some twenty million times (300 ms and more); a least-significant-digit radix sort
// over the keys' 64 bits, 16 at a time, makes four passes over the rows and keeps ties in row order,
// which is the order the table promises. Passes where every key has the same digit are skipped.

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);

/**
 * Row indices `0..count-1` ordered by `keys` (ascending, or descending with ties still in row order);
 * NaN keys (values without the column's shape, empty cells) go last in row order, in both directions.
 */
export function radixSortIndices(count: number, keys: Float64Array, desc: boolean): Uint32Array {
  let valid = 0;
  for (let i = 0; i < count; i++) if (!Number.isNaN(keys[i])) valid++;
  const hi = new Uint32Array(valid);
  const lo = new Uint32Array(valid);
  const idx = new Uint32Array(valid);
  const out = new Uint32Array(count);
  let v = 0;
  let rest = valid;
  for (let i = 0; i < count; i++) {
    const k = keys[i];
    if (Number.isNaN(k)) {
      out[rest++] = i;
      continue;
    }
    scratch[0] = k === 0 ? 0 : k; // -0 sorts with 0
    // IEEE 754 order as unsigned integers: flip all bits of negatives, only the sign bit of the others.
    let h = words[1];
    let l = words[0];
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (desc) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    hi[v] = h;
    lo[v] = l;
    idx[v] = i;
    v++;
  }
  // Each pass reorders the positions 0..valid-1 by one 16-bit digit, stably.
  let order = new Uint32Array(valid);
  for (let i = 0; i < valid; i++) order[i] = i;
  let next = new Uint32Array(valid);
  const counts = new Uint32Array(65536);
  for (const [word, shift] of [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < valid; i++) counts[(word[i] >>> shift) & 0xffff]++;
    if (valid === 0 || counts[(word[0] >>> shift) & 0xffff] === valid) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < valid; i++) {
      const p = order[i];
      next[counts[(word[p] >>> shift) & 0xffff]++] = p;
    }
    const t = order;
    order = next;
    next = t;
  }
  for (let i = 0; i < valid; i++) out[i] = idx[order[i]];
  return out;
}
