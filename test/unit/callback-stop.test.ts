// A sender that stalls gets 408, whether its headers or its body never finish; stopping the listener
// answers the calls in flight first (a forward in flight gets its handler's answer), and a call still
// unanswered after the drain time gets 503 saying so, never a cut connection. Every server binds
// 127.0.0.1 and is closed by its test; every wait has a deadline.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as net from 'node:net';
import { startCallbackListener, type CallbackEntry } from '../../src/callback-listener';
import { loopbackHandler, postCallback } from '../fixtures/callbacks/loopbackHandler';

const post = (url: string) => postCallback(url, 'status=approved&client-orderid=S-1');
import { PROCESS_MS, WAIT_MS } from '../fixtures/deadlines';

/** What a raw connection got back before it closed (or by the deadline); `written` once its bytes are sent. */
function rawCall(port: number, sent: string, deadlineMs = 10_000): { written: Promise<void>; answer: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  const written = new Promise<void>((r) => socket.write(sent, () => r()));
  return { written, answer: answerOf(socket, deadlineMs) };
}

const rawAnswer = (port: number, sent: string) => rawCall(port, sent).answer;

async function answerOf(socket: net.Socket, deadlineMs: number): Promise<string> {
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (answer += d));
  socket.on('error', () => undefined);
  const timer = setTimeout(() => socket.destroy(), deadlineMs);
  await once(socket, 'close');
  clearTimeout(timer);
  return answer;
}

test(
  'a sender whose headers never finish gets 408 and one line saying so; the listener keeps serving',
  { timeout: PROCESS_MS },
  async () => {
    const rejected: string[] = [];
    const l = await startCallbackListener({ bodyTimeoutMs: 300, onRejected: (x) => rejected.push(x) });
    try {
      const answer = await rawAnswer(l.port, 'POST /notify HTTP/1.1\r\nhost: x\r\ncontent-le');
      assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(answer, /the sender did not finish its request headers within 300 ms\n$/);
      assert.equal(rejected.length, 1);
      assert.match(rejected[0], /refused 408: the sender did not finish its request headers/);
      const body = await rawAnswer(l.port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nstatu');
      assert.match(body, /^HTTP\/1\.1 408/);
      assert.match(await rawAnswer(l.port, 'NOT HTTP AT ALL\r\n\r\n'), /^HTTP\/1\.1 400/);
    } finally {
      await l.close();
    }
  },
);

test('stopping answers a forward in flight with its handler answer before it closes', async () => {
  const h = await loopbackHandler({ hold: true });
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ forwardTo: h.url, onCall: (e) => calls.push(e) });
  try {
    const answer = post(l.url);
    await h.arrived(1, WAIT_MS);
    let closed = false;
    const closing = l.close().then(() => (closed = true));
    // The listener no longer takes new connections, but the call in flight is still waiting for its answer.
    await assert.rejects(post(l.url), /ECONNREFUSED/);
    assert.equal(closed, false);
    h.held[0].writeHead(202).end('handled late');
    assert.deepEqual(await answer, { status: 202, text: 'handled late' });
    await closing;
    assert.deepEqual(
      calls.map((c) => c.forwarded?.status),
      [202],
    );
  } finally {
    await l.close();
    await h.close();
  }
});

test('a forward still unanswered after the drain time gets 503 saying its fate is unknown; a half-sent body gets 503', async () => {
  const h = await loopbackHandler({ hold: true });
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ forwardTo: h.url, drainMs: 200, onCall: (e) => calls.push(e) });
  try {
    // The half-sent call's bytes are out before the forwarded one connects, so the listener has read them
    // by the time the forwarded call reaches the handler (it then waits 10 s for the rest of its body).
    const half = rawCall(l.port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nstatu');
    await half.written;
    const answer = post(l.url);
    await h.arrived(1, WAIT_MS);
    await l.close();
    const r = await answer;
    assert.equal(r.status, 503);
    assert.match(r.text, /the listener stopped before the handler answered \(the handler may have received the call\)/);
    assert.match(await half.answer, /^HTTP\/1\.1 503[^]*the listener stopped before the call was answered/);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].forwarded?.status, 503);
  } finally {
    await l.close();
    await h.close();
  }
});
