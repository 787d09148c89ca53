import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDiff, runForecast, runQueryCommand, runReconcile, runSchedule, runSign, runTrust } from '../fixtures/cli/commands';
import { captured } from '../fixtures/cli/context';
import { readRegularFile, readRegularFileSync } from '../../src/core/regularFile';
import { textPieces } from '../../src/core/textFile';

// Issue 40: every file input goes through the one check in the core (core/regularFile.ts) and refuses
// what is not a regular file at once, naming it: a FIFO without a writer (a plain open would wait for one
// for ever), /dev/zero (read until memory ran out) and a directory. Each test has a deadline: a hang fails.

let dir = '';
let fifo = '';
let folder = '';
const BATCH = 'client-orderid;amount;currency\nA-1;1.00;EUR\n';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-inputs-'));
  fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  folder = join(dir, 'folder');
  mkdirSync(folder);
  writeFileSync(join(dir, 'b.rpcsv'), BATCH);
  writeFileSync(join(dir, 'r.csv'), '"Transaction_id","Amount","Currency"\r\n"1","1.00","EUR"\r\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const NOT_REGULAR = 'cannot read: not a regular file';
const DIRECTORY = 'cannot read: is a directory';

async function refuses(run: (args: string[], ctx: ReturnType<typeof captured>['ctx']) => Promise<number>, args: (bad: string) => string[]) {
  for (const [bad, why] of [
    [fifo, NOT_REGULAR],
    ['/dev/zero', NOT_REGULAR],
    [folder, DIRECTORY],
  ]) {
    const { ctx, err } = captured({ cwd: dir });
    const code = await run(args(bad), ctx);
    assert.notEqual(code, 0, `${args(bad).join(' ')}`);
    assert.ok(err().includes(`${bad}: ${why}`), `${args(bad).join(' ')}: ${err()}`);
  }
}

describe('every file input refuses what is not a regular file, at once, naming it', { timeout: 60_000 }, () => {
  it('the core: whole files, at once or in pieces', async () => {
    for (const bad of [fifo, '/dev/zero']) {
      await assert.rejects(readRegularFile(bad, bad), { message: `${bad}: ${NOT_REGULAR} (a device, FIFO or socket); give a file` });
      assert.throws(() => readRegularFileSync(bad, bad), { message: `${bad}: ${NOT_REGULAR} (a device, FIFO or socket); give a file` });
      await assert.rejects(async () => {
        for await (const piece of textPieces(bad)) assert.fail(`read ${piece.length} characters`);
      }, new RegExp(NOT_REGULAR));
    }
    await assert.rejects(readRegularFile(folder, 'folder'), { message: `folder: ${DIRECTORY}` });
  });

  it('paygate schedule', () => refuses(runSchedule, (bad) => [bad]));
  it('paygate reconcile --report', () => refuses(runReconcile, (bad) => ['--report', bad, 'b.rpcsv', '--state', join(dir, 'state')]));
  it('paygate reconcile, a batch', () => refuses(runReconcile, (bad) => ['--report', 'r.csv', bad, '--state', join(dir, 'state')]));
  it('paygate query', () => refuses(runQueryCommand, (bad) => [bad]));
  it('paygate diff, either side', async () => {
    await refuses(runDiff, (bad) => [bad, '--against', 'b.rpcsv']);
    await refuses(runDiff, (bad) => ['b.rpcsv', '--against', bad]);
  });
  it('paygate forecast', () => refuses(runForecast, (bad) => [bad]));
  it('paygate sign --rsa-key', () =>
    refuses(runSign, (bad) => ['--method', 'GET', '--url', 'https://example.test/x', '--consumer-key', 'k', '--rsa-key', bad]));
  it('paygate trust', () => refuses(runTrust, (bad) => [bad]));
});
