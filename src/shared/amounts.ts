// Report amounts as a person reads them. The gateway's report writes every amount with three decimals
// ("29.900" for EUR); a table shows it in the currency's own minor units ("29.90", "1000" for JPY). Only
// zeros are dropped: an amount with a non-zero digit beyond the minor units is shown as it came. Exports,
// copies and JSON keep the raw value; this is for the eye only (the results table, the CLI's text table).

const AMOUNT = /^\s*([-+]?\d+)(?:\.(\d+))?\s*$/;
const minorUnitsCache = new Map<string, number | undefined>();

/** The currency's minor units (EUR 2, JPY 0, BHD 3) from the runtime's ISO 4217 data; undefined when unknown. */
export function minorUnits(currency: string): number | undefined {
  const code = currency.trim();
  if (!minorUnitsCache.has(code)) {
    let units: number | undefined;
    // Only real codes: Intl accepts any three letters and answers 2 for those it does not know.
    if (/^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code)) {
      units = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    }
    minorUnitsCache.set(code, units);
  }
  return minorUnitsCache.get(code);
}

/** One amount in its currency's minor units, or the value as it came when that would change it. */
export function amountForDisplay(amount: string, currency: string): string {
  const m = AMOUNT.exec(amount);
  const units = m ? minorUnits(currency) : undefined;
  if (!m || units === undefined) return amount;
  const fraction = m[2] ?? '';
  if (/[^0]/.test(fraction.slice(units))) return amount;
  const shown = fraction.slice(0, units).padEnd(units, '0');
  return units === 0 ? m[1] : `${m[1]}.${shown}`;
}

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
