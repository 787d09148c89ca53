import Papa from 'papaparse';
import { LineIndex } from '../text';

// CSV reading with the exact offset of every field.
//
// papaparse does the parsing (values, quoting, quote errors); it does not report where each field lies, so
// offsets are recovered from its values: an unquoted field is as long as its value, a quoted one is two
// quotes plus the value with every `"` doubled, and each field must be followed by the delimiter or a
// record end. That check proves the recovery exact. A record papaparse flags (or whose recovery does not
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

export class CsvRecord {
  private cachedFields?: CsvField[];

  constructor(
    private readonly text: string,
    /** Field values after unquoting. */
    readonly values: string[],
    /** Offsets: start and end of field i at [2i] and [2i+1]. */
    readonly bounds: number[],
    /** Set when the record is not well-formed CSV: its cells cannot be trusted. */
    readonly syntaxProblem?: CsvSyntaxProblem,
  ) {}

  get start(): number {
    return this.bounds[0];
  }

  get end(): number {
    return this.bounds[this.bounds.length - 1];
  }

  /** An empty record: nothing between two record separators. */
  get isBlank(): boolean {
    return this.values.length === 1 && this.bounds[0] === this.bounds[1];
  }

  fieldStart(i: number): number {
    return this.bounds[2 * i];
  }

  fieldEnd(i: number): number {
    return this.bounds[2 * i + 1];
  }

  field(i: number): CsvField | undefined {
    return this.fields[i];
  }

