// Finding or starting the local gateway of a state directory (local-gateway/finding.ts), as the editor's
// `local` (checkAnswers) and the CLI's commands (waitForOneShotMs) both do it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findOrStartLocalGateway, startLocalGateway, RUNNING_FILE, StateDirLockedError } from '../../src/local-gateway';
import { START, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';

const options = (stateDir: string) => ({ stateDir, port: 0, initialDate: START });

test('with no gateway on the state directory, one is started in this process', async () => {
  const stateDir = tempStateDir();
  try {
    const found = await findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 1_000 });
    assert.equal(found.kind, 'started');
    if (found.kind === 'started') await found.gateway.close();
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test("a running gateway is used: as announced (CLI), or once it answers as the directory's merchant (editor)", async () => {
  await withGateway(async (gw, stateDir) => {
    const announced = await findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 1_000 });
    assert.equal(announced.kind, 'announced');
    if (announced.kind === 'announced') assert.equal(announced.running.baseUrl, gw.baseUrl);
    const reasons: string[] = [];
    const answering = await findOrStartLocalGateway({ ...options(stateDir), checkAnswers: true, note: (r) => reasons.push(r) });
    assert.equal(answering.kind, 'answering');
    if (answering.kind === 'answering') {
      assert.equal(answering.handle.environment.baseUrl, gw.baseUrl);
      assert.equal(answering.handle.merchant.consumerKey, gw.merchant.consumerKey);
    }
    assert.match(reasons.join('\n'), /using the paygate gateway/);
  });
});

test('an announced gateway that does not answer is not trusted when checkAnswers is set', async () => {
  const stateDir = tempStateDir();
  try {
    // A live process (this one) announces an address where nothing listens.
    const lock = { pid: process.pid, startedAt: new Date().toISOString(), baseUrl: 'http://127.0.0.1:1/paygate' };
    const running = { ...lock, reportBaseUrl: 'http://127.0.0.1:1/reports', origin: 'http://127.0.0.1:1', adminToken: 'x', kind: 'server' };
    fs.writeFileSync(path.join(stateDir, RUNNING_FILE), JSON.stringify(running), { mode: 0o600 });
    const reasons: string[] = [];
    await assert.rejects(
      findOrStartLocalGateway({ ...options(stateDir), checkAnswers: true, note: (r) => reasons.push(r) }),
      StateDirLockedError,
    );
    assert.match(reasons.join('\n'), /did not answer/);
    const announced = await findOrStartLocalGateway(options(stateDir));
    assert.equal(announced.kind, 'announced', 'without the check the announcement is trusted, as the CLI always did');
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test("another command's one-shot gateway is waited for: a start follows its end, or the wait runs out", async () => {
  const stateDir = tempStateDir();
  try {
    const oneShot = await startLocalGateway({ ...options(stateDir), oneShot: true });
    // Used like any other without the wait (the editor), waited for with it (the CLI).
    assert.equal((await findOrStartLocalGateway(options(stateDir))).kind, 'announced');
    await assert.rejects(findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 200 }), StateDirLockedError);
    // The look happens at once, before the first await: the one-shot gateway ends while the call waits.
    const waiting = findOrStartLocalGateway({ ...options(stateDir), waitForOneShotMs: 20_000 });
    await oneShot.close();
    const found = await waiting;
    assert.equal(found.kind, 'started');
    if (found.kind === 'started') await found.gateway.close();
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});
