/**
 * The first row each string was seen on, for duplicate client-orderids. An open-addressing table of
 * row numbers keyed by an FNV-1a hash of the characters: a Map spent a tenth of the whole lint hashing
 * and regrowing for 100k unique ids cut out of one large text.
 *
 * FNV-1a is not keyed, so ids can be crafted to share a slot: a key whose probe run would pass
 * `maxProbe` slots goes to a Map instead (V8 seeds its string hash per process), so a hostile file costs
 * at most `maxProbe` comparisons per id, never a walk along every id before it.
 */
export class FirstSeen {
  /** Pairs [entry + 1, hash] (0 = free): a probe compares hashes without reading the entries. */
  private slots: Int32Array;
  private mask: number;
  // Entry e: its key is `sources[e][starts[e], ends[e])`. Keys are kept as ranges of the strings they
  // were read from (the document, for the linter), not cut: no string per id is made and kept.
  private readonly sources: (string | undefined)[] = [];
  private starts: Int32Array;
  private ends: Int32Array;
  private rows: Int32Array;
  private count = 0;
  private overflow?: Map<string, number>;

  constructor(
    expected: number,
    private readonly maxProbe = 32,
  ) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(2 * capacity);
    this.mask = capacity - 1;
    // At most half the slots are used: the entries' arrays are sized to that, and grow with the table.
    this.starts = new Int32Array(capacity / 2);
    this.ends = new Int32Array(capacity / 2);
    this.rows = new Int32Array(capacity / 2);
  }

  /** The row `key` was first seen on; or, the first time, remembers `row` and returns 0. */
  firstRow(key: string, row: number): number {
    return this.firstRowIn(key, 0, key.length, row);
  }

  /** firstRow of the characters `source[from, to)`, read in place. */
  firstRowIn(source: string, from: number, to: number, row: number): number {
    const h = hash(source, from, to);
    let s = h & this.mask;
    let free = -1;
    for (let probe = 0; probe <= this.maxProbe; probe++) {
      const entry = this.slots[2 * s];
      if (entry === 0) {
        free = s;
        break;
      }
      if (this.slots[2 * s + 1] === h && this.holds(entry - 1, source, from, to)) return this.rows[entry - 1];
      s = (s + 1) & this.mask;
    }
    if (this.overflow) {
      const first = this.overflow.get(source.slice(from, to));
      if (first !== undefined) return first;
    }
    if (free === -1) {
      (this.overflow ??= new Map()).set(source.slice(from, to), row);
      return 0;
    }
    const e = this.count++;
    this.sources[e] = source;
    this.starts[e] = from;
    this.ends[e] = to;
    this.rows[e] = row;
    this.slots[2 * free] = e + 1;
    this.slots[2 * free + 1] = h;
    if (this.count * 2 >= this.mask + 1) this.grow();
    return 0;
  }

  /** Is entry e's key the characters `source[from, to)`? */
  private holds(e: number, source: string, from: number, to: number): boolean {
    const kept = this.sources[e];
    const start = this.starts[e];
    if (kept === undefined || this.ends[e] - start !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (kept.charCodeAt(start + i) !== source.charCodeAt(from + i)) return false;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    const mask = (this.mask << 1) | 1;
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.rows = grown(this.rows);
    for (let o = 0; o < old.length; o += 2) {
      const entry = old[o];
      if (entry === 0) continue;
      const h = old[o + 1];
      let s = h & mask;
      let probe = 0;
      while (slots[2 * s] !== 0 && probe < this.maxProbe) {
        s = (s + 1) & mask;
        probe++;
      }
      if (slots[2 * s] === 0) {
        slots[2 * s] = entry;
        slots[2 * s + 1] = h;
      } else {
        // Keep the rule for lookups: a key is within maxProbe slots of its home, or in the map.
        const e = entry - 1;
        (this.overflow ??= new Map()).set(this.sources[e]!.slice(this.starts[e], this.ends[e]), this.rows[e]);
        this.sources[e] = undefined;
      }
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** The same numbers in an array twice as long. */
function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function hash(source: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= source.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
