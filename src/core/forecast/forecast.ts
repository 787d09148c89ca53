// The charge forecast: every charge of every row in a window, from the schedule engine, bucketed by day,
// ISO week or month per currency. The CLI, the editor's panel and the bench all call forecastBatch, so the
// three faces show the same sums. A DST row (the receiver's destination card) is a payout: money paid out,
// not drawn from a payer, so payouts are bucketed and totalled apart and never summed into the charges.

import { formatIsoDate } from '../dates';
import type { Batch } from '../rules/batch';
import { readBatch } from '../rules/batch';
import { maskText } from '../output';
import { formatThousandths } from '../amounts';
import { Sums } from './sums';
import { periodTable, type ForecastBy, type PeriodTable } from './periods';
import { amountAt, lineOf, type RowAmounts, type SkippedRow } from './rows';
import { eachBucket, walk, type DatePlan } from './walk';
import type { ForecastOptions } from './window';

export { defaultWindow, type ForecastOptions } from './window';

export interface ForecastBucket {
  period: string;
  charges: number;
  min: string;
  max: string;
}

/** A period's payouts (DST rows) in one currency. */
export interface PayoutBucket {
  period: string;
  payouts: number;
  min: string;
  max: string;
}

export interface Forecast {
  by: ForecastBy;
  window: { from: string; to: string };
  /** Charges (SRC rows): currencies in alphabetical order; buckets in time order, those without a charge left out. */
  currencies: Record<string, ForecastBucket[]>;
  /** Payouts (DST rows), the same way: their own series, never in `currencies`. */
  payouts: Record<string, PayoutBucket[]>;
  /** `payouts`: how many of the counted rows are DST rows. */
  rows: { counted: number; payouts: number; skipped: SkippedRow[] };
}

export interface ForecastRun {
  forecast: Forecast;
  options: ForecastOptions;
  table: PeriodTable;
}

interface CurrencyTotals {
  counts: Int32Array;
  low: Sums;
  high: Sums;
  decimals: number;
}

/** The same as eachBucket into a currency's totals, without a closure per row (100k rows). */
function addInto(t: CurrencyTotals, dates: DatePlan, amounts: RowAmounts): void {
  if (amounts.decimals > t.decimals) t.decimals = amounts.decimals;
  if (amounts.sequence === undefined) {
    const pairs = dates.buckets;
    for (let j = 0; j < pairs.length; j += 2) {
      const b = pairs[j];
      const n = pairs[j + 1];
      t.counts[b] += n;
      t.low.add(b, amounts.low * n);
      t.high.add(b, amounts.high * n);
    }
    return;
  }
  const steps = dates.steps;
  for (let j = 0; j < steps.length; j += 2) {
    const b = steps[j];
    const v = amountAt(amounts, steps[j + 1]);
    t.counts[b]++;
    t.low.add(b, v);
    t.high.add(b, v);
  }
}

/** One series' totals per currency, as buckets in time order (currencies in alphabetical order). */
function bucketsOf<B>(
  totals: Map<string, CurrencyTotals>,
  table: PeriodTable,
  bucket: (period: string, count: number, min: string, max: string) => B,
): Record<string, B[]> {
  const out: Record<string, B[]> = {};
  for (const currency of [...totals.keys()].sort()) {
    const t = totals.get(currency)!;
    const buckets: B[] = [];
    for (let b = 0; b < table.labels.length; b++) {
      if (t.counts[b] === 0) continue;
      buckets.push(
        bucket(table.labels[b], t.counts[b], formatThousandths(t.low.get(b), t.decimals), formatThousandths(t.high.get(b), t.decimals)),
      );
    }
    if (buckets.length > 0) out[currency] = buckets;
  }
  return out;
}

export function forecastBatch(batch: Batch, options: ForecastOptions): ForecastRun {
  const table = periodTable(options.by, options.from, options.to);
  const size = table.labels.length;
  const charges = new Map<string, CurrencyTotals>();
  const payouts = new Map<string, CurrencyTotals>();
  const skipped: SkippedRow[] = [];
  let counted = 0;
  let payoutRows = 0;
  walk(
    batch,
    options,
    table,
    (_r, _n, currency, dates, amounts, payout) => {
      counted++;
      if (payout) payoutRows++;
      const series = payout ? payouts : charges;
      let t = series.get(currency);
      if (!t) series.set(currency, (t = { counts: new Int32Array(size), low: new Sums(size), high: new Sums(size), decimals: 2 }));
      addInto(t, dates, amounts);
    },
    (s) => skipped.push(s),
  );
  const forecast: Forecast = {
    by: options.by,
    window: { from: formatIsoDate(options.from), to: formatIsoDate(options.to) },
    currencies: bucketsOf(charges, table, (period, n, min, max): ForecastBucket => ({ period, charges: n, min, max })),
    payouts: bucketsOf(payouts, table, (period, n, min, max): PayoutBucket => ({ period, payouts: n, min, max })),
    rows: { counted, payouts: payoutRows, skipped },
  };
  return { forecast, options, table };
}

export function forecastText(text: string, options: ForecastOptions): Forecast {
  return forecastBatch(readBatch(text), options).forecast;
}

/** One row charging (or paying out) in a bucket, for the panel's list under a clicked bar. */
export interface BucketRow {
  line: number;
  row: number;
  clientOrderId: string;
  currency: string;
  /** Its charges in the bucket; a payout row's payouts. */
  charges: number;
  /** A DST row: `charges` counts payouts, money paid out. */
  payout: boolean;
  min: string;
  max: string;
}

/** The rows with a charge in bucket `period` (all currencies), at most `limit` of them, and how many in all. */
export function rowsInBucket(batch: Batch, run: ForecastRun, period: string, limit: number): { rows: BucketRow[]; total: number } {
  const b = run.table.labels.indexOf(period);
  const rows: BucketRow[] = [];
  let total = 0;
  if (b < 0) return { rows, total };
  const idColumn = batch.columnIndex.get('client-orderid');
  // Read again rather than kept from the forecast: a click is rare, 100k kept rows would be garbage each edit.
  walk(
    batch,
    run.options,
    run.table,
    (recordIndex, rowNumber, currency, dates, amounts, payout) => {
      let charges = 0;
      let low = 0;
      let high = 0;
      eachBucket(dates, amounts, (at, n, l, h) => {
        if (at !== b) return;
        charges += n;
        low += l;
        high += h;
      });
      if (charges === 0) return;
      total++;
      if (rows.length >= limit) return;
      const decimals = Math.max(2, amounts.decimals);
      const id = idColumn === undefined ? '' : (batch.csv.record(recordIndex).values[idColumn] ?? '');
      rows.push({
        line: lineOf(batch.csv, recordIndex),
        row: rowNumber,
        // The merchant's free text: a card number pasted into it by mistake is masked like anywhere else.
        clientOrderId: maskText(id),
        currency,
        charges,
        payout,
        min: formatThousandths(BigInt(low), decimals),
        max: formatThousandths(BigInt(high), decimals),
      });
    },
    () => undefined,
  );
  return { rows, total };
}
