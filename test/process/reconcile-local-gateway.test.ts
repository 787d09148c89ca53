import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatGatewayDate } from '../../src/core/dates';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { runSubmit } from '../fixtures/cli/commands';
import { runReport } from '../fixtures/cli/commands';
import { runReconcile } from '../fixtures/cli/commands';
import { fixCommand } from '../../src/cli/commands/fix';
import { runCommand } from '../../src/cli/parser';
import type { CliContext } from '../../src/cli/context';
import { testContext } from '../fixtures/cli/context';

// Reconciliation made real on the local gateway: submit, advance the clock, pull the report, reconcile.
// Then a batch sent twice shows `extra`, the decline card (a number ending in 0) shows `declined`, and a
// report row edited by hand shows `amount-mismatch`. The gateway runs in this process on a free port.

const root = join(__dirname, '..', '..');
let dir: string;
let gw: LocalGateway;

async function run(fn: (args: string[], ctx: CliContext) => Promise<number>, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const ctx = testContext({
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { PAYGATE_DATA_DIR: join(dir, 'data'), PAYGATE_STATE_DIR: join(dir, 'state') },
    cwd: dir,
    interactive: false,
    confirm: async () => false,
  });
  const code = await fn(args, ctx);
  return { code, out: out.join(''), err: err.join('') };
}

const HEADER =
  'client-orderid;rp_card_type;order_desc;first-name;last-name;address1;city;zip-code;country;email;period;interval;start-date;max-repeats-number;amount;currency;card-printed-name;credit-card-number;expire-month;expire-year;cvv2';
function batch(name: string, rows: [string, string][]): string {
  const start = formatGatewayDate(gw.today());
  const lines = rows.map(
    ([id, card]) =>
      `${id};SRC;Plan;Anna;Schmidt;Street 1;Berlin;10115;DE;anna@example.com;day;1;${start};3;12.50;EUR;ANNA SCHMIDT;${card};08;2031;123`,
  );
  const p = join(dir, name);
  writeFileSync(p, [HEADER, ...lines].join('\r\n') + '\r\n');
  return p;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-reconcile-'));
  // The demo merchant's keys are read from this state directory by the commands.
  process.env.PAYGATE_STATE_DIR = join(dir, 'state');
  gw = await startLocalGateway({ stateDir: process.env.PAYGATE_STATE_DIR, port: 0 });
});

