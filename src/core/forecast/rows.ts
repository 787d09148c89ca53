// Which rows the forecast can count, and why the others are skipped. A row is skipped, never guessed,
// when a schedule column holds what the linter reports as an error: a forecast that moved a malformed
// start-date to "today" would draw a spike that is not in the batch.
//
// A row is read in two halves that rows share independently: its dates (card type, period, interval,
// start-date, finish-date, max-repeats-number) and its amounts. A batch of 100k payers has a few dozen
// date rules however many different amounts it holds, so each rule is checked and scheduled once.

import { compareDates } from '../dates';
import type { ParsedCsv } from '../csv/parse';
import { inMessage } from '../rules/quote';
import { scheduleProblems } from '../schedule/problems';
import { scheduleInputFromRow, type ScheduleInput } from '../schedule/schedule';
import { decimalsOf, isRuleBookDecimalIn, thousandthsIn } from '../amounts';
import { MAX_AMOUNT_LENGTH } from './sums';

/** The columns a charge's date, amount and currency come from, in the order FieldReader reads them. */
export const DATE_COLUMNS = ['rp_card_type', 'period', 'interval', 'start-date', 'finish-date', 'max-repeats-number'] as const;
export const AMOUNT_COLUMNS = ['amount', 'amount-from', 'amount-to', 'amount-sequence'] as const;
export const FORECAST_COLUMNS = [...DATE_COLUMNS, ...AMOUNT_COLUMNS, 'currency'] as const;

const CURRENCY = /^[A-Z]{3}$/;

