// The scanning half of the report reader (reportReader.ts): complete records from a string, as per-cell
// offsets, so the hot loop allocates no string per cell.

const QUOTE = 34;
const LF = 10;
const CR = 13;

export interface ReadResult {
  rows: number;
  consumed: number;
  errors: number;
  ragged: number;
  start?: Uint32Array;
  end?: Uint32Array;
  escaped: Uint8Array | null;
  /** With width 0: the values of the one record read (the header). */
  values?: string[];
}

/**
 * Reads complete records from s[from..]. With `width` 0 it reads `maxRows` records as value arrays (the
 * header); otherwise it fills offset arrays of `width` cells per record, dropping extra fields.
 *
 * One function of 128 lines on purpose: it is the page's and the CLI's hot loop, its state in locals. Split
 * into named steps (the quoted field's scan, a class for the growing offset arrays), it read 1,000,000
 * report rows (118 MB) 3.1% and 5.8% slower in two runs (1,314 → 1,355 ms, 1,286 → 1,361 ms; medians of
 * 7, same process, on a quiet 2-core machine, 2026-11-26).
 */
export function readRecords(s: string, from: number, delim: number, width: number, final: boolean, maxRows: number): ReadResult {
  const n = s.length;
  let cap = width > 0 ? Math.max(64, Math.min(maxRows, Math.ceil((n - from) / (width * 6)))) * width : 0;
  let start: Uint32Array = new Uint32Array(cap);
  let end: Uint32Array = new Uint32Array(cap);
  let escaped: Uint8Array | null = null;
  const values: string[] = [];
  let rows = 0;
  let errors = 0;
  let ragged = 0;
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
        if (col !== width) ragged++;
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
  if (width === 0) return { rows, consumed, errors, ragged, escaped: null, values };
  // Copies of the exact size: the capacity was a guess, and a subarray would keep all of it alive.
  return {
    rows,
    consumed,
    errors,
    ragged,
    start: start.slice(0, base),
    end: end.slice(0, base),
    escaped: escaped ? escaped.slice(0, base) : null,
  };
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

/** Records read from a record start found inside a text (readDetached). */
export interface DetachedRecords {
  /** Where the first record read begins. */
  begin: number;
  rows: number;
  consumed: number;
  errors: number;
  ragged: number;
  start: Uint32Array;
  end: Uint32Array;
  escaped: Uint8Array | null;
}

/** Line breaks tried as a record start before giving up on a text. */
const STARTS_TRIED = 64;

/**
 * Reads the records of `s`, a piece from the middle of a report, without knowing what came before it: from
 * the first line feed after which two records of `width` fields read cleanly (one inside a quoted field
 * would leave a stray quote or a short record behind it). It is a guess: the results page reads the text
 * before `begin` in order (CsvReader.pushToRecordStart), and only when that ends exactly at `begin` are
 * these records the file's. Undefined when no line feed in the first STARTS_TRIED qualifies.
 */
export function readDetached(s: string, delim: number, width: number): DetachedRecords | undefined {
  let lf = -1;
  for (let tried = 0; tried < STARTS_TRIED; tried++) {
    lf = s.indexOf('\n', lf + 1);
    if (lf === -1) return undefined;
    const begin = lf + 1;
    const probe = readRecords(s, begin, delim, width, false, 2);
    if (probe.rows < 2 || probe.errors > 0 || probe.ragged > 0) continue;
    const got = readRecords(s, begin, delim, width, false, Infinity);
    return {
      begin,
      rows: got.rows,
      consumed: got.consumed,
      errors: got.errors,
      ragged: got.ragged,
      start: got.start!,
      end: got.end!,
      escaped: got.escaped,
    };
  }
  return undefined;
}
