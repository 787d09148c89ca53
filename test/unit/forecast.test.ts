import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatGatewayDate, fromDayNumber, parseGatewayDate, toDayNumber, type CalendarDate } from '../../src/core/dates';
import { defaultWindow, forecastBatch, forecastText, rowsInBucket } from '../../src/core/forecast';
import type { ForecastOptions } from '../../src/core/forecast/window';
import { isoWeekOf, periodLabel } from '../../src/core/forecast/periods';
import { readBatch } from '../../src/core/rules/batch';
import { computeSchedule, scheduleInputFromRow } from '../../src/core/schedule/schedule';

const d = (text: string): CalendarDate => {
  const date = parseGatewayDate(text);
  assert.ok(date, `test date ${text}`);
  return date;
};

const HEADER = [
  'client-orderid',
  'rp_card_type',
  'credit-card-number',
  'currency',
  'amount',
  'amount-from',
  'amount-to',
  'amount-sequence',
  'period',
  'interval',
  'start-date',
  'finish-date',
  'max-repeats-number',
];
type Row = Partial<Record<(typeof HEADER)[number], string>>;
let orderId = 0;
const csv = (...rows: Row[]) =>
  [
    HEADER.join(';'),
    ...rows.map((r) =>
      HEADER.map(
        (h) =>
          r[h] ??
          { 'client-orderid': `o${++orderId}`, rp_card_type: 'SRC', 'credit-card-number': '4111111111111111', currency: 'EUR' }[h] ??
          '',
      ).join(';'),
    ),
  ].join('\r\n');

const opts = (from: string, to: string, by: ForecastOptions['by'] = 'day', today = from): ForecastOptions => ({
  by,
  from: d(from),
  to: d(to),
  today: d(today),
});
const periods = (text: string, o: ForecastOptions, currency = 'EUR') =>
  (forecastText(text, o).currencies[currency] ?? []).map((b) => b.period);

