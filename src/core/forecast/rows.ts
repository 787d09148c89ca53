// Which rows the forecast can count, and why the others are skipped. A row is skipped, never guessed,
// when a schedule column holds what the linter reports as an error: a forecast that moved a malformed
// start-date to "today" would draw a spike that is not in the batch.

import { compareDates } from '../dates';
import type { Batch, BatchRow } from '../rules/batch';
import { scheduleProblems } from '../schedule/problems';
import { scheduleInputFromRow, type ScheduleInput } from '../schedule/schedule';
import { decimalsOf, MAX_AMOUNT_LENGTH, thousandths } from './amounts';

/** The columns a charge's date, amount and currency come from. */
export const FORECAST_COLUMNS = [
  'rp_card_type',
  'currency',
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

const AMOUNT_COLUMNS = ['amount', 'amount-from', 'amount-to', 'amount-sequence'] as const;
const CURRENCY = /^[A-Z]{3}$/;

export interface ForecastRow {
  row: BatchRow;
  input: ScheduleInput;
  currency: string;
  /** Decimals the row's amounts are written with (at most 3). */
  decimals: number;
  /** Charge i's amount in thousandths, low and high (equal unless amount-from/amount-to). */
  low: (index: number) => number;
  high: (index: number) => number;
}

export interface SkippedRow {
  /** 1-based line of the row in the file. */
  line: number;
  /** 1-based data row number. */
  row: number;
  reason: string;
}

export type RowVerdict = { ok: true; value: ForecastRow } | { ok: false; reason: string };

export function lineOf(batch: Batch, row: BatchRow): number {
  return batch.csv.index.positionAt(row.record.start).line + 1;
}

/** Reads one row for the forecast, or says why it cannot be counted. */
export function readForecastRow(row: BatchRow): RowVerdict {
  if (!row.trusted) return { ok: false, reason: 'the row has CSV errors (csv-syntax or field-count), so its values cannot be trusted' };
  const values: Record<string, string> = {};
  for (const column of FORECAST_COLUMNS) {
    const v = row.value(column);
    if (v !== undefined) values[column] = v.trim();
  }
  const problems = scheduleProblems(values);
  if (problems.length > 0) return { ok: false, reason: problems.map((p) => p.message).join('; ') };
  const currency = values.currency ?? '';
  if (!CURRENCY.test(currency))
    return { ok: false, reason: currency === '' ? 'no currency' : `currency "${currency}" is not 3 upper-case letters` };
  if (values.rp_card_type === 'DST') {
    // dst-unsupported: a DST row charges once; a period on it is an error the gateway rejects.
    const carried = ['period', 'interval'].filter((c) => (values[c] ?? '') !== '');
    if (carried.length > 0) return { ok: false, reason: `a DST row cannot carry ${carried.join(' or ')} (dst-unsupported)` };
  }
  const modes = [values.amount, values['amount-from'] ?? values['amount-to'], values['amount-sequence']].filter(
    (v) => v !== undefined && v !== '',
  );
  if (modes.length > 1) return { ok: false, reason: 'more than one amount mode (amount-mode): the amount cannot be known' };
  for (const column of AMOUNT_COLUMNS) {
    const v = values[column] ?? '';
    const long =
      column === 'amount-sequence' ? v.split(',').some((p) => p.trim().length > MAX_AMOUNT_LENGTH) : v.length > MAX_AMOUNT_LENGTH;
    if (long) return { ok: false, reason: `${column} is longer than ${MAX_AMOUNT_LENGTH} characters (value-length)` };
  }
  const input = scheduleInputFromRow(values);
  if (input.startDate && input.finishDate && compareDates(input.finishDate, input.startDate) < 0)
    return { ok: false, reason: 'finish-date is before start-date (date-order)' };
  if (input.amountFrom !== undefined && input.amountTo !== undefined && thousandths(input.amountFrom) > thousandths(input.amountTo))
    return { ok: false, reason: 'amount-from is greater than amount-to (amount-range)' };
  return { ok: true, value: { row, input, currency, ...amountsOf(input) } };
}

function amountsOf(input: ScheduleInput): Pick<ForecastRow, 'decimals' | 'low' | 'high'> {
  if (input.amount !== undefined) {
    const v = thousandths(input.amount);
    return { decimals: decimalsOf(input.amount), low: () => v, high: () => v };
  }
  if (input.amountFrom !== undefined && input.amountTo !== undefined) {
    const from = thousandths(input.amountFrom);
    const to = thousandths(input.amountTo);
    return { decimals: Math.max(decimalsOf(input.amountFrom), decimalsOf(input.amountTo)), low: () => from, high: () => to };
  }
  // Past the end of the sequence every charge uses its last amount (the schedule engine's rule 3).
  const seq = (input.amountSequence ?? []).map(thousandths);
  const at = (index: number) => seq[Math.min(index, seq.length - 1)];
  return { decimals: Math.max(0, ...(input.amountSequence ?? []).map(decimalsOf)), low: at, high: at };
}
