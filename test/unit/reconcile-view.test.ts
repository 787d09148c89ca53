import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { parseGatewayDate } from '../../src/core/dates';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatReconcileText, reportFileLabel, reportRunLabel } from '../../src/cli/format/reconcile';
import { batchRows, reconcileText, type Reconciliation } from '../../src/core/reconcile';
import { reconciliationView, RECONCILE_COLUMNS } from '../../src/extension/reconcile/view';
import { ourWords } from '../../src/core/output';
import { isHostToPage, isPageToHost, isPersistedState, PROTOCOL_VERSION, RECONCILE_STATUS_COLUMN } from '../../src/shared/resultsProtocol';

// The reconciliation as the results table gets it: the status column first, most serious rows first,
// unmatched report rows last, card-number-like ids masked, and the protocol's guards accepting exactly it.

const pan = '4111111111111111';
const values = (order: string) => ({ 'client-orderid': order, currency: 'EUR', amount: '10', 'start-date': '01.01.2027' });
const text = [
  'Merchant_OID,Amount,Currency,Created_date',
  'B,10,EUR,2027-01-01 00:00:00',
  'B,10,EUR,2027-01-01 00:00:01',
  `${pan},1,EUR,2027-01-01 00:00:00`,
].join('\r\n');
const result = reconcileText(
  [
    { file: '/w/a.rpcsv', line: 2, values: values('A') },
    { file: '/w/a.rpcsv', line: 3, values: values('B') },
  ],
  text,
  { today: parseGatewayDate('01.01.2027')! },
) as Reconciliation;

describe('the reconciliation view', () => {
  const view = reconciliationView(result, ourWords('Reconciliation: r.csv'));
  it('status first, the most serious row first, unmatched last', () => {
    assert.equal(view.columns[0], RECONCILE_STATUS_COLUMN);
    assert.deepEqual(view.columns, RECONCILE_COLUMNS);
    assert.deepEqual(
      view.rows.map((r) => [r[0], r[1]]),
      [
        ['extra', 'a.rpcsv:3'],
        ['missing', 'a.rpcsv:2'],
        ['unmatched', ''],
      ],
    );
    assert.deepEqual(Object.fromEntries(view.summary).extra, 1);
  });
  it('masks a card number used as an order id', () => {
    assert.ok(!JSON.stringify(view).includes(pan));
    assert.equal(view.rows[2][2], '411111******1111');
  });
  it('crosses the protocol: host message, persisted state, reveal and reconcile from the page', () => {
    assert.ok(isHostToPage({ type: 'reconciliation', view }));
    assert.ok(!isHostToPage({ type: 'reconciliation', view: { ...view, summary: [['ok', 'x']] } }));
    assert.ok(isPersistedState({ v: PROTOCOL_VERSION, title: 't', source: { kind: 'inline' }, reconciliation: view }));
    assert.ok(isPageToHost({ type: 'reveal', key: 'a.rpcsv:3' }));
    assert.ok(!isPageToHost({ type: 'reveal', key: 3 }));
    assert.ok(isPageToHost({ type: 'reconcile' }));
  });
});

describe('docs/reconcile.md', () => {
  it("the worked example's output is what paygate reconcile prints for it", () => {
    const doc = readFileSync(join(__dirname, '../../docs/reconcile.md'), 'utf8');
    const report = doc.split('`transactions.csv`, the report of 01.03.2027:\n\n```\n')[1].split('```')[0].replace(/\n/g, '\r\n');
    const shown = doc.split('`paygate reconcile gym.rpcsv --report transactions.csv`')[1].split('```\n')[1].split('```')[0];
    const gym = [
      'client-orderid;period;interval;start-date;max-repeats-number;amount;currency',
      'GYM-1;month;1;01.01.2027;12;29.90;EUR',
      'GYM-2;month;1;01.01.2027;12;29.90;EUR',
      'GYM-3;month;1;15.03.2027;12;29.90;EUR',
    ].join('\r\n');
    const r = reconcileText(batchRows('gym.rpcsv', gym), report, { today: parseGatewayDate('01.01.2027')! }) as Reconciliation;
    assert.equal(formatReconcileText(r, reportFileLabel('transactions.csv')), shown);
  });
  it('a report run from a template (reconcile --template) labels its lines by the report, not by the template file', () => {
    const doc = readFileSync(join(__dirname, '../../docs/reconcile.md'), 'utf8');
    const report = doc.split('`transactions.csv`, the report of 01.03.2027:\n\n```\n')[1].split('```')[0].replace(/\n/g, '\r\n');
    const gym = [
      'client-orderid;period;interval;start-date;max-repeats-number;amount;currency',
      'GYM-1;month;1;01.01.2027;12;29.90;EUR',
    ].join('\r\n');
    const r = reconcileText(batchRows('gym.rpcsv', gym), report, { today: parseGatewayDate('01.01.2027')! }) as Reconciliation;
    const text = formatReconcileText(r, reportRunLabel('transactions.report.json'));
    assert.match(text, /^Reconciliation of 1 batch row\(s\) with the report of transactions\.report\.json, run now,/);
    assert.match(text, /^ {2}report line \d+ {2}\S+ /m);
    assert.doesNotMatch(text, /transactions\.report\.json:\d/);
  });
});
