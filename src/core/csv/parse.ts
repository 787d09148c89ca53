import Papa from 'papaparse';
import { LineIndex } from '../text';

// CSV reading with the exact offset of every field.
//
// papaparse does the parsing (values, quoting, quote errors); it does not report where each field lies, so
// offsets are recovered from its values: an unquoted field is as long as its value, a quoted one is two
// quotes plus the value with every `"` doubled, and each field must be followed by the delimiter or a
// record end. That check proves the recovery exact. A record without any quote needs no recovery at all:
// it ends at the next record separator and its offsets are derived from its values only when asked
// (most of a batch, so the common case stores nothing). A record papaparse flags (or whose recovery does not
// line up) gets a small recovery scan that finds the broken cell and where the record ends; parsing then
// resumes with papaparse after it, because papaparse itself swallows the rest of the file after a quote
// error and every later row would be lost.

export interface CsvField {
  value: string;
  start: number; // offset of the first character (the opening quote when quoted)
  end: number; // offset after the last character
  quoted: boolean;
}

export interface CsvSyntaxProblem {
  start: number;
  end: number;
  message: string;
}

const QUOTE = 34; // "
const NEWLINE = 10; // \n (after normalisation the only record separator papaparse sees)

/**
 * Every field's start and end offset, for the whole file, in one growable typed array: a batch has
 * millions of cells and an array per record was most of the linter's garbage-collection time.
 */
class Bounds {
  data = new Int32Array(1 << 16);
  length = 0;

  push(start: number, end: number): void {
    if (this.length + 2 > this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = start;
    this.data[this.length++] = end;
  }
}

export class CsvRecord {
  private cachedFields?: CsvField[];

  constructor(
    private readonly text: string,
    /** Field values after unquoting. */
    readonly values: string[],
    /**
     * Where the offsets are: in `bounds` from index `at`, or, for a record without any quote (most of a
     * batch), nowhere: its fields are its values joined by the delimiter, so offsets are derived from
     * `at`, the record's start, only when someone asks (a diagnostic, a hover).
     */
    private readonly bounds: Bounds | undefined,
    private readonly at: number,
    /** Set when the record is not well-formed CSV: its cells cannot be trusted. */
    readonly syntaxProblem?: CsvSyntaxProblem,
  ) {}

  get start(): number {
    return this.bounds ? this.bounds.data[this.at] : this.at;
  }

  get end(): number {
    return this.fieldEnd(this.values.length - 1);
  }

  /** An empty record: nothing between two record separators. */
  get isBlank(): boolean {
    return this.values.length === 1 && this.values[0].length === 0 && (!this.bounds || this.start === this.end);
  }

  fieldStart(i: number): number {
    if (this.bounds) return this.bounds.data[this.at + 2 * i];
    let offset = this.at;
    for (let j = 0; j < i; j++) offset += this.values[j].length + 1;
    return offset;
  }

  fieldEnd(i: number): number {
    if (this.bounds) return this.bounds.data[this.at + 2 * i + 1];
    return this.fieldStart(i) + this.values[i].length;
  }

  field(i: number): CsvField | undefined {
    return this.fields[i];
  }

  /** Field objects are built on demand: the linter works on values and bounds, hovers want objects. */
  get fields(): CsvField[] {
    if (!this.cachedFields) {
      this.cachedFields = this.values.map((value, i) => ({
        value,
        start: this.fieldStart(i),
        end: this.fieldEnd(i),
        quoted: this.text.charCodeAt(this.fieldStart(i)) === QUOTE,
      }));
    }
    return this.cachedFields;
  }
}

export class ParsedCsv {
  private cachedIndex?: LineIndex;

  constructor(
    readonly text: string,
    readonly records: CsvRecord[],
    readonly bom: boolean,
    readonly delimiter: string,
  ) {}

  /** Built on first use: only diagnostics and hovers need line/character positions. */
  get index(): LineIndex {
    return (this.cachedIndex ??= new LineIndex(this.text));
  }
}

/** Maps offsets in the normalised text (every line break one `\n`) back to the original text. */
class OffsetMap {
  private i = 0;
  constructor(
    private readonly bomLength: number,
    /** Normalised offsets of the `\n`s that were CRLF pairs, ascending. */
    private readonly collapsed: number[],
  ) {}

  /** Offsets must be asked in ascending order (the parse walks the text once, front to back). */
  toOriginal(n: number): number {
    const c = this.collapsed;
    while (this.i < c.length && c[this.i] < n) this.i++;
    return n + this.bomLength + this.i;
  }

