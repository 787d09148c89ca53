// The charge forecast: every charge of every row in a window, from the schedule engine, bucketed by day,
// ISO week or month per currency. The CLI, the editor's panel and the bench all call forecastBatch, so the
// three faces show the same sums.

import { addDays, addMonthsClamped, formatIsoDate, toDayNumber, type CalendarDate } from '../dates';
import type { Batch } from '../rules/batch';
import { readBatch } from '../rules/batch';
import { maskText } from '../mask';
import { computeSchedule, type Charge, type ScheduleInput } from '../schedule/schedule';
import { formatThousandths, Sums } from './amounts';
import { periodTable, type ForecastBy, type PeriodTable } from './periods';
import { FieldReader } from './fields';
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

export interface ForecastWindow {
  from: CalendarDate;
  /** Inclusive. */
  to: CalendarDate;
}

export interface ForecastOptions extends ForecastWindow {
  by: ForecastBy;
  /** The first charge's date of a row without start-date. */
  today: CalendarDate;
}

export interface ForecastBucket {
  period: string;
  charges: number;
  min: string;
  max: string;
}

export interface Forecast {
  by: ForecastBy;
  window: { from: string; to: string };
  /** Currencies in alphabetical order; buckets in time order, those without a charge left out. */
  currencies: Record<string, ForecastBucket[]>;
  rows: { counted: number; skipped: SkippedRow[] };
}

/** The default window: `today` and the 12 months after it (to the day before the same date a year on). */
export function defaultWindow(today: CalendarDate): ForecastWindow {
  return { from: today, to: addDays(addMonthsClamped(today, 12), -1) };
}

/** The first charge index that can fall on or after `from`: exact for days and weeks, a bound for months. */
function firstIndexNear(start: CalendarDate, input: ScheduleInput, from: CalendarDate): number {
  const { period, interval } = input;
  if (period === undefined || interval === undefined) return 0;
  if (period === 'month') {
    const months = from.year * 12 + from.month - (start.year * 12 + start.month);
    return Math.max(0, Math.floor(months / interval) - 1);
  }
  const step = interval * (period === 'week' ? 7 : 1);
  const days = toDayNumber(from) - toDayNumber(start);
  return days <= 0 ? 0 : Math.ceil(days / step);
}

const CHUNK = 4096;

/**
 * Calls `visit` with each charge of `row` inside the window and its day number. Asks the schedule engine
 * in chunks from a computed first index, so a daily row started ten years ago costs the window's days only.
 */
export function chargesInWindow(
  input: ScheduleInput,
  window: ForecastWindow & { today: CalendarDate },
  visit: (charge: Charge, day: number) => void,
): void {
  const firstDay = toDayNumber(window.from);
  const lastDay = toDayNumber(window.to);
  const start = input.startDate ?? window.today;
  let fromIndex = firstIndexNear(start, input, window.from);
  for (;;) {
    const charges = computeSchedule(input, { today: window.today, limit: CHUNK, fromIndex });
    for (const charge of charges) {
      const day = toDayNumber(charge.date);
      if (day > lastDay) return;
      if (day >= firstDay) visit(charge, day);
    }
    if (charges.length < CHUNK) return;
    fromIndex = charges[charges.length - 1].index + 1;
  }
}

interface CurrencyTotals {
  counts: Int32Array;
  low: Sums;
  high: Sums;
  decimals: number;
}

/**
 * A date rule's charges in the window, shared by every row with the same date columns: `buckets` holds
 * pairs (bucket index, charges in it), `steps` pairs (bucket index, charge index) for amount-sequence rows.
 */
interface DatePlan {
  buckets: number[];
  steps: number[];
}

export interface CountedRow {
  recordIndex: number;
  rowNumber: number;
  currency: string;
  dates: DatePlan;
  amounts: RowAmounts;
}

