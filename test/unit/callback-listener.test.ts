// The callback listener in process: masked entries, the bounded store, forwarding (and a handler that is
// down or slow), replay, and bad input (huge body, malformed form, a sender that stalls) answered with a
// 4xx while the listener keeps serving. Every server binds 127.0.0.1 and is closed by its test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackBody } from '../../src/core/callbacks';
import { CallbackStore, replayEntry, startCallbackListener, type CallbackEntry } from '../../src/callback-listener';
import { loopbackHandler, postCallback as post } from '../fixtures/callbacks/loopbackHandler';

const KEY = 'test-control-key';
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-cb-'));

const signed = (clientOrderId: string, key = KEY) =>
  callbackBody({ status: 'approved', orderid: '77', 'client-orderid': clientOrderId, amount: '9.990', currency: 'EUR' }, key);

test('each call: 200 OK, fields decoded and masked, control checked, kept in the store without card data', async () => {
  const dir = tempDir();
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    assert.match(l.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.deepEqual(await post(`${l.url}cb?x=1`, signed('A-1')), { status: 200, text: 'OK' });
    await post(l.url, signed('A-2', 'wrong key'));
    await post(l.url, `status=approved&client-orderid=A-3&credit-card-number=4111111111111111&cvv2=123`);
    assert.deepEqual(
      calls.map((c) => [c.fields['client-orderid'], c.control, c.path]),
      [
        ['A-1', 'valid', '/cb?x=1'],
        ['A-2', 'invalid', '/'],
        ['A-3', 'absent', '/'],
      ],
    );
    assert.equal(calls[2].fields['credit-card-number'], '411111******1111');
    assert.equal(calls[2].fields['cvv2'], undefined);
    assert.equal(calls[2].masked, true);
    assert.equal(calls[0].masked, false);
    assert.equal(calls[0].body, signed('A-1'), 'a callback is kept byte for byte');
    const atRest = fs.readFileSync(path.join(dir, 'callbacks.jsonl'), 'utf8');
    assert.doesNotMatch(atRest, /4111111111111111/);
    assert.doesNotMatch(atRest, /cvv2=123/);
    assert.equal(fs.statSync(path.join(dir, 'callbacks.jsonl')).mode & 0o777, 0o600);
    assert.deepEqual(
      new CallbackStore(dir).list().map((e) => e.id),
      calls.map((c) => c.id),
    );
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the store keeps the newest entries only and never grows past twice its bound', async () => {
  const dir = tempDir();
  const store = new CallbackStore(dir, 5);
  const l = await startCallbackListener({ store });
  try {
    for (let i = 0; i < 23; i++) await post(l.url, signed(`N-${i}`));
    const kept = store.list();
    assert.deepEqual(
      kept.map((e) => e.fields['client-orderid']),
      ['N-18', 'N-19', 'N-20', 'N-21', 'N-22'],
    );
    const lines = [store.file, store.previousFile].map((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).length);
    assert.ok(lines[0] + lines[1] <= 10, `${lines.join(' + ')} lines on disk for a bound of 5`);
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--forward-to passes the call on unchanged and answers with the handler; a replay reaches it again byte for byte', async () => {
  const dir = tempDir();
  const h = await loopbackHandler({ status: 201 });
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ forwardTo: h.url, controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    const body = signed('F-1');
    const r = await post(`${l.url}notify?a=b`, body, { 'x-custom': 'kept' }, 'PUT');
    assert.deepEqual(r, { status: 201, text: 'handled 1' });
    assert.equal(h.seen[0].method, 'PUT');
    assert.equal(h.seen[0].url, '/hook/notify?a=b');
    assert.equal(h.seen[0].headers['x-custom'], 'kept');
    assert.equal(h.seen[0].body.toString(), body);
    assert.equal(calls[0].forwarded?.status, 201);
    const replayed = await replayEntry(new CallbackStore(dir).get(calls[0].id)!, h.url);
    assert.ok(replayed.ok && replayed.status === 201);
    assert.equal(h.seen.length, 2);
    assert.ok(h.seen[1].body.equals(h.seen[0].body), 'the replay sent the same bytes');
    assert.equal(h.seen[1].url, '/hook/notify?a=b');
    assert.equal(h.seen[1].method, 'PUT');
  } finally {
    await l.close();
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a forward target that is down, or slow, gets the caller a 502 said on the line; the listener keeps serving', async () => {
  const down = await loopbackHandler();
  const downUrl = down.url;
  await down.close();
  const slow = await loopbackHandler({ hold: true });
  const calls: CallbackEntry[] = [];
  const l1 = await startCallbackListener({ forwardTo: downUrl, onCall: (e) => calls.push(e) });
  const l2 = await startCallbackListener({ forwardTo: slow.url, forwardTimeoutMs: 200, onCall: (e) => calls.push(e) });
  try {
    const r1 = await post(l1.url, signed('D-1'));
    assert.equal(r1.status, 502);
    assert.match(r1.text, /unreachable/);
    const r2 = await post(l2.url, signed('S-1'));
    assert.equal(r2.status, 502);
    assert.match(r2.text, /no answer within 200 ms/);
    assert.deepEqual(
      calls.map((c) => [c.forwarded?.status, /unreachable|no answer/.test(c.forwarded?.error ?? '')]),
      [
        [502, true],
        [502, true],
      ],
    );
    assert.equal((await post(l1.url, signed('D-2'))).status, 502, 'still serving');
  } finally {
    await l1.close();
    await l2.close();
    await slow.close();
  }
});

test('bad input gets a clear line and a 4xx, and the listener keeps serving', async () => {
  const rejected: string[] = [];
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({
    maxBodyBytes: 1024,
    bodyTimeoutMs: 300,
    onRejected: (x) => rejected.push(x),
    onCall: (e) => calls.push(e),
  });
  try {
    assert.equal((await post(l.url, 'a=' + 'x'.repeat(5000))).status, 413);
    assert.equal((await post(l.url, 'status=approved&bad=%zz')).status, 400);
    // A slow sender: headers promise 100 bytes, 5 arrive, then nothing.
    const slow = net.connect(l.port, '127.0.0.1');
    slow.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nstatu`);
    let answer = '';
    slow.setEncoding('utf8');
    slow.on('data', (d: string) => (answer += d));
    await new Promise((r) => slow.once('close', r));
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.equal(rejected.length, 3);
    assert.match(rejected[0], /refused 413: a body of \d+ bytes is over the 1024-byte limit/);
    assert.match(rejected[1], /refused 400: malformed form/);
    assert.match(rejected[2], /refused 408: the sender did not finish its body within 300 ms/);
    assert.deepEqual(await post(l.url, signed('OK-1')), { status: 200, text: 'OK' });
    assert.deepEqual(
      calls.map((c) => c.fields['client-orderid']),
      ['OK-1'],
    );
  } finally {
    await l.close();
  }
});

test('200 concurrent calls are each answered and each kept once', async () => {
  const dir = tempDir();
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(l.url, signed(`C-${i}`))));
    assert.ok(answers.every((a) => a.status === 200));
    assert.equal(new Set(calls.map((c) => c.fields['client-orderid'])).size, 200);
    assert.ok(calls.every((c) => c.control === 'valid'));
    assert.equal(new CallbackStore(dir).list().length, 200);
    assert.equal(new Set(calls.map((c) => c.id)).size, 200, 'ids are unique');
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
