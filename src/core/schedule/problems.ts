import { parseGatewayDate } from '../dates';
import { isScheduleDecimal } from './schedule';

// Why a row's schedule cannot be computed. scheduleInputFromRow leaves out what it cannot read, which is
// right for the local gateway's tolerance but wrong for a person: a start-date written 2027-01-15 would
// silently become "no start-date, charged today". Hovers and `paygate schedule` say these reasons
// instead of a schedule.

const PERIODS = ['day', 'week', 'month'];
const POSITIVE_INTEGER = /^[1-9]\d*$/;

/** Each reason names the column and the value as written; empty when the schedule can be computed. */
export function scheduleProblems(values: Record<string, string>): string[] {
  const v = (column: string): string | undefined => {
    const t = values[column]?.trim();
    return t === undefined || t === '' ? undefined : t;
  };
  const problems: string[] = [];
  const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

  const period = v('period');
  const interval = v('interval');
  if (period !== undefined && !PERIODS.includes(period)) problems.push(`period "${shown(period)}" is not day, week or month`);
  if (interval !== undefined && !POSITIVE_INTEGER.test(interval)) problems.push(`interval "${shown(interval)}" is not a whole number of 1 or more`);
  if (period !== undefined && interval === undefined) problems.push('period is set but interval is missing');
  if (interval !== undefined && period === undefined) problems.push('interval is set but period is missing');

  for (const column of ['start-date', 'finish-date']) {
    const text = v(column);
    if (text !== undefined && parseGatewayDate(text) === undefined) problems.push(`${column} "${shown(text)}" is not a real date written DD.MM.YYYY`);
  }
  const max = v('max-repeats-number');
  if (max !== undefined && !POSITIVE_INTEGER.test(max)) problems.push(`max-repeats-number "${shown(max)}" is not a whole number of 1 or more`);

  const amount = v('amount');
  const from = v('amount-from');
  const to = v('amount-to');
  const seq = v('amount-sequence');
  for (const [column, text] of [['amount', amount], ['amount-from', from], ['amount-to', to]] as const) {
    if (text !== undefined && !isScheduleDecimal(text)) problems.push(`${column} "${shown(text)}" is not an amount greater than 0 with at most 3 decimals`);
  }
  if (seq !== undefined) {
    const bad = seq.split(',').map((p) => p.trim()).find((p) => !isScheduleDecimal(p));
    if (bad !== undefined) problems.push(`amount-sequence element "${shown(bad)}" is not an amount greater than 0 with at most 3 decimals`);
  }
  if ((from === undefined) !== (to === undefined)) problems.push(`${from === undefined ? 'amount-to' : 'amount-from'} is set without its pair ${from === undefined ? 'amount-from' : 'amount-to'}`);
  if (amount === undefined && from === undefined && to === undefined && seq === undefined) problems.push('no amount: set amount, amount-from with amount-to, or amount-sequence');
  return problems;
}
