// The one report reader: streaming RFC 4180, fed in pieces, no Node (the page uses it through src/shared;
// the host checks, saves and reconciles reports with it through reportRecords.ts). It keeps no string per cell: each piece of text is kept as it
// arrived, and a record's fields are kept as start/end offsets into it (typed arrays). A million-row
// report is then a few large strings and integer arrays instead of nine million small strings, which is
// what made loading slow (papaparse spent most of its time allocating them) and the heap large. Values
// are cut out only for the rows on screen, a sort key or an export (see store.ts).
//
// Text arrives in pieces; only complete records are read, the incomplete tail waits for the next piece.
// A record ends at CRLF, LF or CR outside quotes; a doubled quote inside quotes is one quote; a record
// that is a single empty line is skipped (as papaparse's skipEmptyLines did).

export interface Piece {
  /** The text the offsets point into. */
  text: string;
  rows: number;
  /** Offsets per cell, row-major (rows × width). A missing trailing field is an empty range. */
  start: Uint32Array;
  end: Uint32Array;
  /** Per cell: 1 when the field was quoted and held doubled quotes that must be undone. Null: none did. */
  escaped: Uint8Array | null;
  /** Where the records of this piece begin in `text` (past the header when it was read with them). */
  begin: number;
  /** Where the last record read ended in `text` (the rest waits for the next piece). */
  consumed: number;
}

export interface CsvReaderOptions {
  delimiter?: string;
  onHeader(columns: string[]): void;
  onPiece(piece: Piece): void;
  /** Text read without a record (blank lines): text[from..to). Report lines are counted with it. */
  onSkipped?(text: string, from: number, to: number): void;
}

import { readRecords, type DetachedRecords, type ReadResult } from './reportScan';

export { readDetached, unescape, type DetachedRecords } from './reportScan';

const QUOTE = 34;
const LF = 10;
const CR = 13;
/** Past this much text without a complete record, check cheaply for a record end before reading again. */
const BIG_CARRY = 8 << 20;

export class CsvReader {
  private carry = '';
  private carryQuotesOdd = false; // quote parity of the carry when it is a record still open
  private delimiter: number;
  private header: string[] | undefined;
  private first = true;
  errors = 0;
  records = 0;
  /** Records with more or fewer fields than the header (the page pads or cuts them; a check refuses them). */
  ragged = 0;

  constructor(private readonly options: CsvReaderOptions) {
    this.delimiter = options.delimiter ? options.delimiter.charCodeAt(0) : -1;
  }

  /** The delimiter (a character code) and the header's width, once the header is read. */
  get layout(): { delimiter: number; width: number } | undefined {
    return this.header ? { delimiter: this.delimiter, width: Math.max(1, this.header.length) } : undefined;
  }

  push(text: string): void {
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.carry.length > BIG_CARRY && !mayEndRecord(text, this.carryQuotesOdd)) {
      // One huge open field (a stray quote): reading it again on every piece would be quadratic.
      this.carry += text;
      this.carryQuotesOdd = oddQuotes(text) !== this.carryQuotesOdd;
      return;
    }
    this.read(this.carry + text, false);
  }

  /**
   * For a reader fed by two threads (the results page, webview-ui/csvLoad.ts): reads text[0..at) after
   * what is carried, as push would, but only when that ends exactly where a record ends; then nothing is
   * carried and the answer is true. Otherwise nothing is read and the answer is false: `at` was not where
   * a record starts, and the caller pushes the text instead.
   */
  pushToRecordStart(text: string, at: number): boolean {
    if (this.first || !this.header || this.carry.length > BIG_CARRY) return false;
    const s = this.carry + text.slice(0, at);
    const got = readRecords(s, 0, this.delimiter, Math.max(1, this.header.length), false, Infinity);
    if (got.consumed !== s.length) return false;
    this.take(s, 0, got);
    this.keep(s, s.length);
    return true;
  }

  /**
   * Records that readDetached read from `records.begin` of `text`, once pushToRecordStart(text,
   * records.begin) said a record starts there: passed on as push would pass them, the rest carried.
   */
  adopt(text: string, records: DetachedRecords): void {
    this.take(text, records.begin, records);
    this.keep(text, records.consumed);
  }

  /** The text ended: whatever is left is the last record, even without a final line break. */
  end(): void {
    const rest = this.carry;
    this.carry = '';
    this.read(rest, true);
    if (!this.header) {
      this.header = [];
      this.options.onHeader([]);
    }
  }

  private read(s: string, final: boolean): void {
    let from = 0;
    if (this.delimiter < 0) {
      const line = firstLine(s);
      if (line === undefined && !final) {
        this.keep(s, 0);
        return;
      }
      this.delimiter = guessDelimiter(line ?? s);
    }
    if (!this.header) {
      const one = readRecords(s, 0, this.delimiter, 0, final, 1);
      this.errors += one.errors;
      if (one.rows === 0) {
        this.keep(s, one.consumed);
        return;
      }
      this.header = one.values!;
      this.options.onHeader(this.header);
      from = one.consumed;
    }
    const width = Math.max(1, this.header.length);
    const got = readRecords(s, from, this.delimiter, width, final, Infinity);
    this.take(s, from, got);
    this.keep(s, got.consumed);
  }

  /** Counts records read from s[from..] and passes them on. */
  private take(s: string, from: number, got: ReadResult): void {
    this.errors += got.errors;
    this.ragged += got.ragged;
    this.records += got.rows;
    if (got.rows > 0)
      this.options.onPiece({
        text: s,
        rows: got.rows,
        start: got.start!,
        end: got.end!,
        escaped: got.escaped,
        begin: from,
        consumed: got.consumed,
      });
    else if (got.consumed > from) this.options.onSkipped?.(s, from, got.consumed);
  }

  private keep(s: string, consumed: number): void {
    this.carry = consumed === 0 ? s : s.slice(consumed);
    if (this.carry.length > BIG_CARRY) this.carryQuotesOdd = oddQuotes(this.carry);
  }
}

function oddQuotes(s: string): boolean {
  let odd = false;
  for (let i = s.indexOf('"'); i !== -1; i = s.indexOf('"', i + 1)) odd = !odd;
  return odd;
}

/** Whether `text`, following an open record with the given quote parity, has a line break outside quotes. */
function mayEndRecord(text: string, odd: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) odd = !odd;
    else if (!odd && (c === LF || c === CR)) return true;
  }
  return false;
}

function firstLine(s: string): string | undefined {
  const n = s.search(/[\r\n]/);
  return n === -1 ? undefined : s.slice(0, n);
}

/** The separator the header line uses most, outside quotes: comma, semicolon, tab or pipe. */
function guessDelimiter(line: string): number {
  const counts = new Map<number, number>([
    [44, 0],
    [59, 0],
    [9, 0],
    [124, 0],
  ]);
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best = 44;
  for (const [c, n] of counts) if (n > counts.get(best)!) best = c;
  return best;
}

/** Rows already in memory (a gateway answer) as one piece, so the page has one way to hold rows. */
export function pieceOfRows(rows: readonly (readonly string[])[], width: number): Piece {
  const parts: string[] = [];
  const start = new Uint32Array(rows.length * width);
  const end = new Uint32Array(rows.length * width);
  let at = 0;
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) {
      const v = row[c] ?? '';
      parts.push(v);
      start[r * width + c] = at;
      at += v.length;
      end[r * width + c] = at;
    }
  });
  const text = parts.join('');
  return { text, rows: rows.length, start, end, escaped: null, begin: 0, consumed: text.length };
}
