import { parseGatewayDate } from '../dates';
import { inMessage } from '../rules/quote';
import { isRuleBookDecimal } from '../amounts';
import { isPeriod, PERIODS } from '../periods';

// Why a row's schedule cannot be computed. scheduleInputFromRow leaves out what it cannot read, which is
// right for the local gateway's tolerance but wrong for a person: a start-date written 2027-01-15 would
// silently become "no start-date, charged today". Hovers and `paygate schedule` say these reasons
// instead of a schedule.

const POSITIVE_INTEGER = /^[1-9]\d*$/;

export interface ScheduleProblem {
  column: string;
  /** Names the column and the value as written. */
  message: string;
  /**
   * True when the dates themselves cannot be known (a date, the period, the interval or the repeat count);
   * an amount problem leaves the dates right and only the amounts unknown.
   */
  blocksDates: boolean;
}

const AMOUNT_COLUMNS = ['amount', 'amount-from', 'amount-to', 'amount-sequence'];

/** Empty when the schedule can be computed. */
export function scheduleProblems(values: Record<string, string>): ScheduleProblem[] {
  const problems: ScheduleProblem[] = [];
  collect(values, (column, message) => problems.push({ column, message, blocksDates: !AMOUNT_COLUMNS.includes(column) }));
  return problems;
}

function collect(values: Record<string, string>, push: (column: string, message: string) => void): void {
  const v = (column: string): string | undefined => {
    const t = values[column]?.trim();
    return t === undefined || t === '' ? undefined : t;
  };
  // Values as written, but never a card number typed into the wrong column: these reach terminals and logs.
  const shown = inMessage;

  const period = v('period');
  const interval = v('interval');
  if (period !== undefined && !isPeriod(period))
    push('period', `period "${shown(period)}" is not ${PERIODS.slice(0, -1).join(', ')} or ${PERIODS.at(-1)}`);
  if (interval !== undefined && !POSITIVE_INTEGER.test(interval))
    push('interval', `interval "${shown(interval)}" is not a whole number of 1 or more`);
  if (period !== undefined && interval === undefined) push('interval', 'period is set but interval is missing');
  if (interval !== undefined && period === undefined) push('period', 'interval is set but period is missing');

  for (const column of ['start-date', 'finish-date']) {
    const text = v(column);
    if (text !== undefined && parseGatewayDate(text) === undefined)
      push(column, `${column} "${shown(text)}" is not a real date written DD.MM.YYYY`);
  }
  const max = v('max-repeats-number');
  if (max !== undefined && !POSITIVE_INTEGER.test(max))
    push('max-repeats-number', `max-repeats-number "${shown(max)}" is not a whole number of 1 or more`);

  const amount = v('amount');
  const from = v('amount-from');
  const to = v('amount-to');
  const seq = v('amount-sequence');
  for (const [column, text] of [
    ['amount', amount],
    ['amount-from', from],
    ['amount-to', to],
  ] as const) {
    if (text !== undefined && !isRuleBookDecimal(text))
      push(column, `${column} "${shown(text)}" is not an amount greater than 0 with at most 3 decimals`);
  }
  if (seq !== undefined) {
    const bad = seq
      .split(',')
      .map((p) => p.trim())
      .find((p) => !isRuleBookDecimal(p));
    if (bad !== undefined)
      push('amount-sequence', `amount-sequence element "${shown(bad)}" is not an amount greater than 0 with at most 3 decimals`);
  }
  if ((from === undefined) !== (to === undefined))
    push(
      from === undefined ? 'amount-from' : 'amount-to',
      `${from === undefined ? 'amount-to' : 'amount-from'} is set without its pair ${from === undefined ? 'amount-from' : 'amount-to'}`,
    );
  if (amount === undefined && from === undefined && to === undefined && seq === undefined)
    push('amount', 'no amount: set amount, amount-from with amount-to, or amount-sequence');
}
