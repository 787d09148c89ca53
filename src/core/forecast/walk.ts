// One pass over a batch's rows for the forecast: each row's schedule columns read, checked and scheduled
// through plans that rows share (a date rule, an amount), and handed on with no object kept per row.

import type { Batch } from '../rules/batch';
import { chargesInWindow, type ForecastOptions } from './window';
import type { ScheduleInput } from '../schedule/schedule';
import { FieldReader } from './fields';
import type { PeriodTable } from './periods';
import {
  amountAt,
  AMOUNT_COLUMNS,
  currencyProblem,
  DATE_COLUMNS,
  FORECAST_COLUMNS,
  lineOf,
  plainAmount,
  readAmounts,
  readDates,
  UNTRUSTED_REASON,
  type RowAmounts,
  type SkippedRow,
  type Verdict,
} from './rows';

/**
 * One counted row as the walk over a batch hands it on. `payout`: a DST row (the receiver's destination
 * card), whose money is paid out, never charged.
 */
export type Visit = (
  recordIndex: number,
  rowNumber: number,
  currency: string,
  dates: DatePlan,
  amounts: RowAmounts,
  payout: boolean,
) => void;

/**
 * A date rule's charges in the window, shared by every row with the same date columns: `buckets` holds
 * pairs (bucket index, charges in it), `steps` pairs (bucket index, charge index) for amount-sequence rows.
 */
export interface DatePlan {
  buckets: number[];
  steps: number[];
}

function datePlan(input: ScheduleInput, table: PeriodTable, options: ForecastOptions): DatePlan {
  const buckets: number[] = [];
  const steps: number[] = [];
  // Charges come in date order, so their buckets do too: each charge extends the last pair or starts one.
  chargesInWindow(input, options, (charge, day) => {
    const b = table.bucketOfDay[day - table.firstDay];
    steps.push(b, charge.index);
    if (buckets.length > 0 && buckets[buckets.length - 2] === b) buckets[buckets.length - 1]++;
    else buckets.push(b, 1);
  });
  return { buckets, steps };
}

/** Adds one row's charges into `add(bucket, charges, low, high)` (for listing one bucket's rows). */
export function eachBucket(
  dates: DatePlan,
  amounts: RowAmounts,
  add: (b: number, charges: number, low: number, high: number) => void,
): void {
  if (amounts.sequence === undefined) {
    const pairs = dates.buckets;
    for (let j = 0; j < pairs.length; j += 2) add(pairs[j], pairs[j + 1], amounts.low * pairs[j + 1], amounts.high * pairs[j + 1]);
    return;
  }
  const steps = dates.steps;
  for (let j = 0; j < steps.length; j += 2) {
    const v = amountAt(amounts, steps[j + 1]);
    add(steps[j], 1, v, v);
  }
}

/** A cache of verdicts by the text they were read from. */
function cached<T>(read: (key: string) => Verdict<T>): (key: string) => Verdict<T> {
  const memo = new Map<string, Verdict<T>>();
  return (key) => {
    let v = memo.get(key);
    if (!v) memo.set(key, (v = read(key)));
    return v;
  };
}

const SEP = '\u0001';
const A = DATE_COLUMNS.length;
const C = A + AMOUNT_COLUMNS.length;

/**
 * Reads every row of the batch once and hands each countable one to `visit`, with its shared date plan
 * and its amounts; the others go to `skip`. No object is kept per row: 100k rows make garbage enough.
 */
export function walk(batch: Batch, options: ForecastOptions, table: PeriodTable, visit: Visit, skip: (s: SkippedRow) => void): void {
  const csv = batch.csv;
  const width = batch.header ? batch.header.values.length : 0;
  const reader = new FieldReader(
    csv,
    FORECAST_COLUMNS.map((c) => batch.columnIndex.get(c) ?? -1),
    width,
  );
  const datesOf = cached((key) => {
    const v = readDates(key.split(SEP));
    return v.ok ? { ok: true, value: datePlan(v.value, table, options) } : v;
  });
  const amountsOf = cached((key) => readAmounts(key.split(SEP), 0));
  let rowNumber = 0;
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r)) continue;
    rowNumber++;
    const values = reader.read(r);
    if (!values) {
      skip({ line: lineOf(csv, r), row: rowNumber, reason: UNTRUSTED_REASON });
      continue;
    }
    let dateKey = values[0];
    for (let k = 1; k < A; k++) dateKey += SEP + values[k];
    const dates = datesOf(dateKey);
    let amounts = plainAmount(values[A], values[A + 1], values[A + 2], values[A + 3]);
    let amountReason = '';
    if (!amounts) {
      const read = amountsOf(values.slice(A, C).join(SEP));
      if (read.ok) amounts = read.value;
      else amountReason = read.reason;
    }
    const currency = values[C].trim();
    const noCurrency = currencyProblem(currency);
    if (!dates.ok || !amounts || noCurrency !== undefined) {
      const reasons = [dates.ok ? '' : dates.reason, noCurrency ?? '', amountReason];
      skip({ line: lineOf(csv, r), row: rowNumber, reason: reasons.filter((x) => x !== '').join('; ') });
      continue;
    }
    visit(r, rowNumber, currency, dates.value, amounts, values[0].trim() === 'DST');
  }
}
