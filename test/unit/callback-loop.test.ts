// Forwarding loops: a forward target that is the listener itself, in any spelling of its address and port,
// is refused at start (`paygate listen` exits 2 naming it); a loop through other hops is stopped by the
// hop header each listener adds: the call that comes back gets 508 Loop Detected. Every server binds
// 127.0.0.1 and is closed by its test; a loop that was not stopped ends at the forward timeout.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startCallbackListener, type CallbackEntry, type CallbackListener } from '../../src/callback-listener';
import { runPaygate } from '../../src/cli/program';
import { loopbackHandler, postCallback } from '../fixtures/callbacks/loopbackHandler';

const post = (url: string) => postCallback(url, 'status=approved&client-orderid=L-1');
import { captured } from '../fixtures/cli/context';

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const SPELLINGS = [
  'http://127.0.0.1:PORT/hook',
  'http://localhost:PORT/',
  'http://LOCALHOST.:PORT/x',
  'http://[::1]:PORT/',
  'http://[0:0:0:0:0:0:0:1]:PORT/',
  'http://0x7f000001:PORT/',
  'http://2130706433:PORT/',
  'http://127.1:PORT/',
  'http://0177.0.0.1:PORT/',
  'http://127.0.0.1.:PORT/',
  'http://127.0.0.1:0PORT/',
];

test('a forward target that is the listener itself, in any spelling of its address and port, is refused at start', async () => {
  for (const spelling of SPELLINGS) {
    const port = await freePort();
    const target = spelling.replace('PORT', String(port));
    const started = await startCallbackListener({ port, forwardTo: target, forwardTimeoutMs: 300 }).then(
      (l) => l,
      (err: Error) => err,
    );
    if (!(started instanceof Error)) {
      await started.close();
      assert.fail(`${target}: the listener on ${port} started forwarding to itself`);
    }
    assert.match(started.message, /is this listener itself \(127\.0\.0\.1:\d+\)/, target);
    // The port is free again: nothing was left listening.
    await new Promise<void>((resolve, reject) => {
      const s = net.createServer().once('error', reject);
      s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
    });
  }
});

test('paygate listen --forward-to its own port exits 2 naming the target', async () => {
  const port = await freePort();
  // Were it to start, its SIGTERM comes after a while, so the test ends either way.
  const self = captured({ stopped: () => new Promise((r) => setTimeout(() => r('SIGTERM'), 3000)) });
  assert.equal(await runPaygate(['listen', '--port', String(port), '--forward-to', `http://localhost:${port}/hook`], self.ctx), 2);
  assert.match(self.err(), /--forward-to: http:\/\/localhost:\d+\/hook is this listener itself/);
  assert.equal(self.out(), '');
});

test('a loop through another listener is stopped by the hop header: the call that comes back gets 508', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const calls: CallbackEntry[] = [];
  const refused: string[] = [];
  const listeners: CallbackListener[] = [];
  try {
    for (const [port, to] of [
      [portA, portB],
      [portB, portA],
    ]) {
      listeners.push(
        await startCallbackListener({
          port,
          forwardTo: `http://127.0.0.1:${to}/`,
          forwardTimeoutMs: 500,
          onCall: (e) => calls.push(e),
          onRejected: (l) => refused.push(l),
        }),
      );
    }
    const [a, b] = listeners;
    const r = await post(a.url);
    assert.equal(r.status, 508);
    assert.match(r.text, new RegExp(`already forwarded by this listener \\(PayGate-Forwarded-By: ${a.id}, ${b.id}\\)`));
    assert.equal(refused.length, 1, refused.join('\n'));
    assert.match(refused[0], /refused 508/);
    // Each listener saw the call once and says what its handler (the other one) answered.
    assert.deepEqual(
      calls.map((c) => c.forwarded?.status),
      [508, 508],
    );
  } finally {
    for (const l of listeners) await l.close();
  }
});

test('each forwarded call carries the hop header with the listeners it passed, oldest first', async () => {
  const handler = await loopbackHandler({ path: '/', body: 'ok' });
  const hook = handler.url;
  const b = await startCallbackListener({ forwardTo: hook });
  const a = await startCallbackListener({ forwardTo: b.url });
  try {
    assert.equal((await post(a.url)).status, 200);
    assert.deepEqual(
      handler.seen.map((c) => c.headers['paygate-forwarded-by']),
      [`${a.id}, ${b.id}`],
    );
  } finally {
    await a.close();
    await b.close();
    await handler.close();
  }
});