export interface ForecastRun {
  forecast: Forecast;
  /** The rows counted, for listing the rows of one bucket without reading the batch again. */
  counted: CountedRow[];
  table: PeriodTable;
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
function eachBucket(dates: DatePlan, amounts: RowAmounts, add: (b: number, charges: number, low: number, high: number) => void): void {
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

export function forecastBatch(batch: Batch, options: ForecastOptions): ForecastRun {
  const table = periodTable(options.by, options.from, options.to);
  const size = table.labels.length;
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
  const totals = new Map<string, CurrencyTotals>();
  const counted: CountedRow[] = [];
  const skipped: SkippedRow[] = [];
  let rowNumber = 0;
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r)) continue;
    rowNumber++;
    const values = reader.read(r);
    if (!values) {
      skipped.push({ line: lineOf(csv, r), row: rowNumber, reason: UNTRUSTED_REASON });
      continue;
    }
    let dateKey = values[0];
    for (let k = 1; k < A; k++) dateKey += SEP + values[k];
    const dates = datesOf(dateKey);
    const plain = plainAmount(values[A], values[A + 1], values[A + 2], values[A + 3]);
    const amounts: Verdict<RowAmounts> = plain ? { ok: true, value: plain } : amountsOf(values.slice(A, C).join(SEP));
    const currency = values[C].trim();
    const noCurrency = currencyProblem(currency);
    if (!dates.ok || !amounts.ok || noCurrency !== undefined) {
      const reasons = [dates.ok ? '' : dates.reason, noCurrency ?? '', amounts.ok ? '' : amounts.reason];
      skipped.push({ line: lineOf(csv, r), row: rowNumber, reason: reasons.filter((x) => x !== '').join('; ') });
      continue;
    }
    counted.push({ recordIndex: r, rowNumber, currency, dates: dates.value, amounts: amounts.value });
    let t = totals.get(currency);
    if (!t) totals.set(currency, (t = { counts: new Int32Array(size), low: new Sums(size), high: new Sums(size), decimals: 2 }));
    addInto(t, dates.value, amounts.value);
  }
  const currencies: Record<string, ForecastBucket[]> = {};
  for (const currency of [...totals.keys()].sort()) {
    const t = totals.get(currency)!;
    const buckets: ForecastBucket[] = [];
    for (let b = 0; b < size; b++) {
      if (t.counts[b] === 0) continue;
      buckets.push({
        period: table.labels[b],
        charges: t.counts[b],
        min: formatThousandths(t.low.get(b), t.decimals),
        max: formatThousandths(t.high.get(b), t.decimals),
      });
    }
    if (buckets.length > 0) currencies[currency] = buckets;
  }
  const forecast: Forecast = {
    by: options.by,
    window: { from: formatIsoDate(options.from), to: formatIsoDate(options.to) },
    currencies,
    rows: { counted: counted.length, skipped },
  };
  return { forecast, counted, table };
}

export function forecastText(text: string, options: ForecastOptions): Forecast {
  return forecastBatch(readBatch(text), options).forecast;
}

/** One row charging in a bucket, for the panel's list under a clicked bar. */
export interface BucketRow {
  line: number;
  row: number;
  clientOrderId: string;
  currency: string;
  charges: number;
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
  for (const { recordIndex, rowNumber, currency, dates, amounts } of run.counted) {
    let charges = 0;
    let low = 0;
    let high = 0;
    eachBucket(dates, amounts, (at, n, l, h) => {
      if (at !== b) return;
      charges += n;
      low += l;
      high += h;
    });
    if (charges === 0) continue;
    total++;
    if (rows.length >= limit) continue;
    const decimals = Math.max(2, amounts.decimals);
    const id = idColumn === undefined ? '' : (batch.csv.record(recordIndex).values[idColumn] ?? '');
    rows.push({
      line: lineOf(batch.csv, recordIndex),
      row: rowNumber,
      // The merchant's free text: a card number pasted into it by mistake is masked like anywhere else.
      clientOrderId: maskText(id),
      currency,
      charges,
      min: formatThousandths(BigInt(low), decimals),
      max: formatThousandths(BigInt(high), decimals),
    });
  }
  return { rows, total };
}
