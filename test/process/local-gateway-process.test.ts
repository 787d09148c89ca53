// The local gateway as real processes: one per state directory (a second `paygate gateway` shows the
// running one and takes over when it stops), a kill -9 loses no answered request and leaves a stale lock that the next start takes
// over, and parallel `paygate submit` runs without a running gateway lose nothing and share no id.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadOrCreateDemoMerchant, readRunningGateway, readStateLock, startLocalGateway } from '../../src/local-gateway';
import { takeClientLease } from '../../src/local-gateway/clients';
import { batch, formFields, postCreate, tempStateDir } from '../fixtures/local-gateway/helpers';
import { PROCESS_MS } from '../fixtures/deadlines';
import { ownPayers } from '../fixtures/ledger/payers';
import { paygateArgs } from '../fixtures/cli/bin';

const root = path.join(__dirname, '..', '..');

function paygate(args: string[], env: Record<string, string>, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  // A ledger of its own unless the test names one: never the user's, and no resend guard between tests.
  const ledger = { PAYGATE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-')) };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      { cwd, env: { ...process.env, ...ledger, ...env }, timeout: PROCESS_MS },
      (err, stdout, stderr) => {
        fs.rmSync(ledger.PAYGATE_DATA_DIR, { recursive: true, force: true });
        let code = 0;
        if (err) code = typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `paygate gateway --state DIR` until it prints its addresses (30 s at most). */
async function gatewayProcess(stateDir: string): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, [...paygateArgs(), 'gateway', '--state', stateDir, '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: root,
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start within 30 s: ${out}`)), 30_000);
    child.stdout!.on('data', (d: string) => {
      out += d;
      if (out.includes('Press Ctrl+C')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited early with ${code}`));
    });
  });
  return { child, out };
}

