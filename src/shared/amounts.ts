import { amountForDisplay } from '../core/amounts';

// Report amounts as a person reads them, for the results table and the CLI's text table: the core's one
// amount module (core/amounts.ts) shows each in its currency's own digits. Exports, copies and JSON keep
// the raw value; this is for the eye only.

export { sumAmountTexts } from '../core/amounts';

/** For a table with an Amount and a Currency column: the displayed text of a cell; undefined otherwise. */
export function amountColumns(columns: readonly string[]): ((row: readonly string[], column: number) => string) | undefined {
  const amount = columns.findIndex((c) => /^amount$/i.test(c.trim()));
  const currency = columns.findIndex((c) => /^currency$/i.test(c.trim()));
  if (amount < 0 || currency < 0) return undefined;
  return (row, column) => {
    const value = row[column] ?? '';
    return column === amount ? amountForDisplay(value, row[currency] ?? '') : value;
  };
}
