// The charge forecast: every charge of every row in a window, from the schedule engine, bucketed by day,
// ISO week or month per currency. The CLI, the editor's panel and the bench all call forecastBatch, so the
// three faces show the same sums.

import { addDays, addMonthsClamped, formatIsoDate, toDayNumber, type CalendarDate } from '../dates';
import type { Batch, BatchRow } from '../rules/batch';
import { readBatch } from '../rules/batch';
import { maskText } from '../mask';
import { computeSchedule, type Charge } from '../schedule/schedule';
import { formatThousandths, Sums } from './amounts';
import { periodTable, type ForecastBy, type PeriodTable } from './periods';
import { lineOf, readForecastRow, type ForecastRow, type SkippedRow } from './rows';

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
function firstIndexNear(start: CalendarDate, row: ForecastRow, from: CalendarDate): number {
  const { period, interval } = row.input;
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
  row: ForecastRow,
  window: ForecastWindow & { today: CalendarDate },
  visit: (charge: Charge, day: number) => void,
): void {
  const firstDay = toDayNumber(window.from);
  const lastDay = toDayNumber(window.to);
  const start = row.input.startDate ?? window.today;
  let fromIndex = firstIndexNear(start, row, window.from);
  for (;;) {
    const charges = computeSchedule(row.input, { today: window.today, limit: CHUNK, fromIndex });
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

export interface ForecastRun {
  forecast: Forecast;
  /** The rows counted, for listing the rows of one bucket without reading the batch again. */
  counted: ForecastRow[];
  table: PeriodTable;
}

export function forecastBatch(batch: Batch, options: ForecastOptions): ForecastRun {
  const table = periodTable(options.by, options.from, options.to);
  const size = table.labels.length;
  const totals = new Map<string, CurrencyTotals>();
  const counted: ForecastRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const row of batch.rows) {
    const verdict = readForecastRow(row);
    if (!verdict.ok) {
      skipped.push({ line: lineOf(batch, row), row: row.rowNumber, reason: verdict.reason });
      continue;
    }
    const r = verdict.value;
    counted.push(r);
    let t = totals.get(r.currency);
    if (!t) totals.set(r.currency, (t = { counts: new Int32Array(size), low: new Sums(size), high: new Sums(size), decimals: 2 }));
    const into = t;
    if (r.decimals > into.decimals) into.decimals = r.decimals;
    chargesInWindow(r, options, (charge, day) => {
      const b = table.bucketOfDay[day - table.firstDay];
      into.counts[b]++;
      into.low.add(b, r.low(charge.index));
      into.high.add(b, r.high(charge.index));
    });
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
export function rowsInBucket(
  batch: Batch,
  run: ForecastRun,
  options: ForecastOptions,
  period: string,
  limit: number,
): { rows: BucketRow[]; total: number } {
  const b = run.table.labels.indexOf(period);
  const rows: BucketRow[] = [];
  let total = 0;
  if (b < 0) return { rows, total };
  for (const r of run.counted) {
    let count = 0;
    let low = 0;
    let high = 0;
    chargesInWindow(r, options, (charge, day) => {
      if (run.table.bucketOfDay[day - run.table.firstDay] !== b) return;
      count++;
      low += r.low(charge.index);
      high += r.high(charge.index);
    });
    if (count === 0) continue;
    total++;
    if (rows.length < limit) rows.push(bucketRow(batch, r.row, r, count, low, high));
  }
  return { rows, total };
}

function bucketRow(batch: Batch, row: BatchRow, r: ForecastRow, count: number, low: number, high: number): BucketRow {
  const decimals = Math.max(2, r.decimals);
  return {
    line: lineOf(batch, row),
    row: row.rowNumber,
    // The merchant's free text: a card number pasted into it by mistake is masked like anywhere else.
    clientOrderId: maskText(row.value('client-orderid') ?? ''),
    currency: r.currency,
    charges: count,
    min: formatThousandths(BigInt(low), decimals),
    max: formatThousandths(BigInt(high), decimals),
  };
}
