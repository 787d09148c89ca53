// One sentence about a row's schedule rule, for the CLI's table heading and for hovers: people check the
// rule ("every 2 months from the 31st") before they check the dates it produces. And the words for what a
// row's schedule moves: a charge (SRC, money drawn from the payer's card) or a payout (DST, money paid out
// to the receiver's card), which every face counts and totals apart.

import { formatGatewayDate } from '../dates';
import { joinSaid, ourWords, said, typed, type Said } from '../output/said';
import type { Period } from '../periods';
import type { ScheduleInput } from './schedule';

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

function every(period: Period, interval: number): Said {
  return interval === 1 ? ourWords(`every ${period}`) : said`every ${typed.count(interval)} ${ourWords(`${period}s`)}`;
}

function amountText(input: ScheduleInput): Said {
  if (input.amount !== undefined) return said`amount ${typed.amount(input.amount)}`;
  if (input.amountFrom !== undefined && input.amountTo !== undefined) {
    // formatAmount's range, each end checked as an amount.
    return said`a random amount ${typed.amount(input.amountFrom)}–${typed.amount(input.amountTo)}`;
  }
  if (input.amountSequence && input.amountSequence.length > 0)
    return said`amounts ${joinSaid(input.amountSequence.map(typed.amount), ', ')} (then the last)`;
  return ourWords('no valid amount');
}

/**
 * E.g. "every 2 months from 31.01.2027 until 31.12.2027, at most 5 charges; amount 10.00" ("one payout on …" for a
 * DST row): a `Said` (core/output/said.ts), its dates, counts and amounts each checked alone by their type.
 */
export function describeSchedule(input: ScheduleInput, words: KindWords = CHARGE_WORDS): Said {
  const from = input.startDate ? said`${typed.date(formatGatewayDate(input.startDate))}` : ourWords('today');
  const until = input.finishDate ? said` until ${typed.date(formatGatewayDate(input.finishDate))}` : ourWords('');
  const interval = input.interval;
  // Mirrors computeSchedule: only a period with a whole interval >= 1 repeats.
  if (input.period === undefined || interval === undefined || !Number.isSafeInteger(interval) || interval < 1) {
    return said`${ourWords(`one ${words.one}`)} on ${from}${until}; ${amountText(input)}`;
  }
  const max =
    input.maxRepeats === undefined
      ? ourWords('')
      : said`, at most ${typed.count(input.maxRepeats)} ${ourWords(input.maxRepeats === 1 ? words.one : words.many)}`;
  return said`${every(input.period, interval)} from ${from}${until}${max}; ${amountText(input)}`;
}
