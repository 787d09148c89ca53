import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { parseGatewayDate } from '../../src/core/dates';
import { reconcileText, type BatchRowInput, type Reconciliation } from '../../src/core/reconcile';
import { saidText } from '../../src/core/output';

/* eslint-disable no-restricted-syntax -- each test report is a handful of lines: bounded spreads */
// Every status of docs/reconcile.md from a small batch and a report written as the local gateway writes it.

const today = parseGatewayDate('01.06.2027')!;
const HEADER =
  '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"';
const line = (tx: number, order: string, date: string, amount: string, type = 'Sale approved', currency = 'EUR') =>
  `"Demo","${tx}","${order}","${date} 10:00:00","${amount}","${currency}","${type}","d","01.04.2027"`;
const report = (...lines: string[]) => [HEADER, ...lines].join('\r\n') + '\r\n';

function row(order: string, extra: Record<string, string> = {}, lineNo = 2): BatchRowInput {
  return {
    file: 'batch.csv',
    line: lineNo,
    values: {
      'client-orderid': order,
      currency: 'EUR',
      amount: '10.00',
      'start-date': '01.01.2027',
      period: 'month',
      interval: '1',
      ...extra,
    },
  };
}

function run(rows: BatchRowInput[], text: string, more: Partial<Parameters<typeof reconcileText>[2]> = {}): Reconciliation {
  const r = reconcileText(rows, text, { today, ...more });
  assert.ok(!('error' in r), 'error' in r ? r.error : '');
  return r as Reconciliation;
}

// Monthly from 01.01.2027 to the report date 01.04.2027: four charges due (Jan, Feb, Mar, Apr).
const fourOk = (order: string, amount = '10.000') =>
  ['2027-01-01', '2027-02-01', '2027-03-01', '2027-04-01'].map((d, i) => line(100 + i, order, d, amount));

