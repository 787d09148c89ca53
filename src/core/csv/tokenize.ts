// Reading one record from its first character. Every character of the record is looked at once (a
// quoted field's closing quote is found with indexOf from where the last search stopped), so a broken
// record costs what it holds, never the rest of the file.

import { afterBreak, type LineBreaks } from '../text';

const QUOTE = 34; // "
const CR = 13;
const LF = 10;

export interface CsvSyntaxProblem {
  start: number;
  end: number;
  message: string;
}

/** One record's fields. */
export interface Cells {
  /** Index of the record in the file. */
  index: number;
  values: string[];
  /** Start and end offset of every field, flattened: [start0, end0, start1, end1, ...]. */
  bounds: Int32Array;
  /** Offset after the record's last character (before its separator). */
  end: number;
  /** Where the next record starts (the text's length when none does). */
  next: number;
  problem?: CsvSyntaxProblem;
}

const NO_VALUES: string[] = [];
const NO_BOUNDS = new Int32Array(0);

/** First delimiter, CR or LF at or after `from` (the text's length when none). */
function fieldEnd(text: string, from: number, delim: number): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === delim || c === LF || c === CR) return i;
    i++;
  }
  return n;
}

const unquote = (s: string): string => (s.indexOf('"') === -1 ? s : s.replace(/""/g, '"'));

/** The closing quote of the quoted field opening at `open` (doubled quotes passed over), or -1 when none. */
function closingQuote(text: string, open: number): number {
  for (let j = open + 1; ;) {
    const k = text.indexOf('"', j);
    if (k === -1) return -1;
    if (text.charCodeAt(k + 1) !== QUOTE) return k;
    j = k + 2;
  }
}

/** An unterminated quoted field runs to the end of the text; its problem stops before the final line breaks. */
function unterminated(text: string, fieldStart: number): CsvSyntaxProblem {
  let stop = text.length;
  while (stop > fieldStart + 1 && (text.charCodeAt(stop - 1) === LF || text.charCodeAt(stop - 1) === CR)) stop--;
  return { start: fieldStart, end: stop, message: 'unterminated quote: the quoted field is never closed' };
}

/**
 * The full tokenizer, for records that hold a quote. `keep` false only finds the end and the problem
 * (the parse pass); true also cuts the values.
 */
export function scanRecord(text: string, start: number, delimiter: string, index: number, keep: boolean): Cells {
  const n = text.length;
  const delim = delimiter.charCodeAt(0);
  const values: string[] = keep ? [] : NO_VALUES;
  const bounds: number[] = [];
  let problem: CsvSyntaxProblem | undefined;
  let i = start;
  for (;;) {
    const fieldStart = i;
    let end: number;
    if (text.charCodeAt(i) === QUOTE) {
      const close = closingQuote(text, i);
      if (close === -1) {
        problem ??= unterminated(text, fieldStart);
        if (keep) {
          values.push(unquote(text.slice(i + 1)));
          bounds.push(fieldStart, n);
        }
        return { index, values, bounds: keep ? new Int32Array(bounds) : NO_BOUNDS, end: n, next: n, problem };
      }
      end = close + 1;
      const c = text.charCodeAt(end);
      if (end < n && c !== delim && c !== LF && c !== CR) {
        const stop = fieldEnd(text, end, delim);
        problem ??= { start: fieldStart, end: stop, message: 'text after the closing quote of a quoted field' };
        if (keep) values.push(unquote(text.slice(i + 1, close)) + text.slice(end, stop));
        end = stop;
      } else if (keep) {
        values.push(unquote(text.slice(i + 1, close)));
      }
    } else {
      end = fieldEnd(text, i, delim);
      if (keep) values.push(text.slice(i, end));
    }
    if (keep) bounds.push(fieldStart, end);
    i = end;
    if (i < n && text.charCodeAt(i) === delim) {
      i++;
      continue;
    }
    const next = afterBreak(text, i);
    return { index, values, bounds: keep ? new Int32Array(bounds) : NO_BOUNDS, end: i, next, problem };
  }
}

/**
 * Where the record holding a quote that starts at `start` ends, as scanRecord finds it (its `next`), its
 * first problem put in `problems` under `index`. Read by searching (indexOf) for quotes and line breaks:
 * between two quoted fields the unquoted ones are passed over whole, not read character by character.
 */
export function quotedRecordNext(
  text: string,
  start: number,
  delimiter: string,
  index: number,
  problems: Map<number, CsvSyntaxProblem>,
  breaks: LineBreaks,
): number {
  const n = text.length;
  const delim = delimiter.charCodeAt(0);
  let problem: CsvSyntaxProblem | undefined;
  let lineEnd = -1; // the next CR or LF at or after i, once searched
  let i = start; // a field's start
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      const close = closingQuote(text, i);
      if (close === -1) {
        problems.set(index, problem ?? unterminated(text, i));
        return n;
      }
      let end = close + 1;
      const c = text.charCodeAt(end);
      if (end < n && c !== delim && c !== LF && c !== CR) {
        const stop = fieldEnd(text, end, delim);
        problem ??= { start: i, end: stop, message: 'text after the closing quote of a quoted field' };
        end = stop;
      }
      if (end < n && text.charCodeAt(end) === delim) {
        i = end + 1;
        continue;
      }
      if (problem) problems.set(index, problem);
      return afterBreak(text, end);
    }
    // Unquoted fields up to the next quote that starts a field (after a delimiter), or to the line's end.
    if (lineEnd < i) lineEnd = breaks.at(i);
    let q = text.indexOf('"', i);
    while (q !== -1 && q < lineEnd && text.charCodeAt(q - 1) !== delim) q = text.indexOf('"', q + 1);
    if (q === -1 || q > lineEnd) {
      if (problem) problems.set(index, problem);
      return afterBreak(text, lineEnd);
    }
    i = q;
  }
}

/** A record without quotes between `start` and `end`: its fields are the text split at the delimiter. */
export function splitRecord(text: string, start: number, end: number, delimiter: string, index: number): Cells {
  return new SplitCells(index, text.slice(start, end).split(delimiter), start, end, afterBreak(text, end));
}

/**
 * A record without quotes: its values are the text between delimiters, so each field's bounds follow from
 * the values' lengths. They are worked out only when asked (a diagnostic, a hover): most rows never are,
 * and a typed array per row was the largest cost of reading a clean file.
 */
class SplitCells implements Cells {
  private computed: Int32Array | undefined;

  constructor(
    readonly index: number,
    readonly values: string[],
    private readonly start: number,
    readonly end: number,
    readonly next: number,
  ) {}

  get bounds(): Int32Array {
    if (this.computed) return this.computed;
    const bounds = new Int32Array(this.values.length * 2);
    let at = this.start;
    for (let f = 0; f < this.values.length; f++) {
      bounds[2 * f] = at;
      at += this.values[f].length;
      bounds[2 * f + 1] = at;
      at++;
    }
    return (this.computed = bounds);
  }
}
