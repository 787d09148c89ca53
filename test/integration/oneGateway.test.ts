import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SubmissionRecord } from '../../src/core/ledger';
import type { Reconciliation } from '../../src/core/reconcile';
import { gatewayClients } from '../../src/local-gateway';
import type { AdvanceClockResult } from '../../src/extension/environments/advanceClock';
import type { LocalGatewayInfo } from '../../src/extension/environments/localGateway';
import type { SubmitResult } from '../../src/extension/submit/submit';
import { DEADLINE_MS, TEST_TIMEOUT_MS } from './wait';

// Issue 30, the editor's side: the editor and the terminal use one local gateway per state directory
// ($PAYGATE_STATE_DIR, a scratch folder in these runs, is both the CLI's and the editor's). A terminal's
// `paygate` command sends to the gateway the editor started; a terminal's `paygate gateway` shows it and
// the editor as its user; when the terminal runs it, the editor attaches to it; and a batch sent after the
// clock moved reconciles to all ok, because the ledger holds the gateway's own date of the send.

const EXTENSION_ID = 'paygate.paygate-toolkit';
// eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);

let root: string;
let cli: string;
let scratch: string;
let stateDir: string;
const children: ChildProcess[] = [];

/** The environment of a terminal on this machine: the same state and ledger folders, its own configuration. */
function terminalEnv(): NodeJS.ProcessEnv {
  // ELECTRON_RUN_AS_NODE: under @vscode/test-electron the host's executable is Electron, which runs node scripts so.
  return { ...process.env, XDG_CONFIG_HOME: path.join(scratch, 'config'), ELECTRON_RUN_AS_NODE: '1' };
}