export interface SkippedRow {
  /** 1-based line of the row in the file. */
  line: number;
  /** 1-based data row number. */
  row: number;
  reason: string;
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

export const UNTRUSTED_REASON = 'the row has CSV errors (csv-syntax or field-count), so its values cannot be trusted';

export function lineOf(csv: ParsedCsv, recordIndex: number): number {
  return csv.index.positionAt(csv.recordStart(recordIndex)).line + 1;
}

function named(columns: readonly string[], values: readonly string[], from: number): Record<string, string> {
  const out: Record<string, string> = {};
  columns.forEach((column, k) => (out[column] = values[from + k].trim()));
  return out;
}

/** The date half: `values` holds DATE_COLUMNS from index 0. The input carries no amount. */
export function readDates(values: readonly string[]): Verdict<ScheduleInput> {
  const v = named(DATE_COLUMNS, values, 0);
  // Without amounts scheduleProblems also says "no amount"; only the problems that block dates count here.
  const problems = scheduleProblems(v).filter((p) => p.blocksDates);
  if (problems.length > 0) return { ok: false, reason: problems.map((p) => p.message).join('; ') };
  if (v.rp_card_type === 'DST') {
    // dst-unsupported: a DST row charges once; a period on it is an error the gateway rejects.
    const carried = ['period', 'interval'].filter((c) => v[c] !== '');
    if (carried.length > 0) return { ok: false, reason: `a DST row cannot carry ${carried.join(' or ')} (dst-unsupported)` };
  }
  const input = scheduleInputFromRow(v);
  if (input.startDate && input.finishDate && compareDates(input.finishDate, input.startDate) < 0)
    return { ok: false, reason: 'finish-date is before start-date (date-order)' };
  return { ok: true, value: input };
}

/** A row's amounts in thousandths: `low`/`high` for every charge, or per charge index from `sequence`. */
export interface RowAmounts {
  /** Decimals the amounts are written with (at most 3). */
  decimals: number;
  low: number;
  high: number;
  /** amount-sequence: charge i's amount; past its end every charge uses the last (the engine's rule 3). */
  sequence?: number[];
}

export function amountAt(a: RowAmounts, index: number): number {
  const seq = a.sequence!;
  return seq[index < seq.length ? index : seq.length - 1];
}

/** An amount scheduleInputFromRow kept (so the rule book's decimal) in thousandths. */
const thousandths = (text: string): number => thousandthsIn(text, 0, text.length);

/** A plainly written decimal (the rule book's, at most 10 characters) in thousandths, with its decimals. */
function plainThousandths(text: string): { value: number; decimals: number } | undefined {
  const n = text.length;
  if (n > MAX_AMOUNT_LENGTH || !isRuleBookDecimalIn(text, 0, n)) return undefined;
  return { value: thousandthsIn(text, 0, n), decimals: decimalsOf(text) };
}

/**
 * The common cases without the general reader: only `amount`, only amount-from and amount-to (in order),
 * or only amount-sequence, written plainly. Undefined when the row needs the general reader (which also gives the reasons).
 */
export function plainAmount(amount: string, from: string, to: string, sequence: string): RowAmounts | undefined {
  if (sequence !== '') return amount === '' && from === '' && to === '' ? plainSequence(sequence) : undefined;
  if (from === '' && to === '') {
    const a = plainThousandths(amount);
    return a && { decimals: a.decimals, low: a.value, high: a.value };
  }
  if (amount !== '') return undefined;
  const low = plainThousandths(from);
  const high = plainThousandths(to);
  if (!low || !high || low.value > high.value) return undefined;
  return { decimals: Math.max(low.decimals, high.decimals), low: low.value, high: high.value };
}

function plainSequence(text: string): RowAmounts | undefined {
  const sequence: number[] = [];
  let decimals = 0;
  for (const part of text.split(',')) {
    const p = plainThousandths(part.trim());
    if (!p) return undefined;
    sequence.push(p.value);
    if (p.decimals > decimals) decimals = p.decimals;
  }
  return { decimals, low: sequence[0], high: sequence[0], sequence };
}

/** The amount half: `values` holds AMOUNT_COLUMNS from index `from`. */
export function readAmounts(values: readonly string[], from: number): Verdict<RowAmounts> {
  const v = named(AMOUNT_COLUMNS, values, from);
  const problems = scheduleProblems(v);
  if (problems.length > 0) return { ok: false, reason: problems.map((p) => p.message).join('; ') };
  const modes = [v.amount, v['amount-from'] || v['amount-to'], v['amount-sequence']].filter((x) => x !== '');
  if (modes.length > 1) return { ok: false, reason: 'more than one amount mode (amount-mode): the amount cannot be known' };
  for (const column of AMOUNT_COLUMNS) {
    const parts = column === 'amount-sequence' ? v[column].split(',') : [v[column]];
    if (parts.some((p) => p.trim().length > MAX_AMOUNT_LENGTH))
      return { ok: false, reason: `${column} is longer than ${MAX_AMOUNT_LENGTH} characters (value-length)` };
  }
  const input = scheduleInputFromRow(v);
  if (input.amountFrom !== undefined && input.amountTo !== undefined && thousandths(input.amountFrom) > thousandths(input.amountTo))
    return { ok: false, reason: 'amount-from is greater than amount-to (amount-range)' };
  return { ok: true, value: amountsOf(input) };
}

export function currencyProblem(text: string): string | undefined {
  const currency = text.trim();
  if (CURRENCY.test(currency)) return undefined;
  return currency === '' ? 'no currency' : `currency "${inMessage(currency)}" is not 3 upper-case letters`;
}

function amountsOf(input: ScheduleInput): RowAmounts {
  if (input.amount !== undefined) {
    const v = thousandths(input.amount);
    return { decimals: decimalsOf(input.amount), low: v, high: v };
  }
  if (input.amountFrom !== undefined && input.amountTo !== undefined) {
    const decimals = Math.max(decimalsOf(input.amountFrom), decimalsOf(input.amountTo));
    return { decimals, low: thousandths(input.amountFrom), high: thousandths(input.amountTo) };
  }
  const texts = input.amountSequence ?? [];
  const sequence = texts.map(thousandths);
  return { decimals: texts.reduce((m, t) => Math.max(m, decimalsOf(t)), 0), low: sequence[0], high: sequence[0], sequence };
}
