/**
 * The first row each client-orderid was seen on, over a whole file read in pieces (streamLint.ts). The
 * core's FirstSeen keeps each key as a range of the text it was read from, which here would keep every
 * piece of the file alive; this table copies each key's characters into one growing pool instead, and
 * keeps no object per key: about 2 bytes a character and 20 a key. An open-addressing table of FNV-1a
 * hashes, like FirstSeen; a key whose probe run would pass `maxProbe` slots (ids crafted to collide) goes
 * to a Map, so a hostile file costs at most `maxProbe` comparisons per id.
 */
export class IdTable {
  /** Pairs [entry + 1, hash] (0 = free). */
  private slots = new Int32Array(2 * 1024);
  private mask = 1023;
  private chars = new Uint16Array(64 * 1024);
  private used = 0;
  /** Entry e: its key is chars[starts[e], starts[e + 1]); it was first seen on rows[e]. */
  private starts = new Int32Array(513);
  private rows = new Int32Array(512);
  private count = 0;
  private overflow?: Map<string, number>;

  constructor(private readonly maxProbe = 32) {}

  /** The row `key` was first seen on; or, the first time, remembers `row` and returns 0. */
  firstRow(key: string, row: number): number {
    const h = hash(key);
    let s = h & this.mask;
    let free = -1;
    for (let probe = 0; probe <= this.maxProbe; probe++) {
      const entry = this.slots[2 * s];
      if (entry === 0) {
        free = s;
        break;
      }
      if (this.slots[2 * s + 1] === h && this.holds(entry - 1, key)) return this.rows[entry - 1];
      s = (s + 1) & this.mask;
    }
    const first = this.overflow?.get(key);
    if (first !== undefined) return first;
    if (free === -1) {
      // A copy of the key: the key itself is a cut of the piece it was read from.
      (this.overflow ??= new Map()).set(JSON.parse(JSON.stringify(key)) as string, row);
      return 0;
    }
    this.add(key, row, free, h);
    return 0;
  }

  private add(key: string, row: number, slot: number, h: number): void {
    const e = this.count++;
    if (e + 1 >= this.rows.length) {
      this.rows = grown(this.rows, this.rows.length * 2);
      this.starts = grown(this.starts, this.rows.length + 1);
    }
    if (this.used + key.length > this.chars.length) this.chars = grown(this.chars, Math.max(this.chars.length * 2, this.used + key.length));
    for (let i = 0; i < key.length; i++) this.chars[this.used + i] = key.charCodeAt(i);
    this.starts[e] = this.used;
    this.used += key.length;
    this.starts[e + 1] = this.used;
    this.rows[e] = row;
    this.slots[2 * slot] = e + 1;
    this.slots[2 * slot + 1] = h;
    if (this.count * 2 >= this.mask + 1) this.grow();
  }

  private holds(e: number, key: string): boolean {
    const start = this.starts[e];
    if (this.starts[e + 1] - start !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.chars[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  /** Entry e's key as a string (only for keys moved to the map: rare). */
  private keyOf(e: number): string {
    let key = '';
    for (let i = this.starts[e]; i < this.starts[e + 1]; i++) key += String.fromCharCode(this.chars[i]);
    return key;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    const mask = (this.mask << 1) | 1;
    for (let o = 0; o < old.length; o += 2) {
      const entry = old[o];
      if (entry === 0) continue;
      let s = old[o + 1] & mask;
      let probe = 0;
      while (slots[2 * s] !== 0 && probe < this.maxProbe) {
        s = (s + 1) & mask;
        probe++;
      }
      if (slots[2 * s] === 0) {
        slots[2 * s] = entry;
        slots[2 * s + 1] = old[o + 1];
      } else {
        // Keep the rule for lookups: a key is within maxProbe slots of its home, or in the map.
        const e = entry - 1;
        (this.overflow ??= new Map()).set(this.keyOf(e), this.rows[e]);
      }
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function grown<T extends Int32Array | Uint16Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