describe('forecast: dates into buckets', () => {
  it('a monthly row from the 31st lands on each month end, clamped and back', () => {
    const text = csv({ amount: '10.00', period: 'month', interval: '1', 'start-date': '31.01.2027' });
    assert.deepEqual(periods(text, opts('01.01.2027', '30.04.2027')), ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
  });

  it('a leap year has 29 February, in the day and the ISO week buckets', () => {
    const text = csv({ amount: '10.00', period: 'month', interval: '1', 'start-date': '31.01.2028' });
    assert.deepEqual(periods(text, opts('01.02.2028', '29.02.2028')), ['2028-02-29']);
    assert.deepEqual(periods(text, opts('01.02.2028', '29.02.2028', 'week')), ['2028-W09']);
  });

  it('counts only the charges inside the window, also for a daily row started years before it', () => {
    const text = csv({ amount: '1', period: 'day', interval: '1', 'start-date': '01.01.2017' });
    const f = forecastText(text, opts('01.01.2027', '31.12.2027', 'month'));
    assert.deepEqual(
      f.currencies.EUR.map((b) => b.charges),
      [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31],
    );
    assert.equal(f.currencies.EUR[1].min, '28.00');
  });

  it('max-repeats-number caps the charges and finish-date is inclusive', () => {
    const text = csv(
      { amount: '5', period: 'week', interval: '1', 'start-date': '04.01.2027', 'max-repeats-number': '3' },
      { amount: '7', currency: 'USD', period: 'day', interval: '2', 'start-date': '01.01.2027', 'finish-date': '05.01.2027' },
    );
    const f = forecastText(text, opts('01.01.2027', '31.03.2027'));
    assert.deepEqual(
      f.currencies.EUR.map((b) => b.period),
      ['2027-01-04', '2027-01-11', '2027-01-18'],
    );
    assert.deepEqual(
      f.currencies.USD.map((b) => b.period),
      ['2027-01-01', '2027-01-03', '2027-01-05'],
    );
  });

  it('an amount-sequence past its end keeps charging its last amount', () => {
    const text = csv({ 'amount-sequence': '10,20.5', period: 'month', interval: '1', 'start-date': '01.01.2027' });
    const f = forecastText(text, opts('01.01.2027', '30.04.2027', 'month'));
    assert.deepEqual(
      f.currencies.EUR.map((b) => b.max),
      ['10.00', '20.50', '20.50', '20.50'],
    );
  });

  it('a random range sums amount-from as min and amount-to as max', () => {
    const text = csv(
      { 'amount-from': '5.00', 'amount-to': '20.00', period: 'day', interval: '1', 'start-date': '01.03.2027' },
      { amount: '1.005', period: 'day', interval: '1', 'start-date': '01.03.2027', 'max-repeats-number': '1' },
    );
    const [march] = forecastText(text, opts('01.03.2027', '31.03.2027', 'month')).currencies.EUR;
    assert.deepEqual(march, { period: '2027-03', charges: 32, min: '156.005', max: '621.005' });
  });

  it('a DST row pays out once, as a payout of its own series; a DST row with a period is skipped, named by line and reason', () => {
    const text = csv(
      { rp_card_type: 'DST', amount: '3', 'start-date': '02.01.2027' },
      { rp_card_type: 'DST', amount: '3', period: 'month', interval: '1', 'start-date': '02.01.2027' },
    );
    const f = forecastText(text, opts('01.01.2027', '31.12.2027', 'month'));
    assert.deepEqual(f.payouts.EUR, [{ period: '2027-01', payouts: 1, min: '3.00', max: '3.00' }]);
    assert.deepEqual(f.currencies, {}, 'a payout is never a charge');
    assert.equal(f.rows.counted, 1);
    assert.equal(f.rows.payouts, 1);
    assert.equal(f.rows.skipped.length, 1);
    assert.equal(f.rows.skipped[0].line, 3);
    assert.match(f.rows.skipped[0].reason, /dst-unsupported/);
  });

  it('a row without start-date starts on today', () => {
    const text = csv({ amount: '2', period: 'month', interval: '1' });
    assert.deepEqual(periods(text, opts('01.01.2027', '31.03.2027', 'month', '20.02.2027')), ['2027-02', '2027-03']);
  });
});

describe('forecast: skipped rows, never guessed', () => {
  it('skips a malformed start-date, a missing amount, a bad currency and a broken row, each with its line', () => {
    const text = csv(
      { amount: '1', 'start-date': '2027-01-15' },
      { period: 'day', interval: '1' },
      { amount: '1', currency: 'eur' },
      { amount: '1', 'amount-sequence': '1,2' },
      { 'amount-from': '9', 'amount-to': '1' },
      { amount: '1', 'start-date': '05.01.2027', 'finish-date': '01.01.2027' },
      { amount: '1', 'start-date': '03.01.2027' },
    );
    const broken = `${text}\r\nonly;three;fields`;
    const f = forecastText(broken, opts('01.01.2027', '31.12.2027'));
    assert.deepEqual(
      f.rows.skipped.map((s) => s.line),
      [2, 3, 4, 5, 6, 7, 9],
    );
    const reasons = f.rows.skipped.map((s) => s.reason);
    assert.match(reasons[0], /start-date "2027-01-15"/);
    assert.match(reasons[1], /no amount/);
    assert.match(reasons[2], /currency "eur"/);
    assert.match(reasons[3], /amount-mode/);
    assert.match(reasons[4], /amount-range/);
    assert.match(reasons[5], /date-order/);
    assert.match(reasons[6], /CSV errors/);
    assert.equal(f.rows.counted, 1);
    assert.deepEqual(Object.keys(f.currencies), ['EUR']);
  });
});

describe('forecast: sums are exact', () => {
  it('adds thousands of the largest amounts without losing a unit (beyond 2^53 thousandths a month)', () => {
    const big = Array.from({ length: 100 }, () => ({ amount: '9999999999', period: 'day', interval: '1', 'start-date': '01.01.2027' }));
    const odd = { amount: '999999.999', period: 'day', interval: '1', 'start-date': '01.01.2027' };
    // eslint-disable-next-line no-restricted-syntax -- bounded: 101 rows
    const f = forecastText(csv(...big, odd), opts('01.01.2027', '31.12.2027', 'month'));
    const perDay = 100n * 9999999999000n + 999999999n;
    const thousandthsOf = (s: string) => BigInt(s.replace('.', ''));
    assert.equal(f.currencies.EUR.length, 12);
    assert.equal(thousandthsOf(f.currencies.EUR[0].max), perDay * 31n);
    assert.equal(thousandthsOf(f.currencies.EUR[1].min), perDay * 28n);
    assert.ok(perDay * 31n > BigInt(Number.MAX_SAFE_INTEGER));
  });

  it('matches a count made from the whole schedule, for random rows and windows', () => {
    const date = fc.date({ min: new Date(Date.UTC(2020, 0, 1)), max: new Date(Date.UTC(2030, 11, 31)), noInvalidDate: true });
    const text = (x: Date) => formatGatewayDate({ year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() });
    fc.assert(
      fc.property(
        fc.constantFrom('day', 'week', 'month'),
        fc.integer({ min: 1, max: 5 }),
        date,
        date,
        fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        (period, interval, start, from, max, by) => {
          const row = {
            amount: '2.5',
            period,
            interval: String(interval),
            'start-date': text(start),
            'max-repeats-number': max === undefined ? '' : String(max),
          };
          const o = { ...defaultWindow(d(text(from))), by, today: d(text(from)) };
          const f = forecastText(csv(row), o);
          const all = computeSchedule(scheduleInputFromRow(readBatch(csv(row)).rows[0].values()), { today: o.today, limit: 100_000 });
          const inWindow = all.filter((c) => toDayNumber(c.date) >= toDayNumber(o.from) && toDayNumber(c.date) <= toDayNumber(o.to));
          const buckets = f.currencies.EUR ?? [];
          assert.equal(
            buckets.reduce((s, b) => s + b.charges, 0),
            inWindow.length,
          );
          assert.deepEqual(
            buckets.map((b) => b.period),
            [...new Set(inWindow.map((c) => periodLabel(by, c.date)))],
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('forecast: ISO weeks', () => {
  // An independent reference on UTC Date objects: the Thursday of the date's week decides its year.
  const reference = (x: CalendarDate) => {
    const t = new Date(Date.UTC(x.year, x.month - 1, x.day));
    const weekday = (t.getUTCDay() + 6) % 7;
    t.setUTCDate(t.getUTCDate() - weekday + 3);
    const year = t.getUTCFullYear();
    const week = Math.floor((t.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
    return `${year}-W${String(week).padStart(2, '0')}`;
  };

  it('belongs to the year of its Thursday at year boundaries', () => {
    assert.equal(periodLabel('week', d('31.12.2026')), '2026-W53');
    assert.equal(periodLabel('week', d('03.01.2027')), '2026-W53');
    assert.equal(periodLabel('week', d('04.01.2027')), '2027-W01');
    assert.equal(periodLabel('week', d('30.12.2024')), '2025-W01');
    assert.equal(periodLabel('week', d('01.01.2021')), '2020-W53');
    assert.deepEqual(isoWeekOf(toDayNumber(d('29.12.2025'))), { year: 2026, week: 1 });
  });

  it('agrees with a Date-based reference for any day', () => {
    fc.assert(
      fc.property(fc.integer({ min: toDayNumber(d('01.01.1990')), max: toDayNumber(d('31.12.2100')) }), (day) => {
        const date = fromDayNumber(day);
        assert.equal(periodLabel('week', date), reference(date));
      }),
      { numRuns: 500 },
    );
  });
});

describe('forecast: rows of one bucket', () => {
  it('lists the rows charging in a period with their lines and sums', () => {
    const text = csv(
      { 'client-orderid': 'a', amount: '10', period: 'month', interval: '1', 'start-date': '15.01.2027' },
      { 'client-orderid': 'b', amount: '4', period: 'week', interval: '1', 'start-date': '01.02.2027' },
      { 'client-orderid': 'c', amount: '4', 'start-date': '01.03.2027' },
    );
    const o = opts('01.01.2027', '31.12.2027', 'month');
    const batch = readBatch(text);
    const run = forecastBatch(batch, o);
    const { rows, total } = rowsInBucket(batch, run, '2027-02', 10);
    assert.equal(total, 2);
    assert.deepEqual(rows, [
      { line: 2, row: 1, clientOrderId: 'a', currency: 'EUR', charges: 1, payout: false, min: '10.00', max: '10.00' },
      { line: 3, row: 2, clientOrderId: 'b', currency: 'EUR', charges: 4, payout: false, min: '16.00', max: '16.00' },
    ]);
    assert.equal(rowsInBucket(batch, run, '2027-02', 1).rows.length, 1);
  });

  it("lists a DST row as a payout, beside the period's charges", () => {
    const text = csv(
      { 'client-orderid': 'a', amount: '10', period: 'month', interval: '1', 'start-date': '15.01.2027' },
      { 'client-orderid': 'p', rp_card_type: 'DST', amount: '120.00', 'start-date': '20.01.2027' },
    );
    const batch = readBatch(text);
    const run = forecastBatch(batch, opts('01.01.2027', '31.12.2027', 'month'));
    assert.deepEqual(
      rowsInBucket(batch, run, '2027-01', 10).rows.map((r) => [r.clientOrderId, r.payout, r.charges, r.max]),
      [
        ['a', false, 1, '10.00'],
        ['p', true, 1, '120.00'],
      ],
    );
  });
});

describe('forecast: the example batch', () => {
  it('counts its DST row as a payout of 120.00, never inside the charges (issue 30: "76 charges, 1688.43")', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'examples', 'valid.rpcsv'), 'utf8');
    const f = forecastText(text, {
      ...defaultWindow(parseGatewayDate('01.01.2027')!),
      by: 'month',
      today: parseGatewayDate('01.01.2027')!,
    });
    assert.equal(
      f.currencies.EUR.reduce((s, b) => s + b.charges, 0),
      75,
    );
    assert.equal(
      f.currencies.EUR.reduce((s, b) => s + BigInt(b.min.replace('.', '')), 0n),
      156_843n,
    );
    assert.deepEqual(f.payouts.EUR, [{ period: '2027-01', payouts: 1, min: '120.00', max: '120.00' }]);
    assert.equal(f.rows.payouts, 1);
  });
});
