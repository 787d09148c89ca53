import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { loggedMessage } from '../e2e/console';
import { cleanupAll, spawnTracked } from '../e2e/processes';
import { WAIT_MS } from '../fixtures/deadlines';

test('loggedMessage takes the message out of the workbench log format', () => {
  // msg.text() joins console arguments with spaces: format, CSS, message.
  assert.equal(loggedMessage('%c INFO color: #33f 3 passed, 0 failed'), '3 passed, 0 failed');
  assert.equal(loggedMessage('%c  ERR color: #f33 an error line\nsecond line'), 'an error line\nsecond line');
  assert.equal(loggedMessage('%c INFO color: #33f '), '');
  // The browser's own lines are not the suite's.
  assert.equal(loggedMessage('Failed to load resource: the server responded with a status of 404 (Not Found)'), undefined);
  assert.equal(loggedMessage('[Extension Host] something'), undefined);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('cleanupAll stops a tracked process and the processes it started', async () => {
  // The shell prints its background child's pid, then waits: two processes in one group.
  const child = spawnTracked('test group', 'sh', ['-c', 'sleep 300 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const grandchild = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  assert.ok(alive(child.pid!) && alive(grandchild), 'both processes run before cleanup');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await cleanupAll();
  await exited;
  // SIGKILL to the group is synchronous from our side; the grandchild is gone or a zombie being reaped by init.
  const deadline = Date.now() + WAIT_MS;
  while (alive(grandchild) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  assert.equal(alive(grandchild), false, 'the grandchild was stopped with its group');
});