after(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

// The tests here reuse a few test cards under ids of their own on one target: the same payers to the
// ledger (same-payer), which is not what these tests are about, so each send says it means it.
const local = () => ['--base-url', gw.baseUrl, '--allow-same-payer'];
const runFix = (args: string[], ctx: CliContext) => runCommand(fixCommand, args, ctx);

async function pullReport(file: string): Promise<string> {
  const template = join(root, 'examples', 'transactions.report.json');
  const r = await run(runReport, [template, '--report-base-url', gw.reportBaseUrl, '--out', file]);
  assert.equal(r.code, 0, r.err + r.out);
  return join(dir, file);
}

interface Json {
  window: { from: string; to: string };
  rows: { file: string; line: number; clientOrderId: string; kind: string; status: string; due: number; charged: number; reason: string }[];
  unmatched: { line: number }[];
  summary: Record<string, number>;
}

test('submit, advance, report, reconcile: all ok; then extra, declined and amount-mismatch', async () => {
  const ok = batch('ok.rpcsv', [
    ['RC-1', '4111111111111111'],
    ['RC-2', '5555555555554444'],
  ]);
  assert.equal((await run(runSubmit, [ok, ...local()])).code, 0);
  await gw.advanceDays(5);
  const report = await pullReport('report.csv');

  const first = await run(runReconcile, [ok, '--report', report, '--format', 'json']);
  assert.equal(first.code, 0, first.out + first.err);
  const json = JSON.parse(first.out) as Json;
  assert.deepEqual(
    json.rows.map((r) => [r.clientOrderId, r.status, r.due, r.charged]),
    [
      ['RC-1', 'ok', 3, 3],
      ['RC-2', 'ok', 3, 3],
    ],
  );
  assert.equal(json.window.to, formatGatewayDate(gw.today()));

  // The ledger's accepted submissions are the default batches.
  const fromLedger = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.equal(fromLedger.code, 0, fromLedger.out + fromLedger.err);
  assert.equal((JSON.parse(fromLedger.out) as Json).summary.ok, 2);

  // --template runs the report now; --format csv is one line per batch row.
  const template = join(root, 'examples', 'transactions.report.json');
  const csv = await run(runReconcile, [ok, '--template', template, '--format', 'csv']);
  assert.equal(csv.code, 0, csv.out + csv.err);
  const lines = csv.out.trim().split('\r\n');
  assert.equal(lines[0], 'file,line,client-orderid,status,due,charged,declined,reason,report lines,kind');
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(',').slice(2, 4)),
    [
      ['RC-1', 'ok'],
      ['RC-2', 'ok'],
    ],
  );

  // The same batch with another amount, reconciled with the report run now: its lines are the report's
  // ("report line N"), never the template's file name with a line number of a file that does not exist.
  const other = join(dir, 'other-amount.rpcsv');
  writeFileSync(other, readFileSync(ok, 'utf8').replace(/;12\.50;/g, ';12.60;'));
  const ran = await run(runReconcile, [other, '--template', template]);
  assert.equal(ran.code, 1, ran.out + ran.err);
  assert.match(ran.out, /^Reconciliation of 2 batch row\(s\) with the report of .*transactions\.report\.json, run now,/);
  assert.match(ran.out, /^ {2}report line \d+ {2}\d\d\.\d\d\.\d{4} 12\.500 EUR/m);
  assert.doesNotMatch(ran.out, /transactions\.report\.json:\d/);

  // A report row edited by hand: amount-mismatch, exit 1, the report line named.
  const edited = readFileSync(report, 'utf8').replace(/"12\.500"/, '"12.600"');
  writeFileSync(join(dir, 'edited.csv'), edited);
  const mismatch = await run(runReconcile, [ok, '--report', join(dir, 'edited.csv')]);
  assert.equal(mismatch.code, 1);
  assert.match(mismatch.out, /amount-mismatch\s+1/);
  assert.match(mismatch.out, /ok\.rpcsv:2 {2}amount-mismatch {2}RC-1: report line \d+ charged 12\.600, the schedule says 12\.50/);
});

test('a batch sent twice with --allow-resend shows extra; the decline card shows declined', async () => {
  const twice = batch('twice.rpcsv', [['RX-1', '4111111111111111']]);
  const declining = batch('declining.rpcsv', [['RD-1', '5105105105105100']]);
  assert.equal((await run(runSubmit, [twice, ...local()])).code, 0);
  const again = await run(runSubmit, [twice, ...local(), '--allow-resend']);
  assert.equal(again.code, 0, again.err);
  assert.equal((await run(runSubmit, [declining, ...local()])).code, 0);
  await gw.advanceDays(1);
  const report = await pullReport('report2.csv');
  const r = await run(runReconcile, [twice, declining, '--report', report, '--format', 'json']);
  assert.equal(r.code, 1);
  const json = JSON.parse(r.out) as Json;
  const status = Object.fromEntries(json.rows.map((x) => [x.clientOrderId, x.status]));
  assert.equal(status['RX-1'], 'extra');
  assert.equal(status['RD-1'], 'declined');
  // The first test's payments are in this report too, and in no batch named here.
  assert.ok(json.unmatched.length > 0);
  const text = await run(runReconcile, [twice, declining, '--report', report]);
  assert.match(text.out, /^ {2}extra +1$/m);
  assert.doesNotMatch(text.out + r.out, /5105105105105100|4111111111111111/);
});

