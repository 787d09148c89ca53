import { fnv1a } from '../fnv';

/**
 * The first row each string was seen on, for duplicate client-orderids. An open-addressing table of
 * row numbers keyed by an FNV-1a hash of the characters: a Map spent a tenth of the whole lint hashing
 * and regrowing for 100k unique ids cut out of one large text.
 *
 * FNV-1a is not keyed, so ids can be crafted to share a slot: a key whose probe run would pass
 * `maxProbe` slots goes to a Map instead (V8 seeds its string hash per process), so a hostile file costs
 * at most `maxProbe` comparisons per id, never a walk along every id before it.
 *
 * The probe is this one class's; where the keys' characters are kept is a subclass's: FirstSeen keeps each
 * as a range of the string it was read from (the linter's document), the language server's IdTable copies
 * them into one pool (a file read in pieces).
 */
export abstract class FirstRowTable {
  /** Pairs [entry + 1, hash] (0 = free): a probe compares hashes without reading the entries. */
  private slots: Int32Array;
  private mask: number;
  /** Entries are numbered from 0 in the order they were kept. */
  protected count = 0;
  private overflow?: Map<string, number>;

  /** `capacity`: the slots to start with, a power of two; at most half of them are used. */
  protected constructor(
    capacity: number,
    private readonly maxProbe: number,
  ) {
    this.slots = new Int32Array(2 * capacity);
    this.mask = capacity - 1;
  }

  /** The row `key` was first seen on; or, the first time, remembers `row` and returns 0. */
  firstRow(key: string, row: number): number {
    return this.firstRowIn(key, 0, key.length, row);
  }

  /** firstRow of the characters `source[from, to)`, read in place. */
  firstRowIn(source: string, from: number, to: number, row: number): number {
    return this.firstRowHashed(hash(source, from, to), source, from, to, row);
  }

  /** firstRowIn when the caller has already read the key: `h` must be fnv1a(source, from, to). */
  firstRowHashed(h: number, source: string, from: number, to: number, row: number): number {
    let s = h & this.mask;
    let free = -1;
    for (let probe = 0; probe <= this.maxProbe; probe++) {
      const entry = this.slots[2 * s];
      if (entry === 0) {
        free = s;
        break;
      }
      if (this.slots[2 * s + 1] === h && this.holds(entry - 1, source, from, to)) return this.rowOf(entry - 1);
      s = (s + 1) & this.mask;
    }
    if (this.overflow) {
      const first = this.overflow.get(source.slice(from, to));
      if (first !== undefined) return first;
    }
    if (free === -1) {
      (this.overflow ??= new Map()).set(this.ownKey(source, from, to), row);
      return 0;
    }
    const e = this.count++;
    this.keep(e, source, from, to, row);
    this.slots[2 * free] = e + 1;
    this.slots[2 * free + 1] = h;
    if (this.count * 2 >= this.mask + 1) this.grow();
    return 0;
  }

  /** Is entry e's key the characters `source[from, to)`? */
  protected abstract holds(e: number, source: string, from: number, to: number): boolean;
  /** The row entry e was first seen on. */
  protected abstract rowOf(e: number): number;
  /** Keeps entry e: the key `source[from, to)`, first seen on `row`. */
  protected abstract keep(e: number, source: string, from: number, to: number, row: number): void;
  /** The key `source[from, to)` as the overflow map keeps it. */
  protected abstract ownKey(source: string, from: number, to: number): string;
  /** Entry e's key as a string, for the overflow map: the entry is no longer looked up in the slots. */
  protected abstract release(e: number): string;

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    const mask = (this.mask << 1) | 1;
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
        const row = this.rowOf(entry - 1);
        (this.overflow ??= new Map()).set(this.release(entry - 1), row);
      }
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** The first rows of keys kept as ranges of the strings they were read from (the document, for the linter). */
export class FirstSeen extends FirstRowTable {
  // Entry e: its key is `source[starts[e], ends[e])`, where the source is the first one kept (`main`, the
  // linter's document) unless `others` holds the key's own copy (read from another string: a row's own
  // unescaped text). Keys of main are not cut: no string per id is made, and no array of a pointer per id
  // is kept. starts[e] is -1 once the key is released.
  private main: string | undefined;
  private others?: Map<number, string>;
  private starts: Int32Array;
  private ends: Int32Array;
  private rows: Int32Array;

  /** `main`: the string most keys are read from (the linter's document); else the first one kept. */
  constructor(expected: number, maxProbe = 32, main?: string) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    super(capacity, maxProbe);
    this.main = main;
    this.starts = new Int32Array(capacity / 2);
    this.ends = new Int32Array(capacity / 2);
    this.rows = new Int32Array(capacity / 2);
  }

  private sourceOf(e: number): string {
    return this.others?.get(e) ?? this.main!;
  }

  protected holds(e: number, source: string, from: number, to: number): boolean {
    const start = this.starts[e];
    if (start < 0 || this.ends[e] - start !== to - from) return false;
    const kept = this.sourceOf(e);
    for (let i = 0; i < to - from; i++) if (kept.charCodeAt(start + i) !== source.charCodeAt(from + i)) return false;
    return true;
  }

  protected rowOf(e: number): number {
    return this.rows[e];
  }

  protected keep(e: number, source: string, from: number, to: number, row: number): void {
    if (e >= this.rows.length) {
      this.starts = grown(this.starts, 2 * this.starts.length);
      this.ends = grown(this.ends, 2 * this.ends.length);
      this.rows = grown(this.rows, 2 * this.rows.length);
    }
    // The same string object as main is the usual case, and compared by reference. A key read from
    // another string (a row's own unescaped text) is kept as a copy of its characters alone: keeping the
    // row's text alive for it kept about 200 bytes per such row in the old generation.
    if (this.main === undefined) this.main = source;
    else if (source !== this.main) {
      (this.others ??= new Map()).set(e, source.slice(from, to));
      to -= from;
      from = 0;
    }
    this.starts[e] = from;
    this.ends[e] = to;
    this.rows[e] = row;
  }

  protected ownKey(source: string, from: number, to: number): string {
    return source.slice(from, to);
  }

  protected release(e: number): string {
    const key = this.sourceOf(e).slice(this.starts[e], this.ends[e]);
    this.others?.delete(e);
    this.starts[e] = -1;
    return key;
  }
}

/** The same numbers in an array of `length`. */
export function grown<T extends Int32Array | Uint16Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

const hash = (source: string, from: number, to: number): number => fnv1a(source, from, to);
