// One sentence about a row's schedule rule, for the CLI's table heading and for hovers: people check the
// rule ("every 2 months from the 31st") before they check the dates it produces. And the words for what a
// row's schedule moves: a charge (SRC, money drawn from the payer's card) or a payout (DST, money paid out
// to the receiver's card), which every face counts and totals apart.

import { formatGatewayDate } from '../dates';
import type { Period } from '../periods';
import { formatAmount, type ScheduleInput } from './schedule';

/** A DST row (the receiver's destination card): what it schedules is paid out, never charged. */
export function isPayoutRow(values: Record<string, string | undefined>): boolean {
  return (values['rp_card_type'] ?? '').trim() === 'DST';
}

export interface KindWords {
  /** 'charge' or 'payout'. */
  one: string;
  /** 'charges' or 'payouts'. */
  many: string;
}

export const CHARGE_WORDS: KindWords = { one: 'charge', many: 'charges' };
export const PAYOUT_WORDS: KindWords = { one: 'payout', many: 'payouts' };

export const kindWords = (payout: boolean): KindWords => (payout ? PAYOUT_WORDS : CHARGE_WORDS);

/** "1 charge", "3 payouts". */
export const countOf = (n: number, w: KindWords) => `${n} ${n === 1 ? w.one : w.many}`;

function every(period: Period, interval: number): string {
  return interval === 1 ? `every ${period}` : `every ${interval} ${period}s`;
}

function amountText(input: ScheduleInput): string {
  if (input.amount !== undefined) return `amount ${input.amount}`;
  if (input.amountFrom !== undefined && input.amountTo !== undefined) {
    return `a random amount ${formatAmount({ kind: 'range', from: input.amountFrom, to: input.amountTo })}`;
  }
  if (input.amountSequence && input.amountSequence.length > 0) return `amounts ${input.amountSequence.join(', ')} (then the last)`;
  return 'no valid amount';
}

/** E.g. "every 2 months from 31.01.2027 until 31.12.2027, at most 5 charges; amount 10.00" ("one payout on …" for a DST row). */
export function describeSchedule(input: ScheduleInput, words: KindWords = CHARGE_WORDS): string {
  const from = input.startDate ? formatGatewayDate(input.startDate) : 'today';
  const until = input.finishDate ? ` until ${formatGatewayDate(input.finishDate)}` : '';
  const interval = input.interval;
  // Mirrors computeSchedule: only a period with a whole interval >= 1 repeats.
  if (input.period === undefined || interval === undefined || !Number.isSafeInteger(interval) || interval < 1) {
    return `one ${words.one} on ${from}${until}; ${amountText(input)}`;
  }
  const max = input.maxRepeats === undefined ? '' : `, at most ${countOf(input.maxRepeats, words)}`;
  return `${every(input.period, interval)} from ${from}${until}${max}; ${amountText(input)}`;
}
