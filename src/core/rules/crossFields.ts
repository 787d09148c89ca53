import { dateKey, gatewayDateKey, type CalendarDate } from '../dates';
import type { CsvRecord } from '../csv/parse';
import { Codes, type Code } from './codes';
import { COLUMNS, STATE_COUNTRIES } from './columns';
import { inMessage } from './quote';
import type { ProblemCollector } from './problems';
import type { Fix } from './types';
import { luhnValid } from './values';

// The checks across the cells of one row (amount modes, pairs, dates, card), run by checkRows on cells
// that passed their own checks (the `good` flags, by column ordinal).

export const ORDINAL = new Map(COLUMNS.map((c, i) => [c.name, i]));

/** Header index of every column the cross-field checks read (-1 when the header lacks it). */
export interface Positions {
  orderId: number;
  cardType: number;
  card: number;
  expMonth: number;
  expYear: number;
  amount: number;
  from: number;
  to: number;
  sequence: number;
  country: number;
  state: number;
  period: number;
  interval: number;
  start: number;
  finish: number;
  notify: number;
  callback: number;
}

export const GOOD = {} as Record<keyof Positions, number>; // column ordinals, for the `good` flags
export const NAMES: Record<keyof Positions, string> = {
  orderId: 'client-orderid',
  cardType: 'rp_card_type',
  card: 'credit-card-number',
  expMonth: 'expire-month',
  expYear: 'expire-year',
  amount: 'amount',
  from: 'amount-from',
  to: 'amount-to',
  sequence: 'amount-sequence',
  country: 'country',
  state: 'state',
  period: 'period',
  interval: 'interval',
  start: 'start-date',
  finish: 'finish-date',
  notify: 'notify_url',
  callback: 'server_callback_url',
};
for (const k of Object.keys(NAMES) as (keyof Positions)[]) GOOD[k] = ORDINAL.get(NAMES[k])!;

export function cell(
  problems: ProblemCollector,
  rec: CsvRecord,
  index: number,
  code: Code,
  message: string,
  column: string,
  fixes?: Fix[],
): void {
  problems.add(code, rec.fieldStart(index), rec.fieldEnd(index), message, column, fixes);
}

export const valueAt = (values: string[], i: number): string => (i < 0 ? '' : values[i]);

export function checkCrossFields(
  problems: ProblemCollector,
  rec: CsvRecord,
  values: string[],
  pos: Positions,
  good: Uint8Array,
  isSrc: boolean,
  isDst: boolean,
  amountModes: boolean,
  today: CalendarDate,
): void {
  // Amount modes: exactly one per row. Not checked when the header has no complete mode: the header's
  // missing-column already says it, and a row is not told about columns the header lacks.
  if (amountModes) {
    const fixed = valueAt(values, pos.amount) !== '';
    const from = valueAt(values, pos.from) !== '';
    const to = valueAt(values, pos.to) !== '';
    const sequence = valueAt(values, pos.sequence) !== '';
    const modes = Number(fixed) + Number(from || to) + Number(sequence);
    let problem: string | undefined;
    if (modes === 0) problem = 'no amount: fill amount, amount-from with amount-to, or amount-sequence';
    else if (modes > 1) problem = 'more than one amount mode: use only one of amount, amount-from with amount-to, amount-sequence';
    else if (from !== to) problem = from ? 'amount-from without amount-to' : 'amount-to without amount-from';
    if (problem) problems.add(Codes.amountMode, rec.start, rec.end, problem, null);
    else if (good[GOOD.from] && good[GOOD.to] && Number(values[pos.from]) > Number(values[pos.to])) {
      cell(
        problems,
        rec,
        pos.from,
        Codes.amountRange,
        `amount-from ${inMessage(values[pos.from])} is greater than amount-to ${inMessage(values[pos.to])}`,
        'amount-from',
      );
    }
  }

  // period and interval travel together (DST rows were already told to clear both).
  if (!isDst) {
    const period = valueAt(values, pos.period) !== '';
    const interval = valueAt(values, pos.interval) !== '';
    if (period && !interval && good[GOOD.period])
      cell(problems, rec, pos.period, Codes.periodInterval, 'period without interval: add an interval (e.g. 1)', 'period');
    if (interval && !period && good[GOOD.interval])
      cell(problems, rec, pos.interval, Codes.periodInterval, 'interval without period: add a period (day, week or month)', 'interval');
  }

  if (good[GOOD.notify] && good[GOOD.callback]) {
    cell(
      problems,
      rec,
      pos.callback,
      Codes.callbackExclusive,
      'send either notify_url or server_callback_url, not both',
      'server_callback_url',
    );
  }

  if (isSrc && good[GOOD.country] && STATE_COUNTRIES.has(values[pos.country]) && pos.state >= 0 && values[pos.state] === '') {
    cell(
      problems,
      rec,
      pos.state,
      Codes.stateRequired,
      `state is required for SRC rows when country is ${inMessage(values[pos.country])}`,
      'state',
    );
  }

  const start = good[GOOD.start] ? gatewayDateKey(values[pos.start]) : NaN;
  const finish = good[GOOD.finish] ? gatewayDateKey(values[pos.finish]) : NaN;
  if (finish < start) {
    cell(
      problems,
      rec,
      pos.finish,
      Codes.dateOrder,
      `finish-date ${inMessage(values[pos.finish])} is before start-date ${inMessage(values[pos.start])}`,
      'finish-date',
    );
  }

  // Warnings: the file can still be sent.
  if (good[GOOD.card] && !luhnValid(values[pos.card])) {
    cell(problems, rec, pos.card, Codes.cardLuhn, 'the card number fails the Luhn check: probably mistyped', 'credit-card-number');
  }
  if (good[GOOD.expMonth] && good[GOOD.expYear]) {
    const y = Number(values[pos.expYear]);
    const m = Number(values[pos.expMonth]);
    if (y < today.year || (y === today.year && m < today.month)) {
      cell(
        problems,
        rec,
        pos.expMonth,
        Codes.cardExpired,
        `the card expired (${inMessage(values[pos.expMonth])}/${inMessage(values[pos.expYear])})`,
        'expire-month',
      );
    }
  }
  if (start < dateKey(today)) {
    cell(problems, rec, pos.start, Codes.startDatePast, `start-date ${inMessage(values[pos.start])} is in the past`, 'start-date');
  }
}
