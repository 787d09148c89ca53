// The distinct values of one group column of a query (run.ts), each given a small id in order of first
// appearance, and a piece's ids worked out a column at a time: one tight loop per column, its ids in a
// typed array, no string cut and no Map entry boxed per row (a grouping of five million rows by currency
// and day was mostly this).

import { moment, readDate } from './cells';
import { fnv1a, FNV_OFFSET } from '../fnv';
import { cellText, type Cells } from './filter';
import { moneyKind } from './kinds';

/** Days an array of day ids covers around the first day met. */
const DAY_SPAN = 65536;

/**
 * Codes of short cells (up to six Latin-1 characters and the length: below 2^51) and their ids, in an
 * open-addressed table of doubles: a Map keyed by such a number boxes it on every lookup.
 */
class CodeTable {
  private keys = new Float64Array(64);
  private ids = new Int32Array(64).fill(-1);
  private count = 0;

  /** The id of `code`, or -1. */
  get(code: number): number {
    const mask = this.keys.length - 1;
    for (let h = hash(code) & mask; ; h = (h + 1) & mask) {
      const id = this.ids[h];
      if (id < 0 || this.keys[h] === code) return id;
    }
  }

  set(code: number, id: number): void {
    if (2 * (this.count + 1) > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let h = hash(code) & mask;
    while (this.ids[h] >= 0 && this.keys[h] !== code) h = (h + 1) & mask;
    if (this.ids[h] < 0) this.count++;
    this.keys[h] = code;
    this.ids[h] = id;
  }

  private grow(): void {
    const { keys, ids } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.ids = new Int32Array(keys.length * 2).fill(-1);
    this.count = 0;
    for (let h = 0; h < keys.length; h++) if (ids[h] >= 0) this.set(keys[h], ids[h]);
  }
}

/** A short cell's code (below 2^51) mixed into 32 bits. */
function hash(code: number): number {
  const h = Math.imul((code | 0) ^ ((code / 4294967296) | 0), 0x9e3779b1);
  return h ^ (h >>> 15);
}

/** Slots of the fill's memo, less one; and the misses after which a fill stops asking it. */
const MEMO_MASK = 63;
const MEMO_MISSES = 256;

/**
 * Every value's id by a hash of its characters, each hit checked against the value's own text: a cell is
 * looked up where it lies, and no string is cut for a value already met. One table for every value, of
 * any length and however it was met (a cell, a date's label, a kind), so one text is one id; typed arrays,
 * not a Map of strings (a column of an id per row holds a million values).
 */
class TextTable {
  private hashes = new Int32Array(64);
  private ids = new Int32Array(64).fill(-1);
  private count = 0;

  /** The id of s[from, to), whose textHash is h, among `values`; or -1. */
  get(h: number, s: string, from: number, to: number, values: readonly string[]): number {
    const mask = this.ids.length - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const id = this.ids[at];
      if (id < 0) return -1;
      if (this.hashes[at] === h && sameText(values[id], s, from, to)) return id;
    }
  }

  /** A new value's id, under its textHash h. */
  set(h: number, id: number): void {
    if (2 * (this.count + 1) > this.ids.length) this.grow();
    this.put(h, id);
  }

  private put(h: number, id: number): void {
    const mask = this.ids.length - 1;
    let at = h & mask;
    while (this.ids[at] >= 0) at = (at + 1) & mask;
    this.hashes[at] = h;
    this.ids[at] = id;
    this.count++;
  }

  private grow(): void {
    const { hashes, ids } = this;
    this.hashes = new Int32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2).fill(-1);
    this.count = 0;
    for (let at = 0; at < ids.length; at++) if (ids[at] >= 0) this.put(hashes[at], ids[at]);
  }
}

function textHash(s: string, from: number, to: number): number {
  const h = fnv1a(s, from, to, FNV_OFFSET ^ (to - from));
  return h ^ (h >>> 15);
}

function sameText(value: string, s: string, from: number, to: number): boolean {
  if (value.length !== to - from) return false;
  for (let j = 0; j < value.length; j++) if (value.charCodeAt(j) !== s.charCodeAt(from + j)) return false;
  return true;
}

/**
 * The distinct values of one group column, each given a small id. A short cell (up to six Latin-1
 * characters, as a currency or a type code) is looked up by a number made of its characters, without
 * cutting a string for it; a longer one by its text. A date column by period is looked up by its day.
 */
export class Interner {
  readonly values: string[] = [];
  private readonly byCode = new CodeTable();
  private readonly byText = new TextTable();
  /** Days outside the array of day ids, by day number. */
  private readonly farDays = new Map<number, number>();
  /** Ids of days near the first one met (±90 years), by day number: an array read, not a map lookup. */
  private dayIds: Int32Array | undefined;
  private dayBase = 0;
  /** Ids by a cell's length and first character (fill): -1 for none yet. */
  private readonly memo = new Int32Array(MEMO_MASK + 1).fill(-1);

  /** For a kind column: the cells' own ids, and the kind id of each (a type is classified once, not per row). */
  private readonly cells: Interner | undefined;
  private readonly kindOfCell: number[] = [];

