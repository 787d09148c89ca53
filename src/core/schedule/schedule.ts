import { isRuleBookDecimal } from '../amounts';
// The charge schedule of one recurring-payment row (docs/schedule.md, "The rules", which follows the
// gateway's API description of states and transitions). Hovers, `paygate schedule` and the local gateway all read charges from here,
// so the three can never disagree about when a payer is charged and how much.

import { addDays, addMonthsClamped, compareDates, parseGatewayDate, type CalendarDate } from '../dates';
import { isPeriod, type Period } from '../periods';

export type ChargeAmount = { kind: 'fixed'; value: string } | { kind: 'range'; from: string; to: string } | { kind: 'none' };

export interface Charge {
  index: number;
  date: CalendarDate;
  amount: ChargeAmount;
}

export type SchedulePeriod = Period;

export interface ScheduleInput {
  period?: SchedulePeriod;
  interval?: number;
  startDate?: CalendarDate;
  finishDate?: CalendarDate;
  maxRepeats?: number;
  amount?: string;
  amountFrom?: string;
  amountTo?: string;
  amountSequence?: string[];
}

export interface ScheduleOptions {
  /** The first charge's date when the row has no start-date (the gateway starts such a schedule at once). */
  today: CalendarDate;
  /** At most this many charges are returned; the schedule itself may be endless. */
  limit: number;
  /** Index of the first charge to return (the local gateway resumes a schedule from its repeats counter). */
  fromIndex?: number;
  /** No charge after this date is returned (reconciliation stops at its window; an endless row then ends). */
  until?: CalendarDate;
}

/**
 * Hard ceiling on charges per call, whatever `limit` says: a row with neither max-repeats-number nor
 * finish-date never ends, and an `Infinity` limit must not turn that into an endless loop.
 */
export const MAX_CHARGES_PER_CALL = 100_000;

/** DD.MM.YYYY has four year digits: a charge later than that cannot be written in the gateway's form. */
const LAST_YEAR = 9999;

const POSITIVE_INTEGER = /^\d+$/;

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined || !POSITIVE_INTEGER.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

function decimal(text: string | undefined): string | undefined {
  return text !== undefined && isRuleBookDecimal(text) ? text : undefined;
}

function sequence(text: string | undefined): string[] | undefined {
  if (text === undefined || text === '') return undefined;
  const parts = text.split(',').map((p) => p.trim());
  // One bad element would shift every later charge onto the wrong amount, so the whole list is dropped.
  return parts.every(isRuleBookDecimal) ? parts : undefined;
}

/** The columns `scheduleInputFromRow` reads. */
export const SCHEDULE_COLUMNS = [
  'period',
  'interval',
  'start-date',
  'finish-date',
  'max-repeats-number',
  'amount',
  'amount-from',
  'amount-to',
  'amount-sequence',
] as const;

/**
 * Reads the schedule columns of one row (values by column name, as `BatchRow.values()` gives them).
 * Tolerant on purpose: a value the linter would reject is simply left out, so a half-written row still
 * gets a preview; the linter is the one that reports the value.
 */
export function scheduleInputFromRow(values: Record<string, string>): ScheduleInput {
  const v = (column: string): string | undefined => {
    const raw = values[column];
    if (raw === undefined) return undefined;
    const t = raw.trim();
    return t === '' ? undefined : t;
  };
  const input: ScheduleInput = {};
  const period = v('period');
  if (isPeriod(period)) input.period = period;
  const interval = positiveInteger(v('interval'));
  if (interval !== undefined) input.interval = interval;
  const start = parseDate(v('start-date'));
  if (start) input.startDate = start;
  const finish = parseDate(v('finish-date'));
  if (finish) input.finishDate = finish;
  const maxRepeats = positiveInteger(v('max-repeats-number'));
  if (maxRepeats !== undefined) input.maxRepeats = maxRepeats;
  const amount = decimal(v('amount'));
  if (amount !== undefined) input.amount = amount;
  const from = decimal(v('amount-from'));
  if (from !== undefined) input.amountFrom = from;
  const to = decimal(v('amount-to'));
  if (to !== undefined) input.amountTo = to;
  const seq = sequence(v('amount-sequence'));
  if (seq !== undefined) input.amountSequence = seq;
  return input;
}

