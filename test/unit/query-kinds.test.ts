// Issue 43, item 6: a report's totals added a DST payout (120.00) into the sales. Where the report says
// which row is which (Transaction_type), totals are per kind of money: charges apart from payouts, refunds
// and chargebacks, in the CLI's text, JSON and CSV alike (the results page runs the same core:
// test/webview/query.test.ts). The kinds are the gateway family's transaction types (its callbacks' `type`:
// sale, reversal, chargeback, spec/gateway-api.md; its PHP library's Return query and Sale, Return and
// Chargeback callbacks, payneteasy/php-library-payneteasy-api) and the local gateway's "Sale"/"Payout".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQueryCommand } from '../fixtures/cli/commands';
import { captured } from '../fixtures/cli/context';
import { moneyKind } from '../../src/core/query/kinds';
import type { QueryJson } from '../../src/core/query/result';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';

const csvLine = (values: readonly string[]) => `${values.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')}\r\n`;

// The local gateway's report after examples/valid.rpcsv ran a month: two sales and the DST row's payout.
const REPORT =
  csvLine(REPORT_COLUMNS) +
  [
    ['Demo', '1', 'GYM-2027-0001', '2027-01-05 10:00:00', '29.900', 'EUR', 'Sale approved', 'Gym', '31.01.2027'],
    ['Demo', '2', 'MAG-2027-0002', '2027-01-05 10:00:00', '12.500', 'EUR', 'Sale approved', 'Magazine', '31.01.2027'],
    ['Demo', '3', 'PAY-2027-0004', '2027-01-05 10:00:00', '120.000', 'EUR', 'Payout approved', 'Payout', '31.01.2027'],
    ['Demo', '4', 'GYM-2027-0005', '2027-01-06 10:00:00', '9.990', 'USD', 'Sale declined', 'Gym', '31.01.2027'],
  ]
    .map(csvLine)
    .join('');

async function query(text: string, args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'paygate-kinds-'));
  try {
    writeFileSync(join(cwd, 'r.csv'), text);
    const { ctx, out, err } = captured({ cwd, columns: 120 });
    const code = await runQueryCommand(['r.csv', ...args], ctx);
    return { code, out: out(), err: err() };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('a report says which row is which: totals keep payouts apart from charges', () => {
  it('reads the kind of money from the transaction type, an unknown type as other (never as a charge)', () => {
    const cases: [string, string][] = [
      ['Sale approved', 'charges'],
      ['sale', 'charges'],
      ['SALE_DECLINED', 'charges'],
      ['Capture', 'charges'],
      ['Payout approved', 'payouts'],
      ['pay-out', 'payouts'],
      ['Return approved', 'refunds'],
      ['reversal', 'refunds'],
      ['Refund', 'refunds'],
      ['Chargeback', 'chargebacks'],
      ['charge-back', 'chargebacks'],
      ['declined', 'other'],
      ['', 'other'],
      ['Preauth approved', 'other'],
    ];
    assert.deepEqual(
      cases.map(([t]) => [t, moneyKind(t)]),
      cases,
    );
  });

  it('JSON: the total per currency is per kind, the payout never in the sales; groups split by kind', async () => {
    const r = await query(REPORT, ['--by', 'month', '--sum', 'Amount', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(r.out) as QueryJson;
    assert.deepEqual(json.total, {
      count: 4,
      sum: { Amount: { EUR: { charges: '42.400', payouts: '120.000' }, USD: { charges: '9.990' } } },
    });
    assert.deepEqual(
      json.groups.map((g) => [g.key, g.sum]),
      [
        [{ Created_date: '2027-01', Currency: 'EUR', Transaction_type: 'charges' }, { Amount: '42.400' }],
        [{ Created_date: '2027-01', Currency: 'EUR', Transaction_type: 'payouts' }, { Amount: '120.000' }],
        [{ Created_date: '2027-01', Currency: 'USD', Transaction_type: 'charges' }, { Amount: '9.990' }],
      ],
    );
  });

  it('text and CSV: a total line per currency and kind', async () => {
    const text = await query(REPORT, ['--sum', 'Amount']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /^total EUR charges: 2 rows, sum Amount 42\.400$/m);
    assert.match(text.out, /^total EUR payouts: 1 row, sum Amount 120\.000$/m);
    assert.match(text.out, /^total USD charges: 1 row, sum Amount 9\.990$/m);
    assert.doesNotMatch(text.out, /162\.400/, 'the sales and the payout are never added');
    assert.match(text.out, /nor charges with payouts or refunds/);
    const csv = await query(REPORT, ['--sum', 'Amount', '--format', 'csv']);
    assert.equal(
      csv.out,
      [
        'kind,Currency,Transaction_type,sum Amount',
        'group,EUR,charges,42.400',
        'group,EUR,payouts,120.000',
        'group,USD,charges,9.990',
        'total,EUR,charges,42.400',
        'total,EUR,payouts,120.000',
        'total,USD,charges,9.990',
        '',
      ].join('\r\n'),
    );
  });

  it('grouped by the type itself, the groups are the types and the totals still per kind', async () => {
    const r = await query(REPORT, ['--group-by', 'Transaction_type', '--sum', 'Amount', '--currency', 'none', '--format', 'json']);
    const json = JSON.parse(r.out) as QueryJson;
    assert.deepEqual(
      json.groups.map((g) => g.key),
      [{ Transaction_type: 'Payout approved' }, { Transaction_type: 'Sale approved' }, { Transaction_type: 'Sale declined' }],
    );
    assert.deepEqual(json.total.sum, { Amount: { charges: '52.390', payouts: '120.000' } });
  });

  it('a report without a type column totals per currency as before', async () => {
    const columns = REPORT_COLUMNS.filter((c) => c !== 'Transaction_type');
    const text = csvLine(columns) + csvLine(['Demo', '1', 'A', '2027-01-05 10:00:00', '29.900', 'EUR', 'Gym', '31.01.2027']);
    const r = await query(text, ['--sum', 'Amount', '--format', 'json']);
    assert.deepEqual((JSON.parse(r.out) as QueryJson).total, { count: 1, sum: { Amount: { EUR: '29.900' } } });
  });
});
