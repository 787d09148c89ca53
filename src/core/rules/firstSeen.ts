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
  private slots: Int32Array;
  private mask: number;
  private readonly keys: string[] = [];
  private readonly rows: number[] = [];
  private overflow?: Map<string, number>;

  constructor(
    expected: number,
    private readonly maxProbe = 32,
  ) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The row `key` was first seen on; or, the first time, remembers `row` and returns 0. */
  firstRow(key: string, row: number): number {
    let s = hash(key) & this.mask;
    let free = -1;
    for (let probe = 0; probe <= this.maxProbe; probe++) {
      const entry = this.slots[s];
      if (entry === 0) {
        free = s;
        break;
      }
      if (this.keys[entry - 1] === key) return this.rows[entry - 1];
      s = (s + 1) & this.mask;
    }
    if (this.overflow) {
      const first = this.overflow.get(key);
      if (first !== undefined) return first;
    }
    if (free === -1) {
      (this.overflow ??= new Map()).set(key, row);
      return 0;
    }
    this.keys.push(key);
    this.rows.push(row);
    this.slots[free] = this.keys.length;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    return 0;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 1; e <= this.keys.length; e++) {
      const key = this.keys[e - 1];
      if (key === undefined) continue; // moved to the overflow map by an earlier growth
      let s = hash(key) & mask;
      let probe = 0;
      while (slots[s] !== 0 && probe < this.maxProbe) {
        s = (s + 1) & mask;
        probe++;
      }
      if (slots[s] === 0) {
        slots[s] = e;
      } else {
        // Keep the rule for lookups: a key is within maxProbe slots of its home, or in the map.
        (this.overflow ??= new Map()).set(key, this.rows[e - 1]);
        (this.keys as (string | undefined)[])[e - 1] = undefined;
      }
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