  /** Any order, by binary search: for the rare syntax problems. */
  lookup(n: number): number {
    let lo = 0;
    let hi = this.collapsed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.collapsed[mid] < n) lo = mid + 1;
      else hi = mid;
    }
    return n + this.bomLength + lo;
  }
}

/** The one record separator the text uses, or undefined when it mixes them (then it is normalised). */
function singleLineBreak(body: string): '\n' | '\r\n' | '\r' | undefined {
  const firstCR = body.indexOf('\r');
  if (firstCR === -1) return '\n';
  if (body.indexOf('\n') === -1) return '\r';
  // CRLF only if every CR is followed by LF and every LF preceded by CR.
  let crs = 0;
  for (let i = firstCR; i !== -1; i = body.indexOf('\r', i + 1)) {
    if (body.charCodeAt(i + 1) !== NEWLINE) return undefined;
    crs++;
  }
  let lfs = 0;
  for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) lfs++;
  return crs === lfs ? '\r\n' : undefined;
}

function normalise(body: string, bomLength: number): { norm: string; map: OffsetMap } {
  const collapsed: number[] = [];
  let removed = 0;
  for (let i = body.indexOf('\r\n'); i !== -1; i = body.indexOf('\r\n', i + 2)) {
    collapsed.push(i - removed);
    removed++;
  }
  return { norm: body.replace(/\r\n?/g, '\n'), map: new OffsetMap(bomLength, collapsed) };
}

function countQuotes(s: string): number {
  let n = 0;
  for (let i = s.indexOf('"'); i !== -1; i = s.indexOf('"', i + 1)) n++;
  return n;
}

/** The walk over one text papaparse reads: offsets here are in that text (`src`). */
interface Walk {
  src: string;
  newline: string;
  delimiter: string;
  /** Maps an offset in `src` to the original text; ascending calls. */
  toOriginal(n: number): number;
  lookup(n: number): number;
}

/**
 * Recovers the offsets of one row papaparse returned, starting at `start`, straight into `bounds`.
 * Returns the next record's start, or -1 when the text does not line up (the row is broken).
 */
function locateRow(w: Walk, start: number, values: string[], bounds: Bounds): number {
  const src = w.src;
  const delim = w.delimiter.charCodeAt(0);
  const nl0 = w.newline.charCodeAt(0);
  const nl1 = w.newline.length === 2 ? w.newline.charCodeAt(1) : -1;
  const mark = bounds.length;
  let at = start;
  const last = values.length - 1;
  for (let i = 0; i <= last; i++) {
    const v = values[i];
    const fieldStart = at;
    let end: number;
    if (src.charCodeAt(at) === QUOTE) {
      end = at + 2 + v.length + (v.indexOf('"') === -1 ? 0 : countQuotes(v));
      if (src.charCodeAt(end - 1) !== QUOTE) break;
    } else {
      end = at + v.length;
    }
    if (i < last) {
      if (src.charCodeAt(end) !== delim) break;
      at = end + 1;
    } else if (end === src.length) {
      at = end + 1;
    } else if (src.charCodeAt(end) === nl0 && (nl1 === -1 || src.charCodeAt(end + 1) === nl1)) {
      at = end + w.newline.length;
    } else {
      break;
    }
    bounds.push(w.toOriginal(fieldStart), w.toOriginal(end));
    if (i === last) return at;
  }
  bounds.length = mark; // undo a partial row
  return -1;
}

/** The recovery scan for one broken record: finds the bad cell and where the record ends. */
function recoverRecord(w: Walk, start: number): { values: string[]; next: number; problem?: CsvSyntaxProblem; bounds: number[] } {
  const { src, delimiter, newline } = w;
  const values: string[] = [];
  const bounds: number[] = [];
  let problem: CsvSyntaxProblem | undefined;
  let i = start;
  const n = src.length;
  const fieldEndFrom = (from: number): number => {
    const d = src.indexOf(delimiter, from);
    const nl = src.indexOf(newline, from);
    if (d === -1) return nl === -1 ? n : nl;
    return nl === -1 ? d : Math.min(d, nl);
  };
  for (;;) {
    const fieldStart = i;
    if (src.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      let close = -1;
      for (;;) {
        const k = src.indexOf('"', j);
        if (k === -1) break;
        if (src.charCodeAt(k + 1) === QUOTE) {
          j = k + 2;
          continue;
        }
        close = k;
        break;
      }
      if (close === -1) {
        // The field runs to the end of the text; the range stops before the final line breaks.
        let end = n;
        while (end > fieldStart + 1 && (src.charCodeAt(end - 1) === NEWLINE || src.charCodeAt(end - 1) === 13)) end--;
        problem ??= { start: fieldStart, end, message: 'unterminated quote: the quoted field is never closed' };
        values.push(src.slice(i + 1).replace(/""/g, '"'));
        bounds.push(fieldStart, n);
        return { values, bounds, next: n + 1, problem };
      }
      const after = close + 1;
      let end = after;
      if (after < n && !src.startsWith(newline, after) && src[after] !== delimiter) {
        end = fieldEndFrom(after);
        problem ??= { start: fieldStart, end, message: 'text after the closing quote of a quoted field' };
      }
      values.push(src.slice(i + 1, close).replace(/""/g, '"') + src.slice(after, end));
      bounds.push(fieldStart, end);
      i = end;
    } else {
      const end = fieldEndFrom(i);
      values.push(src.slice(i, end));
      bounds.push(fieldStart, end);
      i = end;
    }
    if (i < n && src[i] === delimiter) {
      i++;
      continue;
    }
    return { values, bounds, next: i + newline.length, problem };
  }
}

