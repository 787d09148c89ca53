// The rows on the page, column-wise: pieces of text with per-cell offsets (csvReader.ts). Values are cut
// out on demand; the search scans each piece's text once with the engine's own matcher instead of a call
// per cell. It keeps no lower-cased copy of the text: at five million rows that copy was 600 MB, more
// than the offsets of every cell, and building it took longer than a search.
import { sortKey } from './columnKinds';
import { pieceOfRows, unescape, type Piece } from './csvReader';

interface Stored extends Piece {
  /** Index of the piece's first row among all rows. */
  first: number;
  /** Whether the text holds one of the CASE_TRAPS; looked for at the first search. */
  traps?: boolean;
}

export class ColumnStore {
  columns: string[] = [];
  width = 1;
  rowCount = 0;
  private pieces: Stored[] = [];
  private last = 0; // piece of the last lookup: rows are mostly read in runs

  reset(columns: string[]): void {
    this.columns = columns;
    this.width = Math.max(1, columns.length);
    this.rowCount = 0;
    this.pieces = [];
    this.last = 0;
  }

  /** Adds a parsed piece; `mask`, when given, rewrites rows (card numbers) before anything can read them. */
  add(piece: Piece, mask?: (row: string[]) => void): void {
    if (mask) {
      const rows: string[][] = [];
      for (let r = 0; r < piece.rows; r++) rows.push(rowOf(piece, r, this.width));
      rows.forEach(mask);
      piece = pieceOfRows(rows, this.width);
    }
    this.pieces.push({ ...piece, first: this.rowCount });
    this.rowCount += piece.rows;
  }

  /**
   * Numeric keys of a plain-decimal column read straight from the text, without cutting a string per
   * cell; values of any other shape get NaN, as sortKey('number', …) gives them.
   */
  numberKeys(col: number, from: number, to: number, out: Float64Array): void {
    const w = this.width;
    for (const p of this.pieces) {
      if (p.first + p.rows <= from) continue;
      if (p.first >= to) break;
      const { text, start, end } = p;
      for (let r = Math.max(0, from - p.first), last = Math.min(p.rows, to - p.first); r < last; r++) {
        const i = r * w + col;
        out[p.first + r] = decimalAt(text, start[i], end[i]);
      }
    }
  }

  addRows(rows: readonly (readonly string[])[], mask?: (row: string[]) => void): void {
    if (rows.length > 0) this.add(pieceOfRows(rows, this.width), mask);
  }

  get pieceCount(): number {
    return this.pieces.length;
  }

  /** Piece k as stored: its text and cell offsets (a query reads them in place), and its first row. */
  pieceAt(k: number): Readonly<Piece> & { readonly first: number } {
    return this.pieces[k];
  }

  private find(row: number): Stored | undefined {
    const ps = this.pieces;
    let p = ps[this.last];
    if (p && row >= p.first && row < p.first + p.rows) return p;
    let lo = 0;
    let hi = ps.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      p = ps[mid];
      if (row < p.first) hi = mid - 1;
      else if (row >= p.first + p.rows) lo = mid + 1;
      else {
        this.last = mid;
        return p;
      }
    }
    return undefined;
  }

  value(row: number, col: number): string {
    const p = this.find(row);
    if (!p || col >= this.width) return '';
    const i = (row - p.first) * this.width + col;
    return unescape(p.text, p.start[i], p.end[i], p.escaped !== null && p.escaped[i] === 1);
  }

  row(row: number): string[] {
    const p = this.find(row);
    return p ? rowOf(p, row - p.first, this.width) : [];
  }

  /** Calls `each` with every value of a column in row order (for sort keys and kind detection). */
  forEachValue(col: number, from: number, to: number, each: (value: string, row: number) => void): void {
    const w = this.width;
    for (const p of this.pieces) {
      if (p.first + p.rows <= from) continue;
      if (p.first >= to) break;
      for (let r = Math.max(0, from - p.first), last = Math.min(p.rows, to - p.first); r < last; r++) {
        const i = r * w + col;
        each(unescape(p.text, p.start[i], p.end[i], p.escaped !== null && p.escaped[i] === 1), p.first + r);
      }
    }
  }

  /**
   * Marks in `hits` (indexed by row) the rows of piece `k` where `needle` (lower-case, non-empty) occurs
   * inside a value: in column `col`, or in any column when `col` is -1.
   */
  matchPiece(k: number, needle: string, col: number, hits: Uint8Array): void {
    const p = this.pieces[k];
    const w = this.width;
    const { start, end } = p;
    const len = needle.length;
    // A needle with a quote cannot be looked for in the raw text, where quotes inside values are doubled.
    const next = p.escaped !== null && needle.includes('"') ? null : finder(p, needle);
    if (next === null) {
      for (let r = 0; r < p.rows; r++) {
        for (let c = col < 0 ? 0 : col; c < (col < 0 ? w : col + 1); c++) {
          const i = r * w + c;
          if (
            unescape(p.text, start[i], end[i], p.escaped !== null && p.escaped[i] === 1)
              .toLowerCase()
              .includes(needle)
          ) {
            hits[p.first + r] = 1;
            break;
          }
        }
      }
      return;
    }
    let r = 0;
    // The column of the last value found: a needle is mostly met in one column (a type, a merchant), so that
    // value is looked at first, and each row's values one by one only when it is not there.
    let usual = 0;
    let at = next(col < 0 ? 0 : start[col]);
    while (at !== -1) {
      // Rows are laid out in order: move to the row whose cells span `at`.
      while (r + 1 < p.rows && start[(r + 1) * w] <= at) r++;
      const rowEnd = end[r * w + w - 1];
      let found = false;
      if (col < 0) {
        const u = r * w + usual;
        if (start[u] <= at && at + len <= end[u]) found = true;
        else
          for (let c = 0; c < w; c++) {
            const i = r * w + c;
            if (start[i] <= at && at + len <= end[i]) {
              found = true;
              usual = c;
              break;
            }
          }
      } else {
        const i = r * w + col;
        found = start[i] <= at && at + len <= end[i];
      }
      if (found) {
        hits[p.first + r] = 1;
        if (r + 1 >= p.rows) break;
        r++;
        at = next(col < 0 ? start[r * w] : start[r * w + col]);
      } else {
        // Straddles two cells or lies in a quote/delimiter; the next row starts after rowEnd at the latest.
        at = next(col >= 0 && at >= start[r * w + col] ? Math.max(at + 1, rowEnd) : at + 1);
      }
    }
  }
}

