import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatGatewayDate, parseGatewayDate, type CalendarDate } from '../../src/core/dates';
import {
  computeSchedule,
  formatAmount,
  MAX_CHARGES_PER_CALL,
  scheduleInputFromRow,
  type Charge,
  type ScheduleInput,
} from '../../src/core/schedule/schedule';
import { describeSchedule } from '../../src/core/schedule/describe';
import { saidText } from '../../src/core/output';

const d = (text: string): CalendarDate => {
  const date = parseGatewayDate(text);
  assert.ok(date, `test date ${text}`);
  return date;
};
const TODAY = d('15.06.2027');
const dates = (charges: Charge[]) => charges.map((c) => formatGatewayDate(c.date));
const amounts = (charges: Charge[]) => charges.map((c) => formatAmount(c.amount));
const run = (input: ScheduleInput, limit = 12, fromIndex?: number) => computeSchedule(input, { today: TODAY, limit, fromIndex });
const monthly = (start: string, interval = 1): ScheduleInput => ({ period: 'month', interval, startDate: d(start), amount: '10.00' });

describe('computeSchedule: month', () => {
  it('clamps 31 January to the end of February and returns to the 31st in March', () => {
    assert.deepEqual(dates(run(monthly('31.01.2027'), 4)), ['31.01.2027', '28.02.2027', '31.03.2027', '30.04.2027']);
  });

  it('uses 29 February in a leap year', () => {
    assert.deepEqual(dates(run(monthly('31.01.2028'), 3)), ['31.01.2028', '29.02.2028', '31.03.2028']);
  });

  it('keeps 29 February every 12 months only in leap years (2100 is not one, 2000 and 2104 are)', () => {
    assert.deepEqual(dates(run(monthly('29.02.2028', 12), 5)), ['29.02.2028', '28.02.2029', '28.02.2030', '28.02.2031', '29.02.2032']);
    assert.deepEqual(dates(run(monthly('29.02.2096', 48), 3)), ['29.02.2096', '28.02.2100', '29.02.2104']);
    assert.deepEqual(dates(run(monthly('29.02.1996', 48), 2)), ['29.02.1996', '29.02.2000']);
  });

  it('every 2 months counts from the start date, not from the clamped previous charge', () => {
    assert.deepEqual(dates(run(monthly('31.12.2026', 2), 5)), ['31.12.2026', '28.02.2027', '30.04.2027', '30.06.2027', '31.08.2027']);
    assert.deepEqual(dates(run(monthly('31.01.2027', 2), 7)), [
      '31.01.2027',
      '31.03.2027',
      '31.05.2027',
      '31.07.2027',
      '30.09.2027',
      '30.11.2027',
      '31.01.2028',
    ]);
  });

  it('a day that every month has stays put across the year boundary', () => {
    assert.deepEqual(dates(run(monthly('15.11.2027'), 3)), ['15.11.2027', '15.12.2027', '15.01.2028']);
  });
});

describe('computeSchedule: day and week', () => {
  it('week = every 7 × interval days, across a year boundary', () => {
    const weekly = (interval: number): ScheduleInput => ({ period: 'week', interval, startDate: d('29.12.2026') });
    assert.deepEqual(dates(run(weekly(1), 3)), ['29.12.2026', '05.01.2027', '12.01.2027']);
    assert.deepEqual(dates(run(weekly(2), 3)), ['29.12.2026', '12.01.2027', '26.01.2027']);
  });

  it('day = every interval days, through the end of February in leap and common years', () => {
    const daily = (start: string, interval: number): ScheduleInput => ({ period: 'day', interval, startDate: d(start) });
    assert.deepEqual(dates(run(daily('27.02.2028', 3), 3)), ['27.02.2028', '01.03.2028', '04.03.2028']);
    assert.deepEqual(dates(run(daily('27.02.2027', 3), 3)), ['27.02.2027', '02.03.2027', '05.03.2027']);
    assert.deepEqual(dates(run(daily('31.12.2027', 1), 2)), ['31.12.2027', '01.01.2028']);
  });

  it('indexes start at 0 and count up by one', () => {
    assert.deepEqual(
      run(monthly('01.01.2027'), 4).map((c) => c.index),
      [0, 1, 2, 3],
    );
  });
});