test('a batch changed since it was sent is named and skipped; usage errors exit 2', async () => {
  const changed = batch('changed.rpcsv', [['RY-1', '4111111111111111']]);
  assert.equal((await run(runSubmit, [changed, ...local()])).code, 0);
  writeFileSync(changed, readFileSync(changed, 'utf8').replace('12.50', '13.50'));
  const report = await pullReport('report3.csv');
  const r = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.match(r.err, /changed\.rpcsv .*changed since it was sent; skipped/);
  assert.ok(!(JSON.parse(r.out) as Json).rows.some((x) => x.clientOrderId === 'RY-1'));
  assert.equal((await run(runReconcile, [changed])).code, 2);
  assert.equal((await run(runReconcile, [changed, '--report', report, '--as-of', '2027-01-01'])).code, 2);
  assert.equal((await run(runReconcile, [changed, '--report', report, '--column', 'colour=x'])).code, 2);
  const missing = await run(runReconcile, [changed, '--report', join(dir, 'nope.csv')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /nope\.csv: cannot read: no such file/);
});

test('a batch whose cvv2 was emptied after the send (and rows reordered) still is that send: reconciled, dated by the send', async () => {
  // No start-date: the rows start on the day the gateway received them, which only the ledger knows.
  const p = join(dir, 'stripped.rpcsv');
  const rows = ['RS-1', 'RS-2'].map(
    (id) =>
      `${id};SRC;Plan;Anna;Schmidt;Street 1;Berlin;10115;DE;anna@example.com;day;1;;3;12.50;EUR;ANNA SCHMIDT;4111111111111111;08;2031;123`,
  );
  writeFileSync(p, [HEADER, ...rows].join('\r\n') + '\r\n');
  assert.equal((await run(runSubmit, [p, ...local()])).code, 0);
  await gw.advanceDays(2);
  const stripped = await run(runFix, ['--strip-cvv', p]);
  assert.equal(stripped.code, 0, stripped.err);
  const [header, ...body] = readFileSync(p, 'utf8').trimEnd().split('\r\n');
  assert.ok(
    body.every((l) => l.endsWith(';')),
    'cvv2 emptied',
  );
  writeFileSync(p, [header, ...body.reverse()].join('\r\n') + '\r\n');
  const report = await pullReport('report-stripped.csv');
  const expected = [
    ['RS-2', 'ok', 3, 3],
    ['RS-1', 'ok', 3, 3],
  ];
  // Named: dated by the send two days ago (dated today, no charge would be due yet).
  const named = await run(runReconcile, [p, '--report', report, '--format', 'json']);
  // Exit 1 only for the earlier tests' payments in this report (unmatched), not for these rows.
  assert.equal(named.code, 1, named.out + named.err);
  assert.deepEqual(
    (JSON.parse(named.out) as Json).rows.map((r) => [r.clientOrderId, r.status, r.due, r.charged]),
    expected,
  );
  // From the ledger: still as sent, not "changed since it was sent".
  const fromLedger = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.doesNotMatch(fromLedger.err, /stripped\.rpcsv.*changed since it was sent/);
  const mine = (JSON.parse(fromLedger.out) as Json).rows.filter((r) => r.clientOrderId.startsWith('RS-'));
  assert.deepEqual(
    mine.map((r) => [r.clientOrderId, r.status, r.due, r.charged]),
    expected,
  );
  // A value other than cvv2 changed: no longer that send.
  writeFileSync(p, readFileSync(p, 'utf8').replace(/;12\.50;/g, ';12.60;'));
  const changed = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.match(changed.err, /stripped\.rpcsv .*changed since it was sent; skipped/);
});

test('a file edited after its send: rows still as sent are reconciled, added and changed rows are named and left out; a row two sends held is extra once', async () => {
  const p = batch('edited.rpcsv', [
    ['RE-1', '4111111111111111'],
    ['RE-2', '5555555555554444'],
  ]);
  assert.equal((await run(runSubmit, [p, ...local()])).code, 0);
  const row3 = readFileSync(p, 'utf8').split('\r\n')[1].replace('RE-1', 'RE-3');
  writeFileSync(
    p,
    readFileSync(p, 'utf8')
      .replace('RE-1;SRC;Plan;', 'RE-1;SRC;Plan (fixed);')
      .replace(/(RE-2;.*?);12\.50;/, '$1;13.50;') +
      row3 +
      '\r\n',
  );
  const twice = batch('twice-edited.rpcsv', [['RT-1', '4111111111111111']]);
  assert.equal((await run(runSubmit, [twice, ...local()])).code, 0);
  writeFileSync(twice, readFileSync(twice, 'utf8') + readFileSync(twice, 'utf8').split('\r\n')[1].replace('RT-1', 'RT-2') + '\r\n');
  const again = await run(runSubmit, [twice, ...local(), '--allow-resend']);
  assert.equal(again.code, 0, again.err);
  await gw.advanceDays(1);
  const report = await pullReport('report-edited.csv');
  const r = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.match(
    r.err,
    /edited\.rpcsv \(sent [^)]*\): changed since it was sent: 1 row\(s\) still as sent are reconciled; left out 1 row\(s\) added since \(RE-3\): no part of this send; left out 1 row\(s\) whose card or schedule changed since \(RE-2\): not the charges sent; to reconcile a file as it is now, name it \(paygate reconcile FILE/,
  );
  const status = new Map<string, string[]>();
  for (const row of (JSON.parse(r.out) as Json).rows) status.set(row.clientOrderId, [...(status.get(row.clientOrderId) ?? []), row.status]);
  assert.deepEqual(status.get('RE-1'), ['ok'], 'the row whose description was fixed is still the row sent');
  assert.equal(status.get('RE-2'), undefined);
  assert.equal(status.get('RE-3'), undefined);
  assert.deepEqual(status.get('RT-1'), ['extra'], 'held by both sends of the file: one row, charged twice');
  assert.deepEqual(status.get('RT-2'), ['ok']);
});

test('rows moved out of a sent batch ("Move the already-sent rows") are reconciled where they are now; a sent row found nowhere is named with how to include it', async () => {
  const p = batch('moved.rpcsv', [
    ['RM-1', '4111111111111111'],
    ['RM-2', '5555555555554444'],
    ['RM-3', '4000056655665556'],
  ]);
  assert.equal((await run(runSubmit, [p, ...local()])).code, 0);
  const [header, ...rows] = readFileSync(p, 'utf8').trimEnd().split('\r\n');
  // As the move leaves them: two sent rows (reordered) in moved.already-sent.rpcsv, a new row in the batch,
  // RM-3 gone from both (deleted by hand).
  writeFileSync(join(dir, 'moved.already-sent.rpcsv'), [header, rows[1], rows[0]].join('\r\n') + '\r\n');
  writeFileSync(p, [header, rows[0].replace('RM-1', 'RM-4')].join('\r\n') + '\r\n');
  await gw.advanceDays(1);
  const report = await pullReport('report-moved.csv');
  const r = await run(runReconcile, ['--report', report, '--format', 'json']);
  assert.match(r.err, /moved\.rpcsv \(sent [^)]*\): 2 sent row\(s\) moved to moved\.already-sent\.rpcsv are reconciled there/);
  assert.match(
    r.err,
    /moved\.rpcsv \(sent [^)]*\): changed since it was sent; skipped; left out 1 row\(s\) added since \(RM-4\): no part of this send; 1 sent row\(s\) are neither in the file nor in a moved\.already-sent\.rpcsv beside it, their charges unmatched \(RM-3\); to reconcile a file as it is now, name it \(paygate reconcile FILE/,
  );
  const json = JSON.parse(r.out) as Json;
  const mine = json.rows.filter((x) => x.clientOrderId.startsWith('RM-'));
  assert.deepEqual(
    mine.map((x) => [x.clientOrderId, x.file.endsWith('moved.already-sent.rpcsv'), x.line, x.status]),
    [
      ['RM-2', true, 2, 'ok'],
      ['RM-1', true, 3, 'ok'],
    ],
  );
});