function parseDate(text: string | undefined): CalendarDate | undefined {
  return text === undefined ? undefined : parseGatewayDate(text);
}

/**
 * The amount mode a row uses. A row that mixes modes is an `amount-mode` error for the linter; the preview
 * still shows something, taking the modes in the rule book's order: amount, amount-from/amount-to,
 * amount-sequence. A lone amount-from or amount-to is no mode at all.
 */
function amountOf(input: ScheduleInput): (index: number) => ChargeAmount {
  if (input.amount !== undefined) {
    const fixed: ChargeAmount = { kind: 'fixed', value: input.amount };
    return () => fixed;
  }
  if (input.amountFrom !== undefined && input.amountTo !== undefined) {
    const range: ChargeAmount = { kind: 'range', from: input.amountFrom, to: input.amountTo };
    return () => range;
  }
  const seq = input.amountSequence;
  if (seq && seq.length > 0) {
    // docs/schedule.md, "Amounts": past the end of the sequence every charge uses its last amount.
    return (index) => ({ kind: 'fixed', value: seq[Math.min(index, seq.length - 1)] });
  }
  const none: ChargeAmount = { kind: 'none' };
  return () => none;
}

/**
 * The date of charge `index`, always counted from the start date (never from the previous charge), so a
 * monthly schedule clamped to 28 February returns to the 31st in March. Undefined for a one-off beyond 0.
 */
function dateOf(
  start: CalendarDate,
  period: SchedulePeriod | undefined,
  interval: number | undefined,
  index: number,
): CalendarDate | undefined {
  if (period === undefined || interval === undefined) return index === 0 ? start : undefined;
  switch (period) {
    case 'day':
      return addDays(start, index * interval);
    case 'week':
      return addDays(start, index * interval * 7);
    case 'month':
      return addMonthsClamped(start, index * interval);
  }
}

function validInterval(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

function validDate(d: CalendarDate | undefined): d is CalendarDate {
  return d !== undefined && Number.isSafeInteger(d.year) && d.year >= 1 && d.year <= LAST_YEAR;
}

/**
 * Charges of one row, in order, from index `fromIndex` (default 0), at most `limit` of them.
 *
 * Edge cases, decided here so every face shows the same:
 * - A schedule repeats only with both a period and an interval that is a whole number ≥ 1; otherwise
 *   (one-off, or the `period-interval` error) the row is a single charge, index 0.
 * - Without start-date the first charge is `today`.
 * - finish-date is inclusive: a charge on it happens, one after it does not; finish before start → none.
 * - maxRepeats caps the index: indexes 0 … maxRepeats-1; 0 or less → no charges.
 * - A charge that would fall after 31.12.9999 ends the schedule (DD.MM.YYYY cannot write it).
 * - `limit` ≤ 0 → none; it is also capped at MAX_CHARGES_PER_CALL.
 */
export function computeSchedule(input: ScheduleInput, options: ScheduleOptions): Charge[] {
  const start = input.startDate ?? options.today;
  if (!validDate(start)) return [];
  const interval = validInterval(input.interval);
  const period = interval !== undefined && isPeriod(input.period) ? input.period : undefined;
  const limit = Math.min(MAX_CHARGES_PER_CALL, Number.isNaN(options.limit) ? 0 : Math.floor(options.limit));
  const maxRepeats = input.maxRepeats === undefined || Number.isNaN(input.maxRepeats) ? Infinity : input.maxRepeats;
  const fromIndex = Math.max(0, Math.floor(options.fromIndex ?? 0));
  if (!Number.isSafeInteger(fromIndex)) return [];
  const amount = amountOf(input);

  const charges: Charge[] = [];
  for (let index = fromIndex; charges.length < limit && index < maxRepeats; index++) {
    const date = dateOf(start, period, interval, index);
    if (!validDate(date)) break;
    if (input.finishDate && compareDates(date, input.finishDate) > 0) break;
    if (options.until && compareDates(date, options.until) > 0) break;
    charges.push({ index, date, amount: amount(index) });
  }
  return charges;
}

/** An amount as a person reads it: `10.00`, a range `5.00–20.00` (each charge random within), or `—`. */
export function formatAmount(a: ChargeAmount): string {
  switch (a.kind) {
    case 'fixed':
      return a.value;
    case 'range':
      return `${a.from}–${a.to}`;
    case 'none':
      return '—';
  }
}
