import { dateKey, gatewayDateKeyIn, type CalendarDate } from '../dates';
import type { RowCells } from '../csv/rowCells';
import { Codes, type Code } from './codes';
import { COLUMNS, STATE_COUNTRIES } from './columns';
import { cellPart, inMessage } from './quote';
import { ourWords, said, typed, type Part, type Said } from '../output';
import type { ProblemCollector } from './problems';
import type { Fix } from './types';
import { thousandthsIn } from '../amounts';
import { luhnHashIn } from '../luhn';
import { digitsValue } from './values';
import { callbackPortProblem } from '../callbacks/ports';

// The checks across the cells of one row (amount modes, pairs, dates, card), run by checkRows on cells
// that passed their own checks (the `good` flags, by column ordinal). Five named checks rather than one
// long function, at no measured cost: `paygate lint` of 100,000 rows took 1.01× the wall time and 1.00× the
// CPU of the single function (farm-bench, 15 pairs, medians, 2026-11-26).

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
  row: RowCells,
  index: number,
  code: Code,
  message: Said,
  column: string,
  fixes?: Fix[],
): void {
  problems.add(code, row.bounds[2 * index], row.bounds[2 * index + 1], message, column, fixes);
}

/** Is there a column at header index `i` and is the row's cell there filled? */
const filled = (row: RowCells, i: number): boolean => i >= 0 && !row.isEmpty(i);

/** The start and end of the row in the document: the range of row-wide problems. */
const rowStart = (row: RowCells): number => row.bounds[0];
const rowEnd = (row: RowCells): number => row.bounds[2 * row.count - 1];

/**
 * The cross-field checks of a row whose cells passed or failed their own (`good`). Returns the card cell's
 * reading (checkCard's), which card-data-in-git takes instead of reading the cell again.
 */
export function checkCrossFields(
  problems: ProblemCollector,
  row: RowCells,
  pos: Positions,
  good: Uint8Array,
  isSrc: boolean,
  isDst: boolean,
  srcNeedsState: boolean,
  amountModes: boolean,
  today: CalendarDate,
): number | undefined {
  // Amount modes: not checked when the header has no complete mode: the header's missing-column already
  // says it, and a row is not told about columns the header lacks.
  if (amountModes) checkAmountModes(problems, row, pos, good);
  // period and interval travel together (DST rows were already told to clear both).
  if (!isDst) checkPeriodInterval(problems, row, pos, good);
  checkCallbackAndState(problems, row, pos, good, srcNeedsState);
  const start = good[GOOD.start] ? gatewayDateKeyIn(row.source, row.from(pos.start), row.to(pos.start)) : NaN;
  checkDateOrder(problems, row, pos, good, start);
  // Warnings: the file can still be sent.
  const card = checkCard(problems, row, pos, good, today);
  if (start < dateKey(today)) {
    cell(problems, row, pos.start, Codes.startDatePast, { said: ['start-date ', dateIn(row, pos.start), ' is in the past'] }, 'start-date');
  }
  return card;
}

/** Exactly one amount mode per row, and amount-from not above amount-to. */
function checkAmountModes(problems: ProblemCollector, row: RowCells, pos: Positions, good: Uint8Array): void {
  const fixed = filled(row, pos.amount);
  const from = filled(row, pos.from);
  const to = filled(row, pos.to);
  const sequence = filled(row, pos.sequence);
  const modes = Number(fixed) + Number(from || to) + Number(sequence);
  let problem: string | undefined;
  if (modes === 0) problem = 'no amount: fill amount, amount-from with amount-to, or amount-sequence';
  else if (modes > 1) problem = 'more than one amount mode: use only one of amount, amount-from with amount-to, amount-sequence';
  else if (from !== to) problem = from ? 'amount-from without amount-to' : 'amount-to without amount-from';
  if (problem) problems.add(Codes.amountMode, rowStart(row), rowEnd(row), ourWords(problem), null);
  else if (good[GOOD.from] && good[GOOD.to] && thousandths(row, pos.from) > thousandths(row, pos.to)) {
    const message = said`amount-from ${amountIn(row, pos.from)} is greater than amount-to ${amountIn(row, pos.to)}`;
    cell(problems, row, pos.from, Codes.amountRange, message, 'amount-from');
  }
}

function checkPeriodInterval(problems: ProblemCollector, row: RowCells, pos: Positions, good: Uint8Array): void {
  const period = filled(row, pos.period);
  const interval = filled(row, pos.interval);
  if (period && !interval && good[GOOD.period])
    cell(problems, row, pos.period, Codes.periodInterval, said`period without interval: add an interval (e.g. 1)`, 'period');
  if (interval && !period && good[GOOD.interval])
    cell(problems, row, pos.interval, Codes.periodInterval, said`interval without period: add a period (day, week or month)`, 'interval');
}

