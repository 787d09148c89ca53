// Streaming RFC 4180 reader for the page that keeps no string per cell: each piece of text is kept as it
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
}

export interface CsvReaderOptions {
  delimiter?: string;
  onHeader(columns: string[]): void;
  onPiece(piece: Piece): void;
}

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

  constructor(private readonly options: CsvReaderOptions) {
    this.delimiter = options.delimiter ? options.delimiter.charCodeAt(0) : -1;
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
    this.errors += got.errors;
    this.records += got.rows;
    if (got.rows > 0) this.options.onPiece({ text: s, rows: got.rows, start: got.start!, end: got.end!, escaped: got.escaped });
    this.keep(s, got.consumed);
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
export function guessDelimiter(line: string): number {
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

interface ReadResult {
  rows: number;
  consumed: number;
  errors: number;
  start?: Uint32Array;
  end?: Uint32Array;
  escaped: Uint8Array | null;
  /** With width 0: the values of the one record read (the header). */
  values?: string[];
}

/**
 * Reads complete records from s[from..]. With `width` 0 it reads `maxRows` records as value arrays (the
 * header); otherwise it fills offset arrays of `width` cells per record, dropping extra fields.
 */
function readRecords(s: string, from: number, delim: number, width: number, final: boolean, maxRows: number): ReadResult {
  const n = s.length;
  let cap = width > 0 ? Math.max(64, Math.ceil((n - from) / (width * 6))) * width : 0;
  let start: Uint32Array = new Uint32Array(cap);
  let end: Uint32Array = new Uint32Array(cap);
  let escaped: Uint8Array | null = null;
  const values: string[] = [];
  let rows = 0;
  let errors = 0;
  let pos = from;
  let consumed = from;
  let col = 0;
  let base = 0; // rows * width
  let recordErrors = 0;
  record: while (rows < maxRows) {
    if (pos >= n) {
      if (final && col > 0) {
        // A delimiter was the last character: the record ends with an empty field.
        if (width === 0) values.push('');
        else if (col < width) {
          start[base + col] = n;
          end[base + col] = n;
        }
        col++;
      } else break;
    } else {
      let fs: number;
      let fe: number;
      let esc = false;
      let c = s.charCodeAt(pos);
      if (c === QUOTE) {
        let q = pos + 1;
        for (;;) {
          q = s.indexOf('"', q);
          if (q === -1) break;
          if (s.charCodeAt(q + 1) === QUOTE) {
            esc = true;
            q += 2;
            continue;
          }
          break;
        }
        if (q === -1 || (q + 1 >= n && !final)) {
          if (!final) break; // the field (and record) continues in the next piece
          if (q === -1) {
            recordErrors++; // an unclosed quote runs to the end of the text
            q = n;
          }
        }
        fs = pos + 1;
        fe = q;
        pos = Math.min(n, q + 1);
        c = pos < n ? s.charCodeAt(pos) : -1;
        if (c !== -1 && c !== delim && c !== LF && c !== CR) {
          // Text after a closing quote: malformed; keep the quoted part and skip to the field's end.
          recordErrors++;
          while (pos < n && (c = s.charCodeAt(pos)) !== delim && c !== LF && c !== CR) pos++;
          if (pos >= n && !final) break;
          c = pos < n ? c : -1;
        }
      } else {
        let e = pos;
        while (e < n && (c = s.charCodeAt(e)) !== delim && c !== LF && c !== CR) e++;
        if (e >= n && !final) break;
        fs = pos;
        fe = e;
        pos = e;
        c = e < n ? c : -1;
      }
      if (width === 0) values.push(unescape(s, fs, fe, esc));
      else if (col < width) {
        if (base + width > cap) {
          cap *= 2;
          start = grow(start, cap);
          end = grow(end, cap);
          if (escaped) escaped = grow8(escaped, cap);
        }
        start[base + col] = fs;
        end[base + col] = fe;
        if (esc) {
          escaped ??= new Uint8Array(cap);
          escaped[base + col] = 1;
        }
      }
      col++;
      if (c === delim) {
        pos++;
        continue record;
      }
      if (c === CR) {
        if (pos + 1 >= n && !final) break; // CR or the first half of CRLF: decide with the next piece
        pos += s.charCodeAt(pos + 1) === LF ? 2 : 1;
      } else if (c === LF) pos++;
    }
    // End of a record.
    const blank = col === 1 && (width === 0 ? values[0] === '' : start[base] === end[base]);
    if (blank) {
      if (width === 0) values.length = 0;
    } else {
      if (width > 0) {
        for (let k = col; k < width; k++) {
          start[base + k] = pos;
          end[base + k] = pos;
        }
        base += width;
      }
      rows++;
      errors += recordErrors;
    }
    recordErrors = 0;
    col = 0;
    consumed = pos;
    if (pos >= n) break;
  }
  if (width === 0) return { rows, consumed, errors, escaped: null, values };
  // Copies of the exact size: the capacity was a guess, and a subarray would keep all of it alive.
  return { rows, consumed, errors, start: start.slice(0, base), end: end.slice(0, base), escaped: escaped ? escaped.slice(0, base) : null };
}

function grow(a: Uint32Array, cap: number): Uint32Array {
  const b = new Uint32Array(cap);
  b.set(a);
  return b;
}

function grow8(a: Uint8Array, cap: number): Uint8Array {
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}

export function unescape(s: string, from: number, to: number, escaped: boolean): string {
  const v = s.slice(from, to);
  return escaped ? v.replace(/""/g, '"') : v;
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
  return { text: parts.join(''), rows: rows.length, start, end, escaped: null };
}
