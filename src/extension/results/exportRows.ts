// Serialises the rows the page asked to export. Pure (no vscode) so the unit tests cover it directly.
// Through the output boundary (src/core/output): card numbers masked in every cell, CVV columns left out,
// and in CSV a cell a spreadsheet would run as a formula neutralised unless the user turned
// `paygate.export.neutraliseFormulas` off. The raw bytes of a report are never exported from the table.
import { safeCsv, safeJson } from '../../core/output';
import type { ExportFormat } from '../../shared/resultsProtocol';

export interface ExportOptions {
  neutraliseFormulas: boolean;
  delimiter?: string;
}

export function rowsToCsv(columns: readonly string[], rows: readonly (readonly string[])[], options: ExportOptions): string {
  // Short rows are padded so every record has the header's field count.
  const records = [columns, ...rows].map((row) => columns.map((_, i) => row[i] ?? ''));
  return safeCsv(records, { delimiter: options.delimiter ?? ',', raw: !options.neutraliseFormulas });
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
 * JSON keeps the values as the table shows them (masked, no CVV member).
 */
export function rowsToJson(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  const keys = uniqueKeys(columns);
  const objects = rows.map((row) => {
    const o: Record<string, string> = {};
    keys.forEach((k, i) => (o[k] = row[i] ?? ''));
    return o;
  });
  return safeJson(objects, 2) + '\n';
}

export function serialiseExport(
  format: ExportFormat,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: ExportOptions,
): string {
  return format === 'csv' ? rowsToCsv(columns, rows, options) : rowsToJson(columns, rows);
}
