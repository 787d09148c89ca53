import { compareDates, parseGatewayDate, type CalendarDate } from '../dates';
import { maskCardNumber } from '../mask';
import type { BatchRow } from './batch';
import { Codes } from './codes';
import { COLUMNS, STATE_COUNTRIES, type ColumnSpec } from './columns';
import { replaceCellFix } from './fixes';
import { hasCompleteAmountMode, type Reporter } from './lint';
import { EXPECTED, exceedsLength, isValid, luhnValid, suggestValue } from './values';

// Row checks. Per cell, in the rule book's precedence: required-value, then dst-unsupported, then
// max-length alone, then invalid-value; cross-field checks only look at cells that passed. Rows with
// csv-syntax or field-count are skipped (their cells cannot be trusted).

interface PlannedColumn {
  index: number;
  spec: ColumnSpec;
}

const SPECS = new Map(COLUMNS.map((c) => [c.name, c]));

/** A value as it may appear in a message: card numbers masked, hidden columns not at all. */
function shown(spec: ColumnSpec, v: string): string {
  if (spec.sensitive === 'hidden') return '';
  const text = spec.sensitive === 'card' ? maskCardNumber(v) : v.length > 40 ? `${v.slice(0, 37)}...` : v;
  return ` (got "${text}")`;
}

export function checkRows(report: Reporter, today: CalendarDate): void {
  const { batch } = report;
  const plan: PlannedColumn[] = [];
  batch.columnIndex.forEach((index, name) => plan.push({ index, spec: SPECS.get(name)! }));
  plan.sort((a, b) => a.index - b.index);
  const col = (name: string) => batch.columnIndex.get(name);
  const amountModes = hasCompleteAmountMode(batch);
  const seenOrderIds = new Map<string, number>();
  const iOrderId = col('client-orderid');

  for (const row of batch.rows) {
    if (!row.trusted) continue;
    const rec = row.record;
    const values = rec.values;
    const type = row.value('rp_card_type');
    const isSrc = type === 'SRC';
    const isDst = type === 'DST';
    /** Columns whose value passed its own checks, for the cross-field checks. */
    const good = new Set<string>();

    for (const { index, spec } of plan) {
      const v = values[index];
      const at = (code: (typeof Codes)[keyof typeof Codes], message: string, fixes = [] as ReturnType<typeof replaceCellFix>[]) =>
        report.add(code, rec.fieldStart(index), rec.fieldEnd(index), message, spec.name, fixes);
      if (v === '') {
        if (spec.necessity === 'required') at(Codes.requiredValue, `${spec.name} is required`);
        else if (spec.necessity === 'required-src' && isSrc) at(Codes.requiredValue, `${spec.name} is required for SRC rows`);
        continue;
      }
      if (isDst && !spec.dst) {
        at(Codes.dstUnsupported, `${spec.name} is not supported for DST rows: leave it empty`, [
          replaceCellFix(batch, rec, index, '', `Clear ${spec.name}`, false),
        ]);
        continue;
      }
      if (spec.maxLength !== null) {
        const tooLong = spec.kind === 'decimal-list' ? v.split(',').some((e) => exceedsLength(e, spec.maxLength!)) : exceedsLength(v, spec.maxLength);
        if (tooLong) {
          const what = spec.kind === 'decimal-list' ? 'an element longer than' : 'longer than';
          at(Codes.maxLength, `${spec.name} is ${what} ${spec.maxLength} characters`);
          continue;
        }
      }
      if (!isValid(spec.kind, v)) {
        const better = spec.sensitive ? undefined : suggestValue(spec.kind, v);
        const fixes = better === undefined ? [] : [replaceCellFix(batch, rec, index, better, `Change to ${better}`, true, true)];
        at(Codes.invalidValue, `${spec.name} must be ${EXPECTED[spec.kind]}${shown(spec, v)}`, fixes);
        continue;
      }
      good.add(spec.name);
    }

    checkCrossFields(report, row, good, isSrc, isDst, amountModes, today);

    if (iOrderId !== undefined && good.has('client-orderid')) {
      const id = values[iOrderId];
      const first = seenOrderIds.get(id);
      if (first !== undefined) {
        report.add(Codes.duplicateOrderId, rec.fieldStart(iOrderId), rec.fieldEnd(iOrderId), `client-orderid "${id}" is already used on row ${first}`, 'client-orderid');
      } else {
        seenOrderIds.set(id, row.rowNumber);
      }
    }
  }
}

