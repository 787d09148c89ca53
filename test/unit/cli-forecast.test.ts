import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runForecast } from '../fixtures/cli/commands';
import { bar } from '../../src/cli/format/bar';
import type { Forecast } from '../../src/core/forecast';
import { parseCsv } from '../../src/core/csv/parse';
import { captured } from '../fixtures/cli/context';

const BATCH = [
  'client-orderid;rp_card_type;credit-card-number;currency;amount;amount-from;amount-to;period;interval;start-date;max-repeats-number',
  'a;SRC;4111111111111111;EUR;10.00;;;month;1;31.01.2027;',
  'b;SRC;4111111111111111;USD;;5;20;week;1;01.02.2027;10',
  '"c, quoted";SRC;4111111111111111;EUR;3;;;month;1;2027-01-01;',
  'd;DST;4111111111111111;EUR;2.5;;;;;15.03.2027;',
].join('\r\n');

async function run(args: string[], columns?: number) {
  const cwd = mkdtempSync(join(tmpdir(), 'paygate-forecast-'));
  try {
    writeFileSync(join(cwd, 'batch.rpcsv'), BATCH);
    const { ctx, out, err } = captured({ cwd, columns });
    const code = await runForecast(args, ctx);
    return { code, out: out(), err: err() };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('paygate forecast', () => {
  it('--format json has the issue shape: by, window, currencies of buckets, payouts apart, counted and skipped rows', async () => {
    const r = await run(['batch.rpcsv', '--today', '01.01.2027', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const f = JSON.parse(r.out) as Forecast;
    assert.deepEqual(Object.keys(f), ['by', 'window', 'currencies', 'payouts', 'rows']);
    assert.equal(f.by, 'month');
    assert.deepEqual(f.window, { from: '2027-01-01', to: '2027-12-31' });
    assert.deepEqual(Object.keys(f.currencies), ['EUR', 'USD']);
    // The DST row pays 2.50 out in March: a payout of its own, not a charge of EUR's.
    assert.deepEqual(f.currencies.EUR[2], { period: '2027-03', charges: 1, min: '10.00', max: '10.00' });
    assert.deepEqual(f.payouts, { EUR: [{ period: '2027-03', payouts: 1, min: '2.50', max: '2.50' }] });
    assert.deepEqual(f.currencies.USD, [
      { period: '2027-02', charges: 4, min: '20.00', max: '80.00' },
      { period: '2027-03', charges: 5, min: '25.00', max: '100.00' },
      { period: '2027-04', charges: 1, min: '5.00', max: '20.00' },
    ]);
    assert.deepEqual(f.rows, {
      counted: 3,
      payouts: 1,
      skipped: [{ line: 4, row: 3, reason: 'start-date "2027-01-01" is not a real date written DD.MM.YYYY' }],
    });
  });

  it('--from, --to and --by week pick the window and the ISO week buckets', async () => {
    const r = await run(['batch.rpcsv', '--from', '01.02.2027', '--to', '14.02.2027', '--by', 'week', '--format', 'json']);
    const f = JSON.parse(r.out) as Forecast;
    assert.deepEqual(f.window, { from: '2027-02-01', to: '2027-02-14' });
    assert.deepEqual(
      f.currencies.USD.map((b) => b.period),
      ['2027-W05', '2027-W06'],
    );
    assert.equal(f.currencies.EUR, undefined);
  });

  it('--format csv is one line per bucket, currency and kind (charges, then payouts), read back by the CSV reader', async () => {
    const r = await run(['batch.rpcsv', '--today', '01.01.2027', '--format', 'csv']);
    const csv = parseCsv(r.out, ',');
    const rows = Array.from({ length: csv.recordCount }, (_, i) => csv.record(i).values).filter((v) => v.length > 1);
    assert.deepEqual(rows[0], ['period', 'currency', 'kind', 'count', 'min', 'max']);
    assert.equal(rows.length, 1 + 12 + 3 + 1);
    assert.deepEqual(rows[13], ['2027-02', 'USD', 'charges', '4', '20.00', '80.00']);
    assert.deepEqual(rows[16], ['2027-03', 'EUR', 'payouts', '1', '2.50', '2.50']);
    assert.ok(r.out.endsWith('\r\n'));
  });

  it('text: a bar per bucket fitted to the terminal width, totals per currency and of the payouts apart, skipped rows named', async () => {
    for (const columns of [60, 120]) {
      const r = await run(['batch.rpcsv', '--today', '01.01.2027'], columns);
      const lines = r.out.split('\n');
      const bars = lines.filter((l) => /^\d{4}-\d{2} /.test(l));
      assert.equal(bars.length, 16);
      for (const l of bars) assert.ok([...l].length <= columns, `${[...l].length} > ${columns}: ${l}`);
      assert.ok([...bars[0]].length >= columns - 2, 'the widest bar fills the line');
      assert.ok(lines.includes('total EUR: 12 charges, 120.00'));
      assert.ok(lines.includes('EUR payouts'));
      assert.ok(lines.includes('total EUR payouts: 1 payout, 2.50'));
      assert.ok(lines.includes('total USD: 10 charges, 50.00..200.00'));
      assert.ok(lines.includes('  line 4: start-date "2027-01-01" is not a real date written DD.MM.YYYY'));
    }
  });

  it('bars grow in eighths of a cell and a non-zero amount is never an empty bar', () => {
    assert.equal(bar(1, 4), '████');
    assert.equal(bar(0.5, 3), '█▌');
    assert.equal(bar(0.0001, 10), '▏');
    assert.equal(bar(0, 10), '');
  });

  it('usage errors: a bad date, --to before --from, an endless window, an unknown --by', async () => {
    assert.match((await run(['batch.rpcsv', '--from', '2027-01-01'])).err, /--from must be a date DD\.MM\.YYYY/);
    assert.match((await run(['batch.rpcsv', '--from', '02.01.2027', '--to', '01.01.2027'])).err, /--to is before --from/);
    assert.match((await run(['batch.rpcsv', '--from', '01.01.2027', '--to', '31.12.9999'])).err, /longer than 100 years/);
    const by = await run(['batch.rpcsv', '--by', 'year']);
    assert.equal(by.code, 2);
    assert.match(by.err, /--by must be day, week or month, not "year"/);
    assert.match((await run(['missing.rpcsv'])).err, /missing\.rpcsv: cannot read: no such file/);
  });
});