/** `paygate ARGS` in a terminal (the built CLI), to its end (a deadline for a loaded machine: ./wait.ts). */
function paygate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: scratch, env: terminalEnv(), timeout: TEST_TIMEOUT_MS }, (err, stdout, stderr) => {
      let code = 0;
      if (err) code = typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running `paygate gateway` in a terminal, with its output so far and a bounded wait for a pattern. */
function terminalGateway(): { child: ChildProcess; text: () => string; wait: (re: RegExp) => Promise<void> } {
  const child = spawn(process.execPath, [cli, 'gateway', '--quiet'], {
    cwd: scratch,
    env: terminalEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  const waiters: (() => void)[] = [];
  const more = (d: Buffer) => {
    text += d.toString('utf8');
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', more);
  child.stderr!.on('data', more);
  child.on('exit', () => waiters.splice(0).forEach((w) => w()));
  const wait = (re: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${re} from paygate gateway within ${DEADLINE_MS / 1000} s: ${text}`)),
        DEADLINE_MS,
      );
      const look = () => {
        if (re.test(text)) {
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`paygate gateway exited (${child.exitCode}) before ${re}: ${text}`));
        } else waiters.push(look);
      };
      look();
    });
  return { child, text: () => text, wait };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await ended;
}

/** A copy of the gateway fixture under new client-orderids, so each test's payments are its own. */
function batchFile(name: string, tag: string): vscode.Uri {
  const text = fs.readFileSync(path.join(root, 'test', 'fixtures', 'gateway-ext', 'valid.rpcsv'), 'utf8').replace(/IT-GW-/g, `${tag}-`);
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

function sent(r: SubmitResult | undefined): Extract<SubmitResult, { status: 'sent' }> {
  assert.ok(r?.status === 'sent', `not sent: ${JSON.stringify(r)}`);
  assert.equal(r.outcome, 'accepted', JSON.stringify(r.record));
  return r;
}

/** Polls until `check` returns a value, failing with `what` at the deadline; no fixed sleeps. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Moves the running gateway's clock as a terminal would (curl with the admin token of gateway.json); its new day. */
async function advanceFromTerminal(days: number): Promise<string> {
  const card = JSON.parse(fs.readFileSync(path.join(stateDir, 'gateway.json'), 'utf8')) as { origin: string; adminToken: string };
  const res = await fetch(`${card.origin}/_local/advance?days=${days}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${card.adminToken}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { today: string }).today;
}

async function cliRecords(): Promise<SubmissionRecord[]> {
  const r = await paygate(['history', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { records: SubmissionRecord[] }).records;
}

describe('one local gateway for the editor and the terminal', function () {
  this.timeout(TEST_TIMEOUT_MS);

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    root = ext.extensionPath;
    cli = path.join(root, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'the CLI is built (npm run build)');
    const dir = process.env.PAYGATE_STATE_DIR;
    assert.ok(dir, 'PAYGATE_STATE_DIR is set by the runner to a scratch folder');
    stateDir = dir;
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-one-gateway-it-'));
    await run('paygate.selectEnvironment', 'local');
    await run('paygate.stopLocalGateway');
  });

  after(async () => {
    for (const c of children) await stopChild(c);
    await run('paygate.stopLocalGateway');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("a terminal's paygate submit sends to the gateway the editor started, and the ledger names that one gateway", async () => {
    const editorSent = sent(
      await run<SubmitResult>('paygate.submit', batchFile('editor.rpcsv', 'IT-ONE-E'), { sendSamePayer: true, sendAgain: true }),
    );
    const info = await run<LocalGatewayInfo>('paygate.startLocalGateway');
    assert.ok(info?.running && info.baseUrl);
    assert.equal(info.stateDir, stateDir, "the editor's local gateway lives in the CLI's state directory");
    assert.equal(info.externalPid, undefined, 'this editor runs it');
    const ref = editorSent.record.localGateway;
    assert.equal(ref?.stateDir, stateDir);

    batchFile('terminal.rpcsv', 'IT-ONE-T');
    // The same payers as editor.rpcsv under other ids, sent on purpose (same-payer is not what this tests).
    const terminal = await paygate(['submit', 'terminal.rpcsv', '--format', 'json', '--allow-same-payer']);
    assert.equal(terminal.code, 0, terminal.stderr);
    const record = (await cliRecords()).find((r) => r.face === 'cli' && r.file.endsWith('terminal.rpcsv'));
    assert.ok(record, 'the terminal recorded its send in the one ledger');
    assert.equal(new URL(record.endpoint).origin, new URL(info.baseUrl).origin, "sent to the editor's gateway, not one of its own");
    assert.deepEqual([record.localGateway?.stateDir, record.localGateway?.startId], [ref.stateDir, ref.startId], 'the same run');

    // The editor's batch, sent again from the terminal: the same content at the same gateway is refused.
    const again = await paygate(['submit', 'editor.rpcsv']);
    assert.equal(again.code, 2, again.stdout + again.stderr);
    assert.match(again.stderr, /already sent to local, endpoint \S+: .* from the editor/);
  });

  it("a terminal's paygate gateway shows the editor's gateway and the editor as its user", async () => {
    const info = await run<LocalGatewayInfo>('paygate.startLocalGateway');
    const t = terminalGateway();
    await t.wait(/Watching it/);
    assert.match(t.text(), new RegExp(`already running \\(the editor \\(VS Code\\), process ${process.pid},`));
    assert.ok(t.text().includes(`base URL:         ${info?.baseUrl}`), t.text());
    assert.match(t.text(), new RegExp(`in use by: +the editor [^\\n]*, process ${process.pid}`));
    await stopChild(t.child);
    assert.equal(await run<boolean>('paygate.stopLocalGateway'), true, 'still the editor’s own, stopped by it');
  });

  it('when the terminal runs the gateway, the editor attaches to it, moves its clock, and lets it go', async () => {
    const t = terminalGateway();
    await t.wait(/Press Ctrl\+C to stop\./);
    const info = await run<LocalGatewayInfo>('paygate.startLocalGateway');
    assert.equal(info?.externalPid, t.child.pid, "the terminal's gateway, not a second one");
    assert.equal(info.runBy, 'paygate gateway');
    await t.wait(new RegExp(`now used by the editor [^\\n]*, process ${process.pid}`));
    assert.ok(gatewayClients(stateDir).some((c) => c.face === 'editor' && c.pid === process.pid));

    const moved = await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days: 3, show: false });
    assert.equal(moved?.status, 'advanced', JSON.stringify(moved));
    // The terminal sees the same clock: its forecast counts from the day the editor moved it to.
    const f = await paygate(['forecast', 'editor.rpcsv', '--format', 'json']);
    const [d, m, y] = moved.status === 'advanced' ? moved.today.split('.') : [];
    assert.equal((JSON.parse(f.stdout) as { window: { from: string } }).window.from, `${y}-${m}-${d}`, f.stderr);

    // A clock moved from the terminal (its admin endpoint, as curl would) moves the editor's hovers too.
    const day = await advanceFromTerminal(2);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(scratch, 'editor.rpcsv')));
    await eventually(`the hover counting from ${day}`, async () => {
      const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(1, 1))) ?? [];
      const text = hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
        .join('\n')
        .replace(/\\/g, '');
      return text.includes(`simulated date, ${day})`) ? true : undefined;
    });

    assert.equal(await run<boolean>('paygate.stopLocalGateway'), false, 'let go of, not stopped');
    await t.wait(new RegExp(`no longer used by the editor [^\\n]*, process ${process.pid}`));
    assert.equal(t.child.exitCode, null, 'the terminal gateway keeps running');
    await stopChild(t.child);
  });

  it("advance, submit rows without start-date, advance, reconcile: all ok on the gateway's own date", async () => {
    assert.equal((await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days: 30, show: false }))?.status, 'advanced');
    const uri = batchFile('clock.rpcsv', 'IT-CB');
    const editorSent = sent(await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, sendAgain: true }));
    assert.match(editorSent.record.localGateway?.today ?? '', /^\d{2}\.\d{2}\.\d{4}$/);
    assert.equal((await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days: 35, show: false }))?.status, 'advanced');
    // The report, pulled from the terminal (the editor's gateway still runs), reconciled in the editor.
    const report = await paygate([
      'report',
      path.join(root, 'test', 'fixtures', 'gateway-ext', 'transactions.report.json'),
      '--out',
      'it-report.csv',
    ]);
    assert.equal(report.code, 0, report.stderr);
    await vscode.window.showTextDocument(uri);
    const result = await run<Reconciliation>('paygate.reconcileWithReport', vscode.Uri.file(path.join(scratch, 'it-report.csv')));
    assert.ok(result, 'reconciled');
    assert.deepEqual(
      result.rows.map((r) => [r.clientOrderId, r.kind, r.status, r.due, r.charged]),
      [
        ['IT-CB-0001', 'charges', 'ok', 2, 2],
        ['IT-CB-0002', 'payouts', 'ok', 1, 1],
      ],
      JSON.stringify(result.rows.map((r) => r.reason)),
    );
  });
});