  constructor(
    private readonly labelOf?: (day: number) => string,
    kind = false,
  ) {
    this.cells = kind ? new Interner() : undefined;
  }

  /**
   * The ids of column `col` of the first `rows` rows of `p` (`width` cells each) into `out`, for the rows
   * `keep` marks 1 (every row when null); the others' slots are left as they were. Values meet their ids
   * in row order, as one idOf per row would give them.
   */
  fill(p: Cells, rows: number, width: number, col: number, keep: Uint8Array | null, out: Int32Array): void {
    if (this.cells !== undefined) {
      this.cells.fill(p, rows, width, col, keep, out);
      for (let r = 0; r < rows; r++) if (keep === null || keep[r] === 1) out[r] = this.kindOf(out[r]);
      return;
    }
    const s = p.text;
    const start = p.start;
    const end = p.end;
    if (this.labelOf !== undefined) {
      for (let r = 0, k = col; r < rows; r++, k += width) {
        if (keep !== null && keep[r] === 0) continue;
        out[r] = readDate(s, start[k], end[k]) ? this.idOfDay(moment.day) : this.idOfCell(p, k);
      }
      return;
    }
    // The id last found for a cell of each length and first character, checked against the cell's own text
    // before the cell is coded or hashed: a column of a few values (a currency, a type) mostly hits it. A
    // column that keeps missing (an id per row) stops asking for the rest of the piece.
    const memo = this.memo;
    const values = this.values;
    const escaped = p.escaped;
    let misses = 0;
    for (let r = 0, k = col; r < rows; r++, k += width) {
      if (keep !== null && keep[r] === 0) continue;
      const from = start[k];
      const to = end[k];
      const slot = ((to - from) * 31 + s.charCodeAt(from)) & MEMO_MASK;
      const known = misses < MEMO_MISSES ? memo[slot] : -1;
      if (known >= 0 && (escaped === null || escaped[k] === 0) && sameText(values[known], s, from, to)) out[r] = known;
      else {
        misses++;
        out[r] = memo[slot] = this.idOfCell(p, k);
      }
    }
  }

  /** The id of the cell p[k]. No closure or string per call: this runs for every row and group column. */
  idOf(p: Cells, k: number): number {
    if (this.cells !== undefined) return this.kindOf(this.cells.idOf(p, k));
    if (this.labelOf !== undefined && readDate(p.text, p.start[k], p.end[k])) return this.idOfDay(moment.day);
    return this.idOfCell(p, k);
  }

  /** The kind id of the cell whose own id is `cell` (a kind column). */
  private kindOf(cell: number): number {
    const id = this.kindOfCell[cell];
    return id !== undefined ? id : (this.kindOfCell[cell] = this.idOfText(moneyKind(this.cells!.values[cell])));
  }

  /** The cell as it is (not as a date). */
  private idOfCell(p: Cells, k: number): number {
    const s = p.text;
    const from = p.start[k];
    const to = p.end[k];
    const n = to - from;
    if (p.escaped !== null && p.escaped[k] === 1) return this.idOfText(cellText(p, k));
    let code = 0;
    for (let j = from; j < to && code >= 0; j++) {
      const c = s.charCodeAt(j);
      code = n > 6 || c > 255 ? -1 : code * 256 + c;
    }
    if (code < 0) {
      const h = textHash(s, from, to);
      const known = this.byText.get(h, s, from, to, this.values);
      return known >= 0 ? known : this.newValue(s.slice(from, to), h);
    }
    code = code * 8 + n;
    const id = this.byCode.get(code);
    if (id >= 0) return id;
    const own = this.idOfText(s.slice(from, to));
    this.byCode.set(code, own);
    return own;
  }

  private idOfDay(day: number): number {
    if (this.dayIds === undefined) {
      this.dayIds = new Int32Array(DAY_SPAN).fill(-1);
      this.dayBase = day - DAY_SPAN / 2;
    }
    const at = day - this.dayBase;
    if (at < 0 || at >= DAY_SPAN) {
      let id = this.farDays.get(day);
      if (id === undefined) this.farDays.set(day, (id = this.idOfText(this.labelOf!(day))));
      return id;
    }
    let id = this.dayIds[at];
    // A date's label and a cell of that text are one group.
    if (id < 0) id = this.dayIds[at] = this.idOfText(this.labelOf!(day));
    return id;
  }

  private idOfText(text: string): number {
    const h = textHash(text, 0, text.length);
    const id = this.byText.get(h, text, 0, text.length, this.values);
    return id >= 0 ? id : this.newValue(text, h);
  }

  /** The id of a value not met before, whose textHash is h. */
  private newValue(text: string, h: number): number {
    const id = this.values.length;
    // A copy of its own: a value cut from a piece of the report (13 characters or more) would keep the
    // whole piece alive, and a streamed report would stay in memory, a piece per distinct value.
    this.values.push(text.length >= 13 ? (text + ' ').slice(0, -1) : text);
    this.byText.set(h, id);
    return id;
  }
}