describe('reconciliation statuses', () => {
  it('ok: every due charge approved at its amount; the window ends at Date_of_report', () => {
    const r = run([row('A')], report(...fourOk('A')));
    assert.equal(r.rows[0].status, 'ok');
    assert.deepEqual(r.window, { from: '01.01.2027', to: '01.04.2027' });
    assert.equal(r.rows[0].due, 4);
    assert.deepEqual(
      r.rows[0].charges.map((c) => c.line),
      [2, 3, 4, 5],
    );
    assert.deepEqual(r.statusSource, { from: 'transaction-type', column: 'Transaction_type' });
  });
  it('missing: fewer charges than due', () => {
    const r = run([row('A')], report(...fourOk('A').slice(0, 3)));
    assert.equal(r.rows[0].status, 'missing');
    assert.equal(r.rows[0].charged, 3);
  });
  it('extra: more charges than due (a batch sent twice)', () => {
    const r = run([row('A')], report(...fourOk('A'), line(200, 'A', '2027-04-01', '10.00')));
    assert.equal(r.rows[0].status, 'extra');
  });
  it('amount-mismatch: a charge not at the scheduled amount; sequences and ranges', () => {
    assert.equal(run([row('A')], report(...fourOk('A', '10.010'))).rows[0].status, 'amount-mismatch');
    const seq = row('S', { amount: '', 'amount-sequence': '5.00,7.00' });
    const seqLines = (third: string) => [
      line(1, 'S', '2027-01-01', '5'),
      line(2, 'S', '2027-02-01', '7.0'),
      line(3, 'S', '2027-03-01', third),
    ];
    assert.equal(run([seq], report(...seqLines('7.000')), { asOf: parseGatewayDate('01.03.2027') }).rows[0].status, 'ok');
    assert.equal(run([seq], report(...seqLines('5.00')), { asOf: parseGatewayDate('01.03.2027') }).rows[0].status, 'amount-mismatch');
    const range = row('R', { amount: '', 'amount-from': '5', 'amount-to': '9' });
    const one = (a: string) => run([range], report(line(1, 'R', '2027-01-01', a)), { asOf: parseGatewayDate('15.01.2027') }).rows[0].status;
    assert.equal(one('9.000'), 'ok');
    assert.equal(one('9.001'), 'amount-mismatch');
  });
  it('amount-unreadable: a batch or report amount the one amount rule cannot read is never ok (issue 28)', () => {
    const status = (rows: BatchRowInput[], text: string) => run(rows, text).rows[0];
    // Report amounts that were once read as something: a thousands separator, hex, an exponent, nothing.
    for (const bad of ['1,000', '0x10', '1e1', '', '10,00', '1 000']) {
      const lines = fourOk('A');
      lines[1] = line(101, 'A', '2027-02-01', bad);
      const r = status([row('A')], report(...lines));
      assert.equal(r.status, 'amount-unreadable', bad);
      assert.match(saidText(r.reason), /report line 3 has the amount/);
    }
    // A batch row with no amount at all, or one that is no decimal: whatever the report says.
    const batchAmounts: Record<string, string>[] = [
      { amount: '' },
      { amount: '0x10' },
      { amount: '1,000.00' },
      { amount: '', 'amount-from': '5', 'amount-to': 'x' },
    ];
    for (const values of batchAmounts) {
      for (const charged of ['-0', '10.00', '0x10']) {
        const r = status([row('A', values)], report(...fourOk('A', charged)));
        assert.equal(r.status, 'amount-unreadable', `${JSON.stringify(values)} charged ${charged}`);
      }
    }
    // -0 is read (zero): compared, it is a mismatch, not unreadable.
    assert.equal(status([row('A')], report(...fourOk('A', '-0'))).status, 'amount-mismatch');
    // A double charge is still told first; nothing due and nothing charged is still not-due.
    assert.equal(status([row('A', { amount: '' })], report(...fourOk('A'), line(9, 'A', '2027-04-01', '1'))).status, 'extra');
    assert.equal(status([row('L', { amount: '', 'start-date': '01.05.2027' })], report(...fourOk('Z'))).status, 'not-due');
  });
  it('an order id that is a card number matches its masked form in a report (the local gateway keeps it so)', () => {
    const r = run([row('4111111111111111')], report(...fourOk('411111******1111')));
    assert.equal(r.rows[0].status, 'ok');
    assert.equal(r.unmatched.length, 0);
  });
  it('currency-mismatch', () => {
    const lines = fourOk('A');
    lines[1] = line(101, 'A', '2027-02-01', '10.00', 'Sale approved', 'USD');
    assert.equal(run([row('A')], report(...lines)).rows[0].status, 'currency-mismatch');
  });
  it('declined: a due charge declined still counts as an attempt', () => {
    const lines = fourOk('A');
    lines[2] = line(102, 'A', '2027-03-01', '10.00', 'Sale declined');
    const r = run([row('A')], report(...lines));
    assert.equal(r.rows[0].status, 'declined');
    assert.equal(r.rows[0].declined, 1);
    assert.equal(r.rows[0].charged, 4);
  });
  it('not-due: nothing due in the window', () => {
    const r = run([row('A'), row('L', { 'start-date': '01.05.2027' }, 3)], report(...fourOk('A')));
    assert.deepEqual(
      r.rows.map((x) => x.status),
      ['ok', 'not-due'],
    );
  });
  it('the most serious finding wins: extra over amount-mismatch over declined', () => {
    const lines = [...fourOk('A', '11.00'), line(9, 'A', '2027-04-01', '10', 'Sale declined')];
    assert.equal(run([row('A')], report(...lines)).rows[0].status, 'extra');
    assert.equal(
      run([row('A')], report(...fourOk('A', '11.00').slice(0, 3), line(9, 'A', '2027-04-01', '10', 'declined'))).rows[0].status,
      'amount-mismatch',
    );
  });
  it('unmatched report rows are listed with their line; the summary counts every status', () => {
    const r = run([row('A')], report(...fourOk('A'), line(300, 'Z', '2027-02-02', '1.00')));
    assert.deepEqual(
      r.unmatched.map((u) => [u.line, u.clientOrderId]),
      [[6, 'Z']],
    );
    assert.equal(r.summary.ok, 1);
    assert.equal(r.summary.unmatched, 1);
    assert.equal(r.summary.missing, 0);
  });
  it('status from a Status column first; without any status column every row counts as approved, and says so', () => {
    const withStatus =
      'Merchant_OID,Amount,Currency,Created_date,Status,Transaction_type\r\nA,10,EUR,01.01.2027,DECLINED,Sale approved\r\n';
    const r = run([row('A')], withStatus, { asOf: parseGatewayDate('15.01.2027') });
    assert.equal(r.rows[0].status, 'declined');
    assert.deepEqual(r.statusSource, { from: 'column', column: 'Status' });
    const none = run([row('A')], 'Merchant_OID,Amount,Currency,Created_date\r\nA,10,EUR,01.01.2027\r\n', {
      asOf: parseGatewayDate('15.01.2027'),
    });
    assert.equal(none.rows[0].status, 'ok');
    assert.deepEqual(none.statusSource, { from: 'assumed-approved' });
  });
  it('column overrides; a report lacking a column is an error naming it', () => {
    const text = 'order,sum,cur,when\r\nA,10,EUR,01.01.2027\r\n';
    const columns = { order: 'order', amount: 'sum', currency: 'cur', date: 'when' };
    assert.equal(run([row('A')], text, { asOf: parseGatewayDate('15.01.2027'), columns }).rows[0].status, 'ok');
    // The way to name a column is the face's (the CLI's --column): only a face that gives it is quoted.
    const bad = reconcileText([row('A')], text, { today, columnHint: (role) => `set it with --column ${role}=NAME` });
    assert.ok('error' in bad && /order column "Merchant_OID"/.test(bad.error) && /--column order=NAME/.test(bad.error));
    const plain = reconcileText([row('A')], text, { today });
    assert.ok('error' in plain && /order column "Merchant_OID"/.test(plain.error) && !/--/.test(plain.error));
  });
  it('--from and --as-of narrow the window; lines outside it are not counted', () => {
    const r = run([row('A')], report(...fourOk('A')), { from: parseGatewayDate('01.02.2027'), asOf: parseGatewayDate('01.03.2027') });
    assert.deepEqual(r.window, { from: '01.02.2027', to: '01.03.2027' });
    assert.equal(r.rows[0].status, 'ok');
    assert.equal(r.rows[0].due, 2);
  });
  it('one order id in two batch rows: lines shared out in batch order, the surplus on the last', () => {
    const twice = [row('A'), { ...row('A'), file: 'again.csv' }];
    const r = run(twice, report(...fourOk('A'), ...fourOk('A'), line(9, 'A', '2027-04-01', '10')));
    assert.deepEqual(
      r.rows.map((x) => [x.file, x.status]),
      [
        ['again.csv', 'extra'],
        ['batch.csv', 'ok'],
      ],
    );
  });
});
