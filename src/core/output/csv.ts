import { writeRecords } from '../csv/write';
import { maskCardNumbers } from './cardNumbers';
import { hideCvvs, isCvvName } from './cvv';
import { neutraliseFormula } from './formulas';
import type { Laid } from './laid';
import { terminalText } from './terminal';

// A CSV we write (the CLI's --format csv, the editor's exports): every cell passes the card-number floor
// and loses its labelled CVVs, a column named like a CVV is left out whole, and a cell a spreadsheet
// would run as a formula is neutralised unless the user opted out by name (`--raw`, the editor's
// `paygate.export.neutraliseFormulas: false`). The raw bytes of an answer are never written here: they go
// only to a file the user named (`paygate report --out FILE`, the editor's Save As).

export interface SafeCsvOptions {
  /** Field separator (default `,`). */
  delimiter?: string;
  /** Record separator, also written after the last record (default CRLF). */
  newline?: string;
  /** Quote every field, as the gateway's own reports do. */
  quoteAll?: boolean;
  /** Keep cells that start like a formula as they are (the user's explicit opt-out). */
  raw?: boolean;
}

/** One cell as we write it: masked, CVVs hidden, neutralised unless `raw`. */
function safeCsvCell(value: string, raw = false): string {
  const safe = hideCvvs(maskCardNumbers(value));
  return raw ? safe : neutraliseFormula(safe);
}

/**
 * The columns of a header to keep: every one but those named like a CVV. Undefined when all are kept,
 * so the common table pays nothing.
 */
export function keptColumns(header: readonly string[]): number[] | undefined {
  const keep: number[] = [];
  header.forEach((name, i) => {
    if (!isCvvName(name)) keep.push(i);
  });
  return keep.length === header.length ? undefined : keep;
}

/**
 * One record as we write it, its record separator after it: every cell safeCsvCell'd, then quoted. A writer
 * that streams calls it per record, having left out the CVV columns of the header (keptColumns).
 */
export function safeCsvRecord(record: readonly string[], options: SafeCsvOptions = {}): string {
  const cells = record.map((v) => safeCsvCell(v, options.raw));
  return `${writeRecords([cells], options.delimiter ?? ',', '', options.quoteAll)}${options.newline ?? '\r\n'}`;
}

/** Records (the first one the header) as CSV text we may write anywhere. */
export function safeCsv(records: readonly (readonly string[])[], options: SafeCsvOptions = {}): string {
  if (records.length === 0) return '';
  const keep = keptColumns(records[0]);
  return records.map((r) => safeCsvRecord(keep ? keep.map((i) => r[i] ?? '') : r, options)).join('');
}

/**
 * A CSV for a terminal, laid out from its cells (./laid.ts): each cell masked and CVV-free as safeCsv writes
 * it, its control characters shown escaped (a line break inside a quoted cell is CSV, and stays). Its cells
 * are values, so the floor need not read the records again.
 */
export function laidCsv(records: readonly (readonly string[])[], options: SafeCsvOptions = {}): Laid {
  return safeCsv(
    records.map((r) => r.map(terminalText)),
    options,
  ) as Laid;
}

/** One record of laidCsv, its separator after it (the caller has left out the header's CVV columns: keptColumns). */
export function laidCsvRecord(record: readonly string[], options: SafeCsvOptions = {}): Laid {
  return safeCsvRecord(record.map(terminalText), options) as Laid;
}
