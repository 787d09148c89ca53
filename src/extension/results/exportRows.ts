// Serialises the rows the page asked to export. Pure (no vscode) so the unit tests cover it directly.
import { writeRecords } from '../../core/csv/write';
import type { ExportFormat } from '../../shared/resultsProtocol';

/**
 * Cells a spreadsheet would evaluate as a formula. The brief names = + - @; tab and carriage return are
 * added because OWASP's CSV-injection guidance lists them too (a leading tab/CR is stripped by some apps,
 * exposing the formula behind it).
 */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

export function neutraliseFormula(value: string): string {
  return FORMULA_LEAD.test(value) ? `'${value}` : value;
}

export interface ExportOptions {
  neutraliseFormulas: boolean;
  delimiter?: string;
}

export function rowsToCsv(columns: readonly string[], rows: readonly (readonly string[])[], options: ExportOptions): string {
  const value = options.neutraliseFormulas ? neutraliseFormula : (v: string) => v;
  // Short rows are padded so every record has the header's field count.
  const records = [columns, ...rows].map((row) => columns.map((_, i) => value(row[i] ?? '')));
  return writeRecords(records, options.delimiter ?? ',', '\r\n') + '\r\n';
}

/** Keys must be unique for JSON objects; a repeated header name gets " (2)", " (3)"... */
export function uniqueKeys(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = (seen.get(c) ?? 0) + 1;
    seen.set(c, n);
    return n === 1 ? c : `${c} (${n})`;
  });
}

/**
 * JSON is not evaluated by spreadsheets when opened, so formula neutralisation applies to CSV only;
 * JSON keeps the exact values.
 */
export function rowsToJson(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  const keys = uniqueKeys(columns);
  const objects = rows.map((row) => {
    const o: Record<string, string> = {};
    keys.forEach((k, i) => (o[k] = row[i] ?? ''));
    return o;
  });
  return JSON.stringify(objects, null, 2) + '\n';
}

export function serialiseExport(
  format: ExportFormat,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: ExportOptions,
): string {
  return format === 'csv' ? rowsToCsv(columns, rows, options) : rowsToJson(columns, rows);
}
