/**
 * The first row each string was seen on, for duplicate client-orderids. An open-addressing table of
 * row numbers keyed by an FNV-1a hash of the characters: a Map spent a tenth of the whole lint hashing
 * and regrowing for 100k unique ids cut out of one large text.
 */
export class FirstSeen {
  private slots: Int32Array;
  private mask: number;
  private readonly keys: string[] = [];
  private readonly rows: number[] = [];

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The row `key` was first seen on; or, the first time, remembers `row` and returns 0. */
  firstRow(key: string, row: number): number {
    let s = hash(key) & this.mask;
    for (;;) {
      const entry = this.slots[s];
      if (entry === 0) break;
      if (this.keys[entry - 1] === key) return this.rows[entry - 1];
      s = (s + 1) & this.mask;
    }
    this.keys.push(key);
    this.rows.push(row);
    this.slots[s] = this.keys.length;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    return 0;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 1; e <= this.keys.length; e++) {
      let s = hash(this.keys[e - 1]) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e;
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
