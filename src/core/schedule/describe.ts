// One sentence about a row's schedule rule, for the CLI's table heading and for hovers: people check the
// rule ("every 2 months from the 31st") before they check the dates it produces.

import { formatGatewayDate } from '../dates';
import { formatAmount, type ScheduleInput } from './schedule';

function every(period: 'day' | 'week' | 'month', interval: number): string {
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

/** E.g. "every 2 months from 31.01.2027 until 31.12.2027, at most 5 charges; amount 10.00". */
export function describeSchedule(input: ScheduleInput): string {
  const from = input.startDate ? formatGatewayDate(input.startDate) : 'today';
  const until = input.finishDate ? ` until ${formatGatewayDate(input.finishDate)}` : '';
  const interval = input.interval;
  // Mirrors computeSchedule: only a period with a whole interval >= 1 repeats.
  if (input.period === undefined || interval === undefined || !Number.isSafeInteger(interval) || interval < 1) {
    return `one charge on ${from}${until}; ${amountText(input)}`;
  }
  const max = input.maxRepeats === undefined ? '' : `, at most ${input.maxRepeats} charge${input.maxRepeats === 1 ? '' : 's'}`;
  return `${every(input.period, interval)} from ${from}${until}${max}; ${amountText(input)}`;
}
