import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseGatewayDate } from '../../src/core/dates';
import { safeJson } from '../../src/core/output';
import { batchRows, reconcileText } from '../../src/core/reconcile';
import { RECONCILED_COLUMNS } from '../../src/core/reconcile/batches';
import { runReconcile } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';

// What a large reconciliation holds (issue 40): of each batch row only the columns reconciliation reads,
// and of its output never the whole: `paygate reconcile` prints it a piece at a time. The memory this
// saves is measured in `npm run bench:scale` (test/bench/scale-reconcile.ts), never asserted here.

const HEADER =
  'client-orderid;rp_card_type;order_desc;first-name;last-name;email;period;interval;start-date;max-repeats-number;amount;currency;credit-card-number;expire-month;expire-year;cvv2';
const REPORT_HEADER =
  '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"';
const batchLine = (i: number) =>
  `ORD-${i};SRC;Plan ${i};Anna;Schmidt;anna${i}@example.com;month;1;01.01.2027;2;12.50;EUR;4111111111111111;08;2031;123`;
const batch = (rows: number) => `${[HEADER, ...Array.from({ length: rows }, (_, i) => batchLine(i))].join('\r\n')}\r\n`;
const reportLine = (tx: number, order: string, month: number) =>
  `"Demo","${tx}","${order}","2027-0${month}-01 09:00:00","12.500","EUR","Sale approved","Plan","01.03.2027"`;

describe('reconciliation keeps of a batch row only what it reads', () => {
  it('the values are the order id, kind, currency and schedule: no card, no cvv2, no name or email', () => {
    const rows = batchRows('b.rpcsv', batch(3));
    for (const r of rows) {
      for (const name of Object.keys(r.values)) assert.ok(RECONCILED_COLUMNS.includes(name), `kept ${name}`);
      assert.deepEqual(Object.keys(r.values).sort(), [
        'amount',
        'client-orderid',
        'currency',
        'interval',
        'max-repeats-number',
        'period',
        'rp_card_type',
        'start-date',
      ]);
    }
  });
  it('reconciles as the whole row would: same statuses, charges and reasons', () => {
    const text = batch(40);
    const kept = batchRows('b.rpcsv', text);
    // The whole row: every column of the header, as a batch row's values() gives them.
    const names = HEADER.split(';');
    const whole = kept.map((r, i) => ({
      ...r,
      values: Object.fromEntries(
        batchLine(i)
          .split(';')
          .map((v, c) => [names[c], v]),
      ),
    }));
    const lines = [REPORT_HEADER];
    // Every third row missing its second charge, every fifth charged another amount.
    for (let i = 0; i < 40; i++)
      for (const m of i % 3 === 0 ? [1] : [1, 2])
        lines.push(reportLine(lines.length, `ORD-${i}`, m).replace('12.500', i % 5 ? '12.500' : '9.990'));
    const report = `${lines.join('\r\n')}\r\n`;
    const options = { today: parseGatewayDate('01.03.2027')!, delimiter: ',' };
    const a = reconcileText(kept, report, options);
    const b = reconcileText(whole, report, options);
    assert.ok(!('error' in a) && !('error' in b));
    assert.deepEqual(a, b);
    assert.ok(a.summary.missing > 0 && a.summary['amount-mismatch'] > 0);
  });
});

describe('paygate reconcile prints its output a piece at a time', () => {
  let dir: string;
  const ROWS = 2_500;
  const UNMATCHED = 1_500;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-reconcile-scale-'));
    writeFileSync(join(dir, 'batch.rpcsv'), batch(ROWS));
    // Every row charged once of its two charges (so each needs attention), and lines of no batch row.
    const lines = [REPORT_HEADER];
    for (let i = 0; i < ROWS; i++) lines.push(reportLine(lines.length, `ORD-${i}`, 1));
    for (let i = 0; i < UNMATCHED; i++) lines.push(reportLine(lines.length, `OTHER-${i}`, 1));
    writeFileSync(join(dir, 'report.csv'), `${lines.join('\r\n')}\r\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function run(format: string): Promise<string[]> {
    const writes: string[] = [];
    const ctx = testContext({ cwd: dir, env: { HOME: dir }, stdout: (t) => void writes.push(t) });
    const args = ['batch.rpcsv', '--report', 'report.csv', '--state', join(dir, 'state'), '--format', format];
    const code = await runReconcile(args, ctx);
    assert.equal(code, 1, `exit ${code}`);
    return writes;
  }

  it('json: many writes, none with more than a thousand rows, together the one compact JSON object', async () => {
    const writes = await run('json');
    assert.ok(writes.length >= 5, `${writes.length} write(s)`);
    for (const w of writes) assert.ok((w.match(/"file":/g) ?? []).length <= 1_000);
    const text = writes.join('');
    const parsed = JSON.parse(text) as { rows: { status: string }[]; unmatched: unknown[] };
    assert.equal(parsed.rows.length, ROWS);
    assert.equal(parsed.unmatched.length, UNMATCHED);
    assert.deepEqual([...new Set(parsed.rows.map((r) => r.status))], ['missing']);
    // Joined, the pieces are exactly what one JSON.stringify of the whole writes.
    assert.equal(text, `${safeJson(parsed)}\n`);
  });
  it('text and csv: many writes, every row and unmatched line once', async () => {
    const text = await run('text');
    assert.ok(text.length >= 5, `${text.length} write(s)`);
    const shown = text.join('');
    assert.equal((shown.match(/ {2}missing {2}ORD-/g) ?? []).length, ROWS);
    assert.equal((shown.match(/OTHER-/g) ?? []).length, UNMATCHED);
    assert.ok(shown.endsWith('\n') && !shown.endsWith('\n\n'));
    const csv = await run('csv');
    assert.ok(csv.length >= 5, `${csv.length} write(s)`);
    const records = csv.join('').split('\r\n');
    assert.equal(records.pop(), '');
    assert.equal(records.length, 1 + ROWS + UNMATCHED);
    assert.equal(records.filter((r) => r.startsWith('file,line,')).length, 1);
  });
});