describe('computeSchedule: amounts', () => {
  it('amount-sequence: charge i uses element i, past the end the last element', () => {
    const input: ScheduleInput = { period: 'day', interval: 1, startDate: d('01.03.2027'), amountSequence: ['10.00', '20.00', '30.00'] };
    assert.deepEqual(amounts(run(input, 6)), ['10.00', '20.00', '30.00', '30.00', '30.00', '30.00']);
  });

  it('amount-from/amount-to: every charge is the range', () => {
    const input: ScheduleInput = { period: 'day', interval: 1, startDate: d('01.03.2027'), amountFrom: '5.00', amountTo: '20.00' };
    const charges = run(input, 2);
    assert.deepEqual(
      charges.map((c) => c.amount),
      [
        { kind: 'range', from: '5.00', to: '20.00' },
        { kind: 'range', from: '5.00', to: '20.00' },
      ],
    );
    assert.equal(formatAmount(charges[0].amount), '5.00–20.00');
  });

  it('no amount mode gives kind none; a lone amount-from is no mode', () => {
    assert.deepEqual(run({ startDate: d('01.03.2027'), amountFrom: '5' })[0].amount, { kind: 'none' });
    assert.equal(formatAmount({ kind: 'none' }), '—');
  });

  it('mixed modes (an amount-mode error) take amount, then the range, then the sequence', () => {
    assert.deepEqual(run({ amount: '1', amountFrom: '2', amountTo: '3', amountSequence: ['4'] })[0].amount, { kind: 'fixed', value: '1' });
    assert.deepEqual(run({ amountFrom: '2', amountTo: '3', amountSequence: ['4'] })[0].amount, { kind: 'range', from: '2', to: '3' });
  });
});

describe('computeSchedule: when it stops', () => {
  const daily: ScheduleInput = { period: 'day', interval: 1, startDate: d('01.03.2027'), amount: '1' };

  it('max-repeats-number N gives indexes 0 … N-1', () => {
    const charges = run({ ...daily, maxRepeats: 3 });
    assert.deepEqual(
      charges.map((c) => c.index),
      [0, 1, 2],
    );
  });

  it('finish-date is inclusive: a charge on it happens, after it no', () => {
    assert.deepEqual(dates(run({ ...daily, finishDate: d('03.03.2027') })), ['01.03.2027', '02.03.2027', '03.03.2027']);
    assert.deepEqual(dates(run({ ...monthly('31.01.2027'), finishDate: d('28.02.2027') })), ['31.01.2027', '28.02.2027']);
    assert.deepEqual(dates(run({ ...monthly('31.01.2027'), finishDate: d('27.02.2027') })), ['31.01.2027']);
  });

  it('whichever comes first: max-repeats or finish-date', () => {
    assert.equal(run({ ...daily, maxRepeats: 2, finishDate: d('31.12.2027') }).length, 2);
    assert.equal(run({ ...daily, maxRepeats: 10, finishDate: d('03.03.2027') }).length, 3);
  });

  it('finish-date before start-date: no charges', () => {
    assert.deepEqual(run({ ...daily, finishDate: d('28.02.2027') }), []);
    assert.deepEqual(run({ startDate: d('01.03.2027'), finishDate: d('28.02.2027'), amount: '1' }), []);
  });

  it('max-repeats-number 0 or less: no charges', () => {
    assert.deepEqual(run({ ...daily, maxRepeats: 0 }), []);
    assert.deepEqual(run({ ...daily, maxRepeats: -3 }), []);
  });

  it('is always bounded by limit, even with huge max-repeats or far finish dates', () => {
    assert.equal(run(daily, 12).length, 12);
    assert.equal(run({ ...daily, maxRepeats: Number.MAX_SAFE_INTEGER }, 5).length, 5);
    assert.equal(run({ ...daily, finishDate: d('31.12.9999') }, 7).length, 7);
    assert.deepEqual(run(daily, 0), []);
    assert.deepEqual(run(daily, -1), []);
    assert.equal(run(daily, Infinity).length, MAX_CHARGES_PER_CALL);
  });

  it('ends before a date DD.MM.YYYY cannot write (after 31.12.9999)', () => {
    const charges = run({ period: 'month', interval: 1, startDate: d('30.11.9999') });
    assert.deepEqual(dates(charges), ['30.11.9999', '30.12.9999']);
  });

  it('a huge interval does not loop or produce nonsense dates', () => {
    const charges = run({ period: 'day', interval: Number.MAX_SAFE_INTEGER, startDate: d('01.01.2027') });
    assert.deepEqual(dates(charges), ['01.01.2027']);
  });
});

