// Finding or starting the local gateway of a state directory (local-gateway/finding.ts), as the editor's
// `local`, the CLI's commands and the demo all do it: one gateway per state directory, whoever asks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  findOrStartLocalGateway,
  gatewayClients,
  localGatewayRef,
  LocalGatewayUnusableError,
  readRunningGateway,
  startLocalGateway,
  RUNNING_FILE,
  StateDirLockedError,
} from '../../src/local-gateway';
import { CLIENTS_DIR, takeClientLease } from '../../src/local-gateway/clients';
import { START, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';

const options = (stateDir: string) => ({ stateDir, port: 0, initialDate: START });

test('with no gateway on the state directory, one is started in this process and release() stops it', async () => {
  const stateDir = tempStateDir();
  try {
    const found = await findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 1_000, runBy: 'a test' });
    assert.equal(found.kind, 'started');
    assert.equal(found.pid, process.pid);
    assert.match(found.startId, /^[0-9a-f]{12}$/);
    assert.equal(readRunningGateway(stateDir)?.runBy, 'a test', 'who runs it is in gateway.json');
    assert.equal(readRunningGateway(stateDir)?.startId, found.startId);
    assert.deepEqual(await found.today(), START);
    assert.equal(found.alive(), true);
    await found.release();
    assert.equal(found.alive(), false);
    assert.equal(readRunningGateway(stateDir), undefined, 'stopped: the lock is gone');
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test("a running gateway is used once it answers as the directory's merchant: its run, its clock, its payments", async () => {
  await withGateway(async (gw, stateDir) => {
    const reasons: string[] = [];
    const found = await findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 1_000, note: (r) => reasons.push(r) });
    assert.equal(found.kind, 'running');
    assert.equal(found.environment.baseUrl, gw.baseUrl);
    assert.equal(found.merchant.consumerKey, gw.merchant.consumerKey);
    assert.equal(found.startId, gw.startId, 'the same run, named the same way by every launcher');
    assert.match(reasons.join('\n'), /using the local gateway at/);
    await gw.advanceDays(3);
    assert.deepEqual(await found.today(), gw.today(), "its date is the running gateway's simulated date");
    assert.deepEqual(await localGatewayRef(found), { stateDir, startId: gw.startId, today: '03.02.2027' });
    await found.release();
    assert.equal(readRunningGateway(stateDir)?.pid, process.pid, 'letting go of a running gateway does not stop it');
  });
});

test('an announced gateway that does not answer is not used, and the error says why', async () => {
  const stateDir = tempStateDir();
  try {
    // A live process (this one) announces an address where nothing listens.
    const lock = { pid: process.pid, startedAt: new Date().toISOString(), baseUrl: 'http://127.0.0.1:1/paygate' };
    const running = { ...lock, reportBaseUrl: 'http://127.0.0.1:1/reports', origin: 'http://127.0.0.1:1', adminToken: 'x', kind: 'server' };
    fs.writeFileSync(path.join(stateDir, RUNNING_FILE), JSON.stringify(running), { mode: 0o600 });
    const reasons: string[] = [];
    await assert.rejects(
      findOrStartLocalGateway({ ...options(stateDir), note: (r) => reasons.push(r) }),
      (err: Error) => err instanceof LocalGatewayUnusableError && /did not answer/.test(err.message),
    );
    assert.match(reasons.join('\n'), /did not answer/);
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test("another command's one-shot gateway is waited for: a start follows its end, or the wait runs out", async () => {
  const stateDir = tempStateDir();
  try {
    const oneShot = await startLocalGateway({ ...options(stateDir), oneShot: true });
    // Used like any other without the wait, waited for with it.
    const used = await findOrStartLocalGateway(options(stateDir));
    assert.equal(used.kind, 'running');
    await used.release();
    await assert.rejects(findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 200 }), StateDirLockedError);
    // The look happens at once, before the first await: the one-shot gateway ends while the call waits.
    const waiting = findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 20_000 });
    await oneShot.close();
    const found = await waiting;
    assert.equal(found.kind, 'started');
    await found.release();
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('clients: a lease per user while it uses the gateway, gone with release() or with its process', async () => {
  await withGateway(async (_gw, stateDir) => {
    const editor = await findOrStartLocalGateway({ ...options(stateDir), client: { face: 'editor', label: 'VS Code (shop)' } });
    const command = await findOrStartLocalGateway({ ...options(stateDir), client: { face: 'cli', label: 'paygate submit' } });
    assert.deepEqual(
      gatewayClients(stateDir).map((c) => [c.face, c.label, c.pid]),
      [
        ['editor', 'VS Code (shop)', process.pid],
        ['cli', 'paygate submit', process.pid],
      ],
    );
    await command.release();
    await command.release();
    assert.deepEqual(
      gatewayClients(stateDir).map((c) => c.label),
      ['VS Code (shop)'],
    );
    // A process that ended without letting go (killed, crashed): its lease is stale and removed when read.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    takeClientLease(stateDir, { face: 'cli', label: 'paygate report' }, gone);
    assert.equal(fs.readdirSync(path.join(stateDir, CLIENTS_DIR)).length, 2);
    assert.deepEqual(
      gatewayClients(stateDir).map((c) => c.label),
      ['VS Code (shop)'],
    );
    assert.equal(fs.readdirSync(path.join(stateDir, CLIENTS_DIR)).length, 1, 'the stale lease was removed');
    await editor.release();
    assert.deepEqual(gatewayClients(stateDir), []);
  });
});