/** Parses CSV text (`;` by default) into records with exact offsets into `text`. */
export function parseCsv(text: string, delimiter = ';'): ParsedCsv {
  const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = bomLength ? text.slice(1) : text;
  const single = singleLineBreak(body);
  // A file with one kind of line break is parsed as it is; a file that mixes them is normalised to `\n`
  // first (papaparse reads one record separator) and its offsets are mapped back.
  let walk: Walk;
  if (single) {
    const shift = (n: number) => n + bomLength;
    walk = { src: body, newline: single, delimiter, toOriginal: shift, lookup: shift };
  } else {
    const { norm, map } = normalise(body, bomLength);
    walk = { src: norm, newline: '\n', delimiter, toOriginal: (n) => map.toOriginal(n), lookup: (n) => map.lookup(n) };
  }
  const src = walk.src;
  const bounds = new Bounds();
  const records: CsvRecord[] = [];

  let pos = 0;
  while (pos <= src.length) {
    const result = Papa.parse<string[]>(pos === 0 ? src : src.slice(pos), {
      delimiter,
      newline: walk.newline as '\n',
      quoteChar: '"',
      escapeChar: '"',
      skipEmptyLines: false,
    });
    let firstBadRow = Infinity;
    for (const e of result.errors) if (e.row !== undefined && e.row < firstBadRow) firstBadRow = e.row;
    const rows = result.data;
    let at = pos;
    let resumeAt = -1;
    let nextQuote = src.indexOf('"', at);
    for (let r = 0; r < rows.length; r++) {
      if (at > src.length) break;
      const values = rows[r];
      if (r < firstBadRow) {
        // A record with no quote in it is its values joined by the delimiter (without quotes papaparse
        // splits exactly at delimiters and separators), so it ends at the next record separator and its
        // field offsets can be derived later from the values alone.
        let end = src.indexOf(walk.newline, at);
        if (end === -1) end = src.length;
        if (nextQuote !== -1 && nextQuote < at) nextQuote = src.indexOf('"', at);
        if (nextQuote === -1 || nextQuote >= end) {
          records.push(new CsvRecord(text, values, undefined, walk.toOriginal(at)));
          at = end === src.length ? end + 1 : end + walk.newline.length;
          continue;
        }
      }
      const mark = bounds.length;
      const next = r < firstBadRow ? locateRow(walk, at, values, bounds) : -1;
      if (next !== -1) {
        records.push(new CsvRecord(text, values, bounds, mark));
        at = next;
        continue;
      }
      const rec = recoverRecord(walk, at);
      for (let b = 0; b < rec.bounds.length; b += 2) bounds.push(walk.lookup(rec.bounds[b]), walk.lookup(rec.bounds[b + 1]));
      const p = rec.problem;
      const problem = p && { start: walk.lookup(p.start), end: walk.lookup(p.end), message: p.message };
      records.push(new CsvRecord(text, rec.values, bounds, mark, problem));
      resumeAt = rec.next;
      break;
    }
    if (resumeAt === -1) break;
    pos = resumeAt;
  }

  // The text's final line break does not start another record.
  const last = records[records.length - 1];
  if (records.length > 1 && last.values.length === 1 && last.start === text.length) records.pop();

  if (!single) {
    // A quoted line break was normalised to `\n`; the value must hold the original characters.
    for (const r of records) {
      const values = r.values;
      for (let i = 0; i < values.length; i++) {
        if (values[i].indexOf('\n') !== -1 && text.charCodeAt(r.fieldStart(i)) === QUOTE) {
          values[i] = text.slice(r.fieldStart(i) + 1, r.fieldEnd(i) - 1).replace(/""/g, '"');
        }
      }
    }
  }
  return new ParsedCsv(text, records, bomLength === 1, delimiter);
}