describe('computeSchedule: start, one-offs and resuming', () => {
  it('without start-date the first charge is today', () => {
    const charges = run({ period: 'week', interval: 1, amount: '1' }, 2);
    assert.deepEqual(dates(charges), ['15.06.2027', '22.06.2027']);
  });

  it('a one-off (no period/interval) is a single charge on the start date', () => {
    assert.deepEqual(dates(run({ startDate: d('01.03.2027'), amount: '1', maxRepeats: 5 })), ['01.03.2027']);
    assert.deepEqual(dates(run({ amount: '1' })), ['15.06.2027']);
  });

  it('period without a usable interval (or interval without period) is a one-off', () => {
    assert.equal(run({ period: 'month', startDate: d('01.03.2027') }).length, 1);
    assert.equal(run({ period: 'month', interval: 0, startDate: d('01.03.2027') }).length, 1);
    assert.equal(run({ period: 'month', interval: 1.5, startDate: d('01.03.2027') }).length, 1);
    assert.equal(run({ interval: 2, startDate: d('01.03.2027') }).length, 1);
  });

  it('fromIndex resumes at that index with its date and amount', () => {
    const input: ScheduleInput = { ...monthly('31.01.2027'), amount: undefined, amountSequence: ['1', '2', '3'], maxRepeats: 5 };
    const resumed = computeSchedule(input, { today: TODAY, limit: 2, fromIndex: 1 });
    assert.deepEqual(
      resumed.map((c) => [c.index, formatGatewayDate(c.date), formatAmount(c.amount)]),
      [
        [1, '28.02.2027', '2'],
        [2, '31.03.2027', '3'],
      ],
    );
    assert.deepEqual(
      computeSchedule(input, { today: TODAY, limit: 12, fromIndex: 3 }).map((c) => c.index),
      [3, 4],
    );
    assert.deepEqual(computeSchedule(input, { today: TODAY, limit: 12, fromIndex: 5 }), []);
  });

  it('fromIndex past a one-off gives nothing; resumed and full schedules agree', () => {
    assert.deepEqual(computeSchedule({ amount: '1' }, { today: TODAY, limit: 3, fromIndex: 1 }), []);
    const full = run(monthly('31.01.2027'), 10);
    const tail = computeSchedule(monthly('31.01.2027'), { today: TODAY, limit: 6, fromIndex: 4 });
    assert.deepEqual(tail, full.slice(4));
  });
});

describe('scheduleInputFromRow', () => {
  it('reads every schedule column', () => {
    const input = scheduleInputFromRow({
      period: 'month',
      interval: '2',
      'start-date': '31.01.2027',
      'finish-date': '31.12.2027',
      'max-repeats-number': '5',
      'amount-sequence': '10.00,20.5, 30',
      currency: 'EUR',
    });
    assert.deepEqual(input, {
      period: 'month',
      interval: 2,
      startDate: { year: 2027, month: 1, day: 31 },
      finishDate: { year: 2027, month: 12, day: 31 },
      maxRepeats: 5,
      amountSequence: ['10.00', '20.5', '30'],
    });
  });

  it('ignores invalid values instead of failing (the linter reports them)', () => {
    const input = scheduleInputFromRow({
      period: 'Month',
      interval: '0',
      'start-date': '31.02.2027',
      'finish-date': '2027-12-31',
      'max-repeats-number': '1.5',
      amount: '10,00',
      'amount-from': '0',
      'amount-to': '-1',
      'amount-sequence': '10.00,,20.00',
    });
    assert.deepEqual(input, {});
    assert.deepEqual(scheduleInputFromRow({ interval: 'x', amount: '1.2345' }), {});
    assert.deepEqual(scheduleInputFromRow({ interval: '99999999999999999999' }), {});
  });

  it('empty and missing cells are absent; surrounding spaces are tolerated', () => {
    assert.deepEqual(scheduleInputFromRow({ period: '', amount: ' 12.50 ', interval: ' 3' }), { amount: '12.50', interval: 3 });
  });
});

describe('describeSchedule', () => {
  it('says the rule in words', () => {
    assert.equal(
      saidText(
        describeSchedule({
          period: 'month',
          interval: 2,
          startDate: d('31.01.2027'),
          finishDate: d('31.12.2027'),
          maxRepeats: 5,
          amount: '10.00',
        }),
      ),
      'every 2 months from 31.01.2027 until 31.12.2027, at most 5 charges; amount 10.00',
    );
    assert.equal(
      saidText(describeSchedule({ period: 'week', interval: 1, amountFrom: '1', amountTo: '2' })),
      'every week from today; a random amount 1–2',
    );
    assert.equal(
      saidText(describeSchedule({ period: 'day', amountSequence: ['1', '2'] })),
      'one charge on today; amounts 1, 2 (then the last)',
    );
  });
});

describe('computeSchedule: programmatic nonsense', () => {
  it('an unknown period is a one-off, not an empty schedule', () => {
    const charges = run({ period: 'year' as never, interval: 1, startDate: d('01.03.2027') });
    assert.deepEqual(dates(charges), ['01.03.2027']);
  });
});