function checkCrossFields(report: Reporter, row: BatchRow, good: Set<string>, isSrc: boolean, isDst: boolean, amountModes: boolean, today: CalendarDate): void {
  const rec = row.record;
  const idx = report.batch.columnIndex;
  const val = (name: string) => row.value(name) ?? '';
  const filled = (name: string) => val(name) !== '';
  const onCell = (code: (typeof Codes)[keyof typeof Codes], name: string, message: string) => {
    const i = idx.get(name)!;
    report.add(code, rec.fieldStart(i), rec.fieldEnd(i), message, name);
  };

  // Amount modes: exactly one per row. Not checked when the header has no complete mode: the header's
  // missing-column already says it, and a row is not told about columns the header lacks.
  if (amountModes) {
    const fixed = filled('amount');
    const from = filled('amount-from');
    const to = filled('amount-to');
    const sequence = filled('amount-sequence');
    const modes = Number(fixed) + Number(from || to) + Number(sequence);
    let problem: string | undefined;
    if (modes === 0) problem = 'no amount: fill amount, amount-from with amount-to, or amount-sequence';
    else if (modes > 1) problem = 'more than one amount mode: use only one of amount, amount-from with amount-to, amount-sequence';
    else if (from !== to) problem = from ? 'amount-from without amount-to' : 'amount-to without amount-from';
    if (problem) report.add(Codes.amountMode, rec.start, rec.end, problem, null);
    else if (good.has('amount-from') && good.has('amount-to') && Number(val('amount-from')) > Number(val('amount-to'))) {
      onCell(Codes.amountRange, 'amount-from', `amount-from ${val('amount-from')} is greater than amount-to ${val('amount-to')}`);
    }
  }

  // period and interval travel together (DST rows were already told to clear both).
  if (!isDst) {
    const period = filled('period');
    const interval = filled('interval');
    if (period && !interval && good.has('period')) onCell(Codes.periodInterval, 'period', 'period without interval: add an interval (e.g. 1)');
    if (interval && !period && good.has('interval')) onCell(Codes.periodInterval, 'interval', 'interval without period: add a period (day, week or month)');
  }

  if (filled('notify_url') && filled('server_callback_url') && good.has('notify_url') && good.has('server_callback_url')) {
    onCell(Codes.callbackExclusive, 'server_callback_url', 'send either notify_url or server_callback_url, not both');
  }

  if (isSrc && good.has('country') && STATE_COUNTRIES.has(val('country')) && idx.has('state') && !filled('state')) {
    onCell(Codes.stateRequired, 'state', `state is required for SRC rows when country is ${val('country')}`);
  }

  const start = good.has('start-date') ? parseGatewayDate(val('start-date')) : undefined;
  const finish = good.has('finish-date') ? parseGatewayDate(val('finish-date')) : undefined;
  if (start && finish && compareDates(finish, start) < 0) {
    onCell(Codes.dateOrder, 'finish-date', `finish-date ${val('finish-date')} is before start-date ${val('start-date')}`);
  }

  // Warnings: the file can still be sent.
  if (good.has('credit-card-number') && !luhnValid(val('credit-card-number'))) {
    onCell(Codes.cardLuhn, 'credit-card-number', 'the card number fails the Luhn check: probably mistyped');
  }
  if (good.has('expire-month') && good.has('expire-year')) {
    const y = Number(val('expire-year'));
    const m = Number(val('expire-month'));
    if (y < today.year || (y === today.year && m < today.month)) {
      onCell(Codes.cardExpired, 'expire-month', `the card expired (${val('expire-month')}/${val('expire-year')})`);
    }
  }
  if (start && compareDates(start, today) < 0) {
    onCell(Codes.startDatePast, 'start-date', `start-date ${val('start-date')} is in the past`);
  }
}
