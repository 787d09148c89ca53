// The local gateway's state-directory lock against holders that can no longer hold anything: a process
// that has exited but was never reaped (a zombie, as under a container's PID 1 that does not wait).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { once } from 'node:events';
import { StateDirLockedError, RUNNING_FILE } from '../../src/local-gateway/running';
import { START, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';
import { WAIT_MS } from '../fixtures/deadlines';

const linux = process.platform === 'linux';

function procState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 1).trimStart()[0];
  } catch {
    return undefined;
  }
}

function writeLock(stateDir: string, pid: number): void {
  const lock = {
    pid,
    startedAt: new Date().toISOString(),
    baseUrl: 'http://127.0.0.1:1',
    reportBaseUrl: 'http://127.0.0.1:1',
    origin: '',
    adminToken: 'x',
    kind: 'server',
  };
  fs.writeFileSync(path.join(stateDir, RUNNING_FILE), JSON.stringify(lock), { mode: 0o600 });
}

test('a zombie lock holder (exited, never reaped) does not block a start', { skip: !linux && 'needs /proc' }, async () => {
  // The shell starts a child that exits at once, then becomes `sleep`, which never waits for it: the
  // child stays a zombie of a live parent until the sleep is killed (bounded by its 30 s regardless).
  const parent = spawn('sh', ['-c', 'sh -c "sleep 0.3" & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stateDir = tempStateDir();
  try {
    const [first] = (await once(parent.stdout, 'data')) as [Buffer];
    const zombie = Number(first.toString().trim());
    assert.ok(Number.isSafeInteger(zombie) && zombie > 0, `child pid ${first.toString()}`);
    const deadline = Date.now() + WAIT_MS;
    while (procState(zombie) !== 'Z' && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    assert.equal(procState(zombie), 'Z', 'the child became a zombie');
    // It still answers kill(pid, 0), which alone would call it alive.
    assert.doesNotThrow(() => process.kill(zombie, 0));
    writeLock(stateDir, zombie);
    await withGateway(
      async (gw) => {
        assert.match(gw.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\//);
        const lock = JSON.parse(fs.readFileSync(path.join(stateDir, RUNNING_FILE), 'utf8')) as { pid: number };
        assert.equal(lock.pid, process.pid, 'the stale lock was taken over');
      },
      { stateDir, initialDate: START },
    );
  } finally {
    parent.kill('SIGKILL');
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a live lock holder still blocks a start, whatever its /proc state', async () => {
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { stdio: 'ignore' });
  const stateDir = tempStateDir();
  try {
    assert.ok(holder.pid);
    writeLock(stateDir, holder.pid);
    await assert.rejects(
      withGateway(async () => undefined, { stateDir, initialDate: START }),
      (err: Error) => err instanceof StateDirLockedError && err.message.includes(`process ${holder.pid}`),
    );
  } finally {
    holder.kill('SIGKILL');
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});
