// The forecast as CSV, one line per bucket, currency and kind (charges, then payouts: a DST row's money is
// paid out, never summed with the charges), through the output boundary's CSV writer (masked, formulas
// neutralised unless `raw`). The CLI's `--format csv` and the panel's CSV export both write this, so a
// spreadsheet gets the same table. It is laid out from its cells (core/output/csv.ts laidCsv: each value
// masked alone, its control characters shown escaped), so the CLI's floor does not read it again.

import { laidCsv, type Laid } from '../output';
import type { Forecast } from './forecast';

export const FORECAST_CSV_COLUMNS = ['period', 'currency', 'kind', 'count', 'min', 'max'] as const;

/** Comma-delimited with CRLF records (what spreadsheets open without asking), ending in a line break. */
export function forecastCsv(forecast: Forecast, raw = false): Laid {
  const rows: string[][] = [[...FORECAST_CSV_COLUMNS]];
  for (const [currency, buckets] of Object.entries(forecast.currencies)) {
    for (const b of buckets) rows.push([b.period, currency, 'charges', String(b.charges), b.min, b.max]);
  }
  for (const [currency, buckets] of Object.entries(forecast.payouts)) {
    for (const b of buckets) rows.push([b.period, currency, 'payouts', String(b.payouts), b.min, b.max]);
  }
  return laidCsv(rows, { raw });
}