/** A callback address on a port the gateway never calls (core/callbacks/ports.ts). Only a filled, well-formed address is read. */
function checkCallbackPort(problems: ProblemCollector, row: RowCells, i: number, good: boolean, column: string): void {
  if (!good || !filled(row, i)) return;
  const why = callbackPortProblem(row.value(i));
  if (why !== undefined) cell(problems, row, i, Codes.callbackPort, why, column);
}

/** One callback address at most, and the state an SRC row needs in some countries. */
function checkCallbackAndState(problems: ProblemCollector, row: RowCells, pos: Positions, good: Uint8Array, srcNeedsState: boolean): void {
  if (good[GOOD.notify] && good[GOOD.callback]) {
    const message = said`send either notify_url or server_callback_url, not both`;
    cell(problems, row, pos.callback, Codes.callbackExclusive, message, 'server_callback_url');
  }
  checkCallbackPort(problems, row, pos.notify, good[GOOD.notify] === 1, 'notify_url');
  checkCallbackPort(problems, row, pos.callback, good[GOOD.callback] === 1, 'server_callback_url');
  if (srcNeedsState && good[GOOD.country] && pos.state >= 0 && row.isEmpty(pos.state)) {
    const message = said`state is required for SRC rows when country is ${cellPart(row.value(pos.country))}`;
    cell(problems, row, pos.state, Codes.stateRequired, message, 'state');
  }
}

/** finish-date not before start-date (`start`: its date key, NaN when it did not pass its checks). */
function checkDateOrder(problems: ProblemCollector, row: RowCells, pos: Positions, good: Uint8Array, start: number): void {
  const finish = good[GOOD.finish] ? gatewayDateKeyIn(row.source, row.from(pos.finish), row.to(pos.finish)) : NaN;
  if (finish < start) {
    const message = said`finish-date ${dateIn(row, pos.finish)} is before start-date ${dateIn(row, pos.start)}`;
    cell(problems, row, pos.finish, Codes.dateOrder, message, 'finish-date');
  }
}

/**
 * The card's warnings: a number failing the Luhn check, an expiry in the past. Returns the card cell's
 * luhnHashIn when it passed its own checks (12–19 digits; NaN: it fails the Luhn check), else undefined.
 */
function checkCard(problems: ProblemCollector, row: RowCells, pos: Positions, good: Uint8Array, today: CalendarDate): number | undefined {
  const card = good[GOOD.card] ? luhnHashIn(row.source, row.from(pos.card), row.to(pos.card)) : undefined;
  if (card !== undefined && Number.isNaN(card)) {
    cell(problems, row, pos.card, Codes.cardLuhn, said`the card number fails the Luhn check: probably mistyped`, 'credit-card-number');
  }
  if (!good[GOOD.expMonth] || !good[GOOD.expYear]) return card;
  // Both passed their checks: 4 and 2 digits.
  const y = digitsValue(row.source, row.from(pos.expYear), row.to(pos.expYear));
  const m = digitsValue(row.source, row.from(pos.expMonth), row.to(pos.expMonth));
  if (y < today.year || (y === today.year && m < today.month)) {
    const message = said`the card expired (${countIn(row, pos.expMonth)}/${countIn(row, pos.expYear)})`;
    cell(problems, row, pos.expMonth, Codes.cardExpired, message, 'expire-month');
  }
  return card;
}

/** A decimal cell that passed its checks, in thousandths. */
const thousandths = (row: RowCells, i: number): number => thousandthsIn(row.source, row.from(i), row.to(i));

// Cell i as it appears in a message: a cell that passed its checks, masked and cut alone (quote.ts), then
// checked by its type where it is laid out (a date, an amount, a month or year as a count).
const dateIn = (row: RowCells, i: number): Part => typed.date(inMessage(row.value(i)));
const amountIn = (row: RowCells, i: number): Part => typed.amount(inMessage(row.value(i)));
const countIn = (row: RowCells, i: number): Part => typed.count(inMessage(row.value(i)));

const STATE_COUNTRY_LIST = [...STATE_COUNTRIES];

/** Is cell i a country whose SRC rows need a state? Read in place: this runs for every SRC row. */
export function isStateCountry(row: RowCells, i: number): boolean {
  for (const country of STATE_COUNTRY_LIST) if (row.is(i, country)) return true;
  return false;
}