  /** Field objects are built on demand: the linter works on values and bounds, hovers want objects. */
  get fields(): CsvField[] {
    if (!this.cachedFields) {
      this.cachedFields = this.values.map((value, i) => ({
        value,
        start: this.bounds[2 * i],
        end: this.bounds[2 * i + 1],
        quoted: this.text.charCodeAt(this.bounds[2 * i]) === QUOTE,
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

function normalise(text: string, bomLength: number): { norm: string; map: OffsetMap; hadCR: boolean } {
  const body = bomLength ? text.slice(bomLength) : text;
  if (body.indexOf('\r') === -1) return { norm: body, map: new OffsetMap(bomLength, []), hadCR: false };
  const collapsed: number[] = [];
  const re = /\r\n?/g;
  let removed = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    if (m[0].length === 2) {
      collapsed.push(m.index - removed);
      removed++;
    }
  }
  return { norm: body.replace(/\r\n?/g, '\n'), map: new OffsetMap(bomLength, collapsed), hadCR: true };
}

function countQuotes(s: string): number {
  let n = 0;
  for (let i = s.indexOf('"'); i !== -1; i = s.indexOf('"', i + 1)) n++;
  return n;
}

interface RawRecord {
  values: string[];
  bounds: number[]; // normalised offsets
  next: number; // normalised offset where the next record starts (> norm.length at the end)
  problem?: CsvSyntaxProblem; // normalised offsets
}

/**
 * Recovers the offsets of one well-formed row papaparse returned, starting at `start`.
 * Returns undefined when the text does not line up (the row is broken and needs the recovery scan).
 */
function locateRow(norm: string, start: number, values: string[], delim: number): RawRecord | undefined {
  const bounds = new Array<number>(values.length * 2);
  let at = start;
  const last = values.length - 1;
  for (let i = 0; i <= last; i++) {
    const v = values[i];
    const fieldStart = at;
    let end: number;
    if (norm.charCodeAt(at) === QUOTE) {
      end = at + 2 + v.length + (v.indexOf('"') === -1 ? 0 : countQuotes(v));
      if (norm.charCodeAt(end - 1) !== QUOTE) return undefined;
    } else {
      end = at + v.length;
    }
    const after = norm.charCodeAt(end); // NaN at the end of the text
    if (i < last ? after !== delim : after === after && after !== NEWLINE) return undefined;
    bounds[2 * i] = fieldStart;
    bounds[2 * i + 1] = end;
    at = end + 1;
  }
  return { values, bounds, next: at };
}

/** The recovery scan for one broken record: finds the bad cell and where the record ends. */
function recoverRecord(norm: string, start: number, delimiter: string): RawRecord {
  const values: string[] = [];
  const bounds: number[] = [];
  let problem: CsvSyntaxProblem | undefined;
  let i = start;
  const n = norm.length;
  const fieldEndFrom = (from: number): number => {
    const d = norm.indexOf(delimiter, from);
    const nl = norm.indexOf('\n', from);
    const candidates = [d, nl].filter((x) => x !== -1);
    return candidates.length ? Math.min(...candidates) : n;
  };
  for (;;) {
    const fieldStart = i;
    if (norm.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      let close = -1;
      for (;;) {
        const k = norm.indexOf('"', j);
        if (k === -1) break;
        if (norm.charCodeAt(k + 1) === QUOTE) {
          j = k + 2;
          continue;
        }
        close = k;
        break;
      }
      if (close === -1) {
        // The field runs to the end of the text; the range stops before the final line breaks.
        let end = n;
        while (end > fieldStart + 1 && norm.charCodeAt(end - 1) === NEWLINE) end--;
        problem ??= { start: fieldStart, end, message: 'unterminated quote: the quoted field is never closed' };
        values.push(norm.slice(i + 1).replace(/""/g, '"'));
        bounds.push(fieldStart, n);
        return { values, bounds, next: n + 1, problem };
      }
      const after = close + 1;
      const c = norm.charCodeAt(after);
      let end = after;
      if (after < n && c !== NEWLINE && norm[after] !== delimiter) {
        end = fieldEndFrom(after);
        problem ??= { start: fieldStart, end, message: 'text after the closing quote of a quoted field' };
      }
      values.push(norm.slice(i + 1, close).replace(/""/g, '"') + norm.slice(after, end));
      bounds.push(fieldStart, end);
      i = end;
    } else {
      const end = fieldEndFrom(i);
      values.push(norm.slice(i, end));
      bounds.push(fieldStart, end);
      i = end;
    }
    if (i < n && norm[i] === delimiter) {
      i++;
      continue;
    }
    return { values, bounds, next: i + 1, problem };
  }
}

/** Parses CSV text (`;` by default) into records with exact offsets into `text`. */
export function parseCsv(text: string, delimiter = ';'): ParsedCsv {
  const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const { norm, map, hadCR } = normalise(text, bomLength);
  const delim = delimiter.charCodeAt(0);
  const raw: RawRecord[] = [];

  let pos = 0;
  while (pos <= norm.length) {
    const result = Papa.parse<string[]>(pos === 0 ? norm : norm.slice(pos), {
      delimiter,
      newline: '\n',
      quoteChar: '"',
      escapeChar: '"',
      skipEmptyLines: false,
    });
    const firstBadRow = result.errors.reduce((m, e) => Math.min(m, e.row ?? Infinity), Infinity);
    const rows = result.data;
    let at = pos;
    let resumeAt = -1;
    for (let r = 0; r < rows.length; r++) {
      if (at > norm.length) break;
      const located = r < firstBadRow ? locateRow(norm, at, rows[r], delim) : undefined;
      if (located) {
        raw.push(located);
        at = located.next;
        continue;
      }
      const recovered = recoverRecord(norm, at, delimiter);
      raw.push(recovered);
      resumeAt = recovered.next;
      break;
    }
    if (resumeAt === -1) break;
    pos = resumeAt;
  }

  // The text's final line break does not start another record.
  const lastRaw = raw[raw.length - 1];
  if (raw.length > 1 && lastRaw.values.length === 1 && lastRaw.bounds[0] === norm.length) raw.pop();

  const records = new Array<CsvRecord>(raw.length);
  for (let k = 0; k < raw.length; k++) {
    const r = raw[k];
    const bounds = r.bounds;
    for (let b = 0; b < bounds.length; b++) bounds[b] = map.toOriginal(bounds[b]);
    let values = r.values;
    if (hadCR) {
      // A quoted line break was normalised to `\n`; the value must hold the original characters.
      for (let i = 0; i < values.length; i++) {
        if (values[i].indexOf('\n') !== -1 && text.charCodeAt(bounds[2 * i]) === QUOTE) {
          if (values === r.values) values = values.slice();
          values[i] = text.slice(bounds[2 * i] + 1, bounds[2 * i + 1] - 1).replace(/""/g, '"');
        }
      }
    }
    const p = r.problem;
    const problem = p && { start: map.lookup(p.start), end: map.lookup(p.end), message: p.message };
    records[k] = new CsvRecord(text, values, bounds, problem);
  }
  return new ParsedCsv(text, records, bomLength === 1, delimiter);
}
