// Issue 30 in real `paygate` processes: one local gateway per state directory whoever asks (an editor's,
// a terminal's), the ledger telling two local gateways apart, and the gateway's own (simulated) date
// carried from the submit to the reconciliation, the schedule and the forecast.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addDays, formatGatewayDate, formatIsoDate, todayLocal } from '../../src/core/dates';
import { findOrStartLocalGateway, startLocalGateway, type LocalGatewayUse } from '../../src/local-gateway';
import type { SubmissionRecord } from '../../src/core/ledger';
import { PROCESS_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const root = path.join(__dirname, '..', '..');
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A `paygate` process in the scratch folder: its own ledger and configuration, never the user's. */
function paygate(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      {
        cwd: dir,
        env: { ...process.env, PAYGATE_DATA_DIR: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config'), ...env },
        timeout: PROCESS_MS,
      },
      (err, stdout, stderr) => {
        let code = 0;
        if (err) code = typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const HEADER =
  'client-orderid;rp_card_type;first-name;last-name;address1;city;zip-code;country;email;period;interval;start-date;max-repeats-number;amount;currency;card-printed-name;credit-card-number;expire-month;expire-year';

/** A batch of SRC rows without start-date: they start on the day the gateway creates them. */
function batch(name: string, rows: [id: string, period: string, card: string][]): string {
  const lines = rows.map(
    ([id, period, card]) =>
      `${id};SRC;Anna;Schmidt;Street 1;Berlin;10115;DE;anna@example.com;${period};1;;;12.50;EUR;ANNA SCHMIDT;${card};08;2031`,
  );
  fs.writeFileSync(path.join(dir, name), [HEADER, ...lines].join('\r\n') + '\r\n');
  return name;
}

async function history(): Promise<SubmissionRecord[]> {
  const r = await paygate(['history', '--format', 'json'], {});
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { records: SubmissionRecord[] }).records;
}

interface ReconcileJson {
  rows: { clientOrderId: string; status: string; due: number; charged: number; reason: string }[];
  summary: Record<string, number>;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-one-gateway-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("the editor's local gateway is the terminal's: a command uses it, records which it was, and paygate gateway names the editor", async () => {
  const stateDir = path.join(dir, 'shared-state');
  // The editor's `local`: found or started through the same finding module, holding a client lease.
  const editor: LocalGatewayUse = await findOrStartLocalGateway({
    stateDir,
    port: 0,
    runBy: 'the editor (VS Code)',
    client: { face: 'editor', label: 'VS Code (shop)' },
  });
  try {
    assert.equal(editor.kind, 'started');
    const env = { PAYGATE_STATE_DIR: stateDir };
    const sent = await paygate(['submit', batch('terminal.rpcsv', [['T-1', 'month', '4111111111111111']]), '--format', 'json'], env);
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(JSON.parse(sent.stdout).outcome, 'accepted');
    assert.ok(
      (await editor.payments()).some((p) => p['client-orderid'] === 'T-1'),
      "the terminal's batch landed in the editor's gateway, not in one of its own",
    );
    const [record] = await history();
    assert.equal(new URL(record.endpoint).origin, editor.origin);
    assert.deepEqual(record.localGateway, { stateDir, startId: editor.startId, today: formatGatewayDate(await editor.today()) });

    // `paygate gateway` on the same state directory starts no second one: it shows the editor's, and who uses it.
    const shown = await new Promise<Run>((resolve) => {
      const child = execFile(
        process.execPath,
        [...paygateArgs(), 'gateway', '--quiet'],
        { cwd: dir, env: { ...process.env, ...env }, timeout: PROCESS_MS },
        (err, stdout, stderr) => resolve({ code: err && typeof err.code === 'number' ? err.code : 0, stdout, stderr }),
      );
      let out = '';
      child.stdout!.on('data', (d: string) => {
        out += d;
        if (out.includes('Watching it')) child.kill('SIGTERM');
      });
    });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`already running \\(the editor \\(VS Code\\), process ${process.pid},`));
    assert.ok(shown.stdout.includes(`base URL:         ${editor.environment.baseUrl}`), shown.stdout);
    assert.match(shown.stdout, new RegExp(`in use by: +the editor VS Code \\(shop\\), process ${process.pid}\\n`));
  } finally {
    await editor.release();
  }
});

test('two local gateways, one ledger: history names each, the guard and reconcile never take one for the other', async () => {
  const stateA = path.join(dir, 'state-a');
  const stateB = path.join(dir, 'state-b');
  const a = batch('only-a.rpcsv', [['A-1', 'day', '4111111111111111']]);
  const b = batch('only-b.rpcsv', [['B-1', 'day', '5555555555554444']]);
  // Each command runs a one-shot local gateway of its state directory: both answer as endpoint 1001.
  assert.equal((await paygate(['submit', a], { PAYGATE_STATE_DIR: stateA })).code, 0);
  assert.equal((await paygate(['submit', b], { PAYGATE_STATE_DIR: stateB })).code, 0);
  // The same content to the other local gateway is no resend: its payments are not there.
  const aToB = await paygate(['submit', a, '--format', 'json'], { PAYGATE_STATE_DIR: stateB });
  assert.equal(aToB.code, 0, aToB.stderr);
  // ...but to the same one again it is refused, from any face.
  const again = await paygate(['submit', a], { PAYGATE_STATE_DIR: stateB });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already sent to local, endpoint 1001/);

  const records = (await history()).filter((r) => r.file.endsWith('only-a.rpcsv') || r.file.endsWith('only-b.rpcsv'));
  assert.deepEqual(
    records.map((r) => [path.basename(r.file), r.localGateway?.stateDir, r.recurringPaymentIds.length]),
    [
      ['only-a.rpcsv', stateB, 1],
      ['only-b.rpcsv', stateB, 1],
      ['only-a.rpcsv', stateA, 1],
    ],
  );
  const text = await paygate(['history', '--limit', '3'], {});
  assert.ok(text.stdout.includes(`sent to the local gateway of ${stateA} (run `), text.stdout);

  // A's clock and payments are A's: reconciling B's report takes B's submissions only (and says what it left out).
  const gw = await startLocalGateway({ stateDir: stateB, port: 0 });
  try {
    await gw.advanceDays(2);
    const r = await paygate(['reconcile', '--template', path.join(root, 'examples', 'transactions.report.json'), '--format', 'json'], {
      PAYGATE_STATE_DIR: stateB,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const json = JSON.parse(r.stdout) as ReconcileJson;
    assert.deepEqual(json.rows.map((x) => [x.clientOrderId, x.status]).sort(), [
      ['A-1', 'ok'],
      ['B-1', 'ok'],
    ]);
    assert.match(
      r.stderr,
      new RegExp(`only-a\\.rpcsv \\(sent [^)]+\\) went to the local gateway of ${stateA.replace(/[/\\]/g, '.')}, not of`),
    );
  } finally {
    await gw.close();
  }
});

test("the gateway's own date: advance, submit rows without start-date, advance, reconcile: every row ok", async () => {
  const stateDir = path.join(dir, 'clock-state');
  const env = { PAYGATE_STATE_DIR: stateDir };
  const real = todayLocal();
  // A terminal's `paygate gateway` (this process stands in for it): its clock starts on this machine's date.
  const gw = await startLocalGateway({ stateDir, port: 0, initialDate: real, runBy: 'paygate gateway' });
  try {
    await gw.advanceDays(35);
    const sentOn = gw.today();
    const file = batch('cb.rpcsv', [
      ['CB-0001', 'month', '4111111111111111'],
      ['CB-0002', 'week', '5555555555554444'],
    ]);
    // Previews of the batch before it is sent count from the gateway's date, not this machine's.
    const schedule = await paygate(['schedule', file, '--format', 'json', '--limit', '1'], env);
    assert.deepEqual(JSON.parse(schedule.stdout).rows[0].charges[0].date, formatGatewayDate(sentOn));
    const forecast = await paygate(['forecast', file, '--format', 'json'], env);
    assert.equal(JSON.parse(forecast.stdout).window.from, formatIsoDate(sentOn), forecast.stderr);

    const sent = await paygate(['submit', file], env);
    assert.equal(sent.code, 0, sent.stderr);
    const [record] = await history();
    assert.equal(record.localGateway?.today, formatGatewayDate(sentOn), "the ledger holds the gateway's date of the send");
    await gw.advanceDays(35);
    assert.deepEqual(gw.today(), addDays(real, 70));

    const report = await paygate(['report', path.join(root, 'examples', 'transactions.report.json'), '--out', 'cb-report.csv'], env);
    assert.equal(report.code, 0, report.stderr);
    // From the ledger, from the named file, and with the report run now: the same story.
    for (const args of [
      ['--report', 'cb-report.csv'],
      [file, '--report', 'cb-report.csv'],
      [file, '--template', path.join(root, 'examples', 'transactions.report.json')],
    ]) {
      const r = await paygate(['reconcile', ...args, '--format', 'json'], env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      const json = JSON.parse(r.stdout) as ReconcileJson;
      assert.deepEqual(
        json.rows.filter((x) => x.clientOrderId.startsWith('CB-')).map((x) => [x.clientOrderId, x.status, x.due, x.charged]),
        [
          ['CB-0001', 'ok', 2, 2],
          ['CB-0002', 'ok', 6, 6],
        ],
        args.join(' '),
      );
    }
  } finally {
    await gw.close();
  }
});