function stop(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Collects a child's output and waits for a pattern in it (bounded by `ms`). */
function output(child: ChildProcess): { text: () => string; wait: (re: RegExp, ms?: number) => Promise<string> } {
  let text = '';
  const waiters: (() => void)[] = [];
  const onData = (d: Buffer | string) => {
    text += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return {
    text: () => text,
    wait: (re, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms / 1000} s in: ${text}`)), ms);
        const look = () => {
          const m = re.exec(text);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            reject(new Error(`exited with ${child.exitCode} before ${re}: ${text}`));
          } else waiters.push(look);
        };
        look();
      }),
  };
}

test('a second paygate gateway on the same state directory shows the running one and who uses it, then runs it when it stops', async () => {
  const stateDir = tempStateDir();
  const first = await gatewayProcess(stateDir);
  const editorLease = takeClientLease(stateDir, { face: 'editor', label: 'VS Code (shop)' });
  const second = spawn(process.execPath, [...paygateArgs(), 'gateway', '--state', stateDir, '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: root,
  });
  try {
    const info = readRunningGateway(stateDir)!;
    const out = output(second);
    await out.wait(/Watching it/);
    const text = out.text();
    assert.match(
      text,
      new RegExp(`already running \\(paygate gateway, process ${first.child.pid}, since ${info.startedAt.replace(/\./g, '\\.')}\\)`),
    );
    assert.ok(text.includes(`base URL:         ${info.baseUrl}`), text);
    assert.ok(text.includes(`admin token:      ${info.adminToken}`), text);
    assert.match(text, new RegExp(`in use by: +the editor VS Code \\(shop\\), process ${process.pid}`));
    assert.deepEqual(readRunningGateway(stateDir), info, "watching did not touch the holder's lock");
    // A command starts and stops using it: the watcher says so.
    const command = takeClientLease(stateDir, { face: 'cli', label: 'paygate submit' });
    await out.wait(/now used by paygate submit, process \d+/);
    command.release();
    await out.wait(/no longer used by paygate submit/);
    // The first one stops: the watcher runs the gateway of the same state directory, with its payments.
    const exited = once(first.child, 'exit');
    first.child.kill('SIGTERM');
    await exited;
    await out.wait(/stopped: running it here[\s\S]*Press Ctrl\+C to stop\./);
    const now = readRunningGateway(stateDir)!;
    assert.equal(now.pid, second.pid);
    assert.equal(now.runBy, 'paygate gateway');
    assert.notEqual(now.startId, info.startId, 'a new run of the same state');
  } finally {
    editorLease.release();
    stop(first.child);
    const ended = once(second, 'exit');
    second.kill('SIGTERM');
    await ended;
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('kill -9: every answered create survives, the stale lock is taken over, ids continue', async () => {
  const stateDir = tempStateDir();
  const { child } = await gatewayProcess(stateDir);
  let ids: string[];
  try {
    const info = readRunningGateway(stateDir)!;
    const gwView = await startLocalGatewayViewOf(info.baseUrl, stateDir);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => postCreate(gwView, batch([{ 'client-orderid': `K9-${i}` }]))));
    ids = answers.map((a) => formFields(a.text)['recurring-payment-id']);
    assert.ok(answers.every((a) => a.status === 200));
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  } finally {
    stop(child);
  }
  assert.equal(readStateLock(stateDir)?.pid, child.pid, 'kill -9 leaves the lock behind');
  assert.equal(readRunningGateway(stateDir), undefined, 'but it is known to be stale');
  const gw = await startLocalGateway({ stateDir, port: 0 });
  try {
    assert.deepEqual(
      gw
        .payments()
        .map((p) => p['recurring-payment-id'])
        .sort(),
      [...ids].sort(),
    );
    assert.equal(readRunningGateway(stateDir)?.pid, process.pid);
    const next = formFields((await postCreate(gw, batch([{ 'client-orderid': 'K9-after' }]))).text)['recurring-payment-id'];
    assert.ok(!ids.includes(next));
  } finally {
    await gw.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('three parallel paygate submit runs without a running gateway: all accepted, no id twice, nothing lost', async () => {
  const stateDir = tempStateDir();
  const work = tempStateDir();
  try {
    // Three different batches with rows of their own: the same content, or the same rows, three times would
    // be refused twice by the resend guards.
    const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
    // Each batch its own ids and its own cards (payers): the same payers under other ids would be same-payer.
    for (const n of [1, 2, 3])
      fs.writeFileSync(path.join(work, `batch${n}.rpcsv`), ownPayers(valid.replace(/-2027-/g, `-2027-${n}-`), `batch${n}`));
    const env = { PAYGATE_STATE_DIR: stateDir, XDG_CONFIG_HOME: path.join(work, 'config'), PAYGATE_DATA_DIR: path.join(work, 'data') };
    const runs = await Promise.all([1, 2, 3].map((n) => paygate(['submit', `batch${n}.rpcsv`, '--format', 'json'], env, work)));
    const ids: string[] = [];
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.outcome, 'accepted');
      for (const id of String(json.fields['recurring-payment-id']).split(',')) ids.push(id);
    }
    assert.equal(new Set(ids).size, ids.length, `an id was handed out twice: ${ids.join(',')}`);
    const gw = await startLocalGateway({ stateDir, port: 0 });
    try {
      assert.deepEqual(
        gw
          .payments()
          .map((p) => p['recurring-payment-id'])
          .sort(),
        [...ids].sort(),
      );
    } finally {
      await gw.close();
    }
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('paygate submit with its own gateway exits without waiting for a callback receiver that never answers', async () => {
  const stateDir = tempStateDir();
  const work = tempStateDir();
  const seen: Promise<void>[] = [];
  const rx = http.createServer((req) => void seen.push(new Promise((r) => req.socket.once('close', () => r()))));
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  try {
    const notify = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/cb`;
    fs.writeFileSync(
      path.join(work, 'batch.rpcsv'),
      batch([
        { 'client-orderid': 'HOLD-1', notify_url: notify },
        { 'client-orderid': 'HOLD-2', notify_url: notify },
      ]),
    );
    const r = await paygate(
      ['submit', 'batch.rpcsv', '--format', 'json'],
      { PAYGATE_STATE_DIR: stateDir, XDG_CONFIG_HOME: path.join(work, 'config') },
      work,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).outcome, 'accepted');
    // Waiting would have meant a 3 s timeout and a retry per callback; stopping aborts the one in flight.
    assert.ok(seen.length <= 1, `${seen.length} callback connections: the CLI waited for a retry or the next callback`);
    await Promise.all(seen);
  } finally {
    rx.closeAllConnections();
    await new Promise<void>((r) => rx.close(() => r()));
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
});

/** The fields the helpers need to sign for a gateway running in another process on `stateDir`. */
async function startLocalGatewayViewOf(baseUrl: string, stateDir: string) {
  const merchant = loadOrCreateDemoMerchant(stateDir);
  const origin = new URL(baseUrl).origin;
  return { baseUrl, origin, merchant } as unknown as Parameters<typeof postCreate>[0];
}