test('a DST row is matched as a payout, and the reconciliation says which it matched', async () => {
  const start = formatGatewayDate(gw.today());
  const p = join(dir, 'payout.rpcsv');
  writeFileSync(
    p,
    [
      HEADER,
      `RP-1;SRC;Plan;Anna;Schmidt;Street 1;Berlin;10115;DE;anna@example.com;day;1;${start};2;12.50;EUR;ANNA SCHMIDT;4111111111111111;08;2031;123`,
      `RP-2;DST;Payout;;;;;;;;;;${start};;120.00;EUR;PARTNER LTD;6011111111111117;05;2030;`,
    ].join('\r\n') + '\r\n',
  );
  assert.equal((await run(runSubmit, [p, ...local()])).code, 0);
  await gw.advanceDays(1);
  const report = await pullReport('report-payout.csv');
  const r = await run(runReconcile, [p, '--report', report, '--format', 'json']);
  const rows = (JSON.parse(r.out) as Json).rows.filter((x) => x.clientOrderId.startsWith('RP-'));
  assert.deepEqual(
    rows.map((x) => [x.clientOrderId, x.kind, x.status, x.reason]),
    [
      ['RP-1', 'charges', 'ok', '2 charge(s) due and charged'],
      ['RP-2', 'payouts', 'ok', '1 payout(s) due and paid out'],
    ],
  );
  const text = await run(runReconcile, [p, '--report', report]);
  assert.match(text.out, /\(1 row\(s\) matched as charges, 1 DST row\(s\) as payouts\)/);
});