/** The needle's case-insensitive regular expression, kept for the next piece of the same search. */
let pattern: { needle: string; rx: RegExp } | undefined;

/**
 * Characters where the `i` flag and lower-casing disagree for a Latin-1 needle (found by trying every
 * character against every needle character): the Kelvin sign (lower-cased to k), Å (to å), Greek mu
 * (matched by µ with the flag, not lower-cased to it) and ẞ (to ß), and İ (to two characters).
 */
const CASE_TRAPS = ['\u212a', '\u212b', '\u039c', '\u03bc', '\u1e9e', '\u0130'];

/**
 * Where `needle` (lower-case) next occurs in `text` from a position, as in text.toLowerCase(), or -1;
 * null when lower-casing would change the text's length (offsets would not line up). A Latin-1 needle is
 * looked for in the text itself with the `i` flag, which then matches exactly what lower-casing would; a
 * text holding one of the CASE_TRAPS, and a needle beyond Latin-1, are lower-cased for this search only.
 */
function finder(p: Stored, needle: string): ((from: number) => number) | null {
  const text = p.text;
  // In a one-byte (Latin-1) string, the engine answers these at once: none of them can be in it. In a
  // two-byte one they are six scans, done once per piece.
  p.traps ??= CASE_TRAPS.some((c) => text.includes(c));
  if (isLatin1(needle) && !p.traps) {
    // Without letters (digits, dates, card-number fragments) case plays no part: the plain search is quicker.
    if (needle.toUpperCase() === needle) return (from) => text.indexOf(needle, from);
    if (pattern?.needle !== needle) pattern = { needle, rx: new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi') };
    const rx = pattern.rx;
    return (from) => {
      rx.lastIndex = from;
      return rx.test(text) ? rx.lastIndex - needle.length : -1;
    };
  }
  const lower = text.toLowerCase();
  return lower.length === text.length ? (from) => lower.indexOf(needle, from) : null;
}

const isLatin1 = (s: string) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) return false;
  return true;
};

/** Exact powers of ten for decimalAt (a table: `10 ** n` on every cell cost more than the parsing). */
const POW10 = Array.from({ length: 16 }, (_, n) => 10 ** n);

/**
 * The plain-decimal fast path of sortKey('number', s.slice(from, to)); anything unusual goes the slow way.
 * No closure or allocation per call: it runs once per row of a column being sorted.
 */
function decimalAt(s: string, from: number, to: number): number {
  while (from < to && s.charCodeAt(from) === 32) from++;
  while (to > from && s.charCodeAt(to - 1) === 32) to--;
  let i = from;
  let neg = false;
  const c0 = s.charCodeAt(i);
  if (c0 === 45 || c0 === 43) {
    neg = c0 === 45;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let dot = false;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (dot) scale++;
    } else if (c === 46 && !dot) dot = true;
    else return sortKey('number', s.slice(from, to));
  }
  // Up to 15 digits the mantissa is exact and one division by a power of ten rounds as Number() does.
  if (digits === 0 || digits > 15) return sortKey('number', s.slice(from, to));
  const v = mantissa / POW10[scale];
  return neg ? -v : v;
}

function rowOf(p: Piece, r: number, w: number): string[] {
  const out = new Array<string>(w);
  const e = p.escaped;
  for (let c = 0; c < w; c++) {
    const i = r * w + c;
    out[c] = unescape(p.text, p.start[i], p.end[i], e !== null && e[i] === 1);
  }
  return out;
}
