// The callback listener in process: masked entries, the bounded store, forwarding (and a handler that is
// down or slow), replay, and bad input (huge body, malformed form, a sender that stalls) answered with a
// 4xx while the listener keeps serving. Every server binds 127.0.0.1 and is closed by its test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackQuery } from '../../src/core/callbacks';
import { CallbackStore, entryLine, replayEntry, startCallbackListener, type CallbackEntry } from '../../src/callback-listener';
import { loopbackHandler, postCallback as post } from '../fixtures/callbacks/loopbackHandler';

const KEY = 'test-control-key';
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-cb-'));

const signed = (clientOrderId: string, key = KEY) =>
  callbackQuery({ type: 'sale', status: 'approved', orderid: '77', client_orderid: clientOrderId, amount: '9.990', currency: 'EUR' }, key);

test('each call: 200 OK, fields decoded and masked, control checked, kept in the store without card data', async () => {
  const dir = tempDir();
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    assert.match(l.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.deepEqual(await post(`${l.url}cb?x=1`, signed('A-1')), { status: 200, text: 'OK' });
    await post(l.url, signed('A-2', 'wrong key'));
    await post(l.url, `status=approved&client_orderid=A-3&credit-card-number=4111111111111111&cvv2=123`);
    assert.deepEqual(
      calls.map((c) => [c.fields['client_orderid'], c.control, c.path]),
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
      kept.map((e) => e.fields['client_orderid']),
      ['N-18', 'N-19', 'N-20', 'N-21', 'N-22'],
    );
    const lines = [store.file, store.previousFile].map((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).length);
    assert.ok(lines[0] + lines[1] <= 10, `${lines.join(' + ')} lines on disk for a bound of 5`);
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--forward-to passes the call on to the exact URL given (its query added) and answers with the handler; a replay reaches it again byte for byte', async () => {
  const dir = tempDir();
  const h = await loopbackHandler({ status: 201 });
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ forwardTo: h.url, controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    const body = signed('F-1');
    const r = await post(`${l.url}notify?a=b`, body, { 'x-custom': 'kept' }, 'PUT');
    assert.deepEqual(r, { status: 201, text: 'handled 1' });
    assert.equal(h.seen[0].method, 'PUT');
    // Issue 43: a forward to …/hook arrived at /hook/paygate-notify; it goes to /hook, the query kept.
    assert.equal(h.seen[0].url, '/hook?a=b');
    assert.equal(calls[0].forwarded?.url, `${h.url}?a=b`, 'the entry says the exact URL it went to');
    assert.equal(h.seen[0].headers['x-custom'], 'kept');
    assert.equal(h.seen[0].body.toString(), body);
    assert.equal(calls[0].forwarded?.status, 201);
    const replayed = await replayEntry(new CallbackStore(dir).get(calls[0].id)!, h.url);
    assert.ok(replayed.ok && replayed.status === 201);
    assert.equal(replayed.url, `${h.url}?a=b`);
    assert.equal(h.seen.length, 2);
    assert.ok(h.seen[1].body.equals(h.seen[0].body), 'the replay sent the same bytes');
    assert.equal(h.seen[1].url, '/hook?a=b');
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
      calls.map((c) => c.fields['client_orderid']),
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
    assert.equal(new Set(calls.map((c) => c.fields['client_orderid'])).size, 200);
    assert.ok(calls.every((c) => c.control === 'valid'));
    assert.equal(new CallbackStore(dir).list().length, 200);
    assert.equal(new Set(calls.map((c) => c.id)).size, 200, 'ids are unique');
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The gateway family's "Merchant Callbacks" documentation: the gateway calls the callback URL with an HTTP
// GET and the parameters in its query string (orderid, merchant_order, client_orderid, amount, status, type,
// control). Our POST variant (a form body) must read the same; a field in both places is one field.
test('a GET with the fields in its query string and a POST with them in a form body are read alike, control checked', async () => {
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ controlKey: KEY, onCall: (e) => calls.push(e) });
  try {
    const query = signed('G-1');
    const get = await fetch(`${l.url}paygate/notify?${query}`);
    assert.equal(get.status, 200);
    await get.arrayBuffer();
    await post(`${l.url}paygate/notify`, query);
    // A field in the query and the body: one field (the body's value), the query's others kept.
    await post(`${l.url}paygate/notify?shop=7&client_orderid=ignored`, signed('G-1'));
    assert.deepEqual(
      calls.map((c) => [c.method, c.fields['client_orderid'], c.fields['merchant_order'], c.fields['type'], c.control]),
      [
        ['GET', 'G-1', 'G-1', 'sale', 'valid'],
        ['POST', 'G-1', 'G-1', 'sale', 'valid'],
        ['POST', 'G-1', 'G-1', 'sale', 'valid'],
      ],
    );
    assert.deepEqual(calls[0].fields, calls[1].fields, 'the same fields whichever way they came');
    assert.equal(calls[2].fields['shop'], '7');
    const tampered = await fetch(`${l.url}?${query.replace('status=approved', 'status=declined')}`);
    await tampered.arrayBuffer();
    assert.equal(calls[3].control, 'invalid');
    const bad = await fetch(`${l.url}?orderid=%E0%A4%A`);
    assert.equal(bad.status, 400, 'a malformed query string is refused as a malformed form is');
    await bad.arrayBuffer();
  } finally {
    await l.close();
  }
});

// The family's documentation: the same callback may arrive twice; merchants tell repeats by status, type,
// orderid and client_orderid. The listener keeps both and marks the second as a repeat of the first.
test('a call repeating an earlier one is kept and marked repeatOf the first, also across listeners on one store', async () => {
  const dir = tempDir();
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ controlKey: KEY, store: new CallbackStore(dir), onCall: (e) => calls.push(e) });
  try {
    for (const id of ['R-1', 'R-2', 'R-1']) {
      const r = await fetch(`${l.url}?${signed(id)}`);
      await r.arrayBuffer();
    }
    assert.deepEqual(
      calls.map((c) => c.repeatOf),
      [undefined, undefined, calls[0].id],
    );
    assert.deepEqual(
      new CallbackStore(dir).list().map((e) => e.repeatOf),
      [undefined, undefined, calls[0].id],
      'kept with the mark',
    );
  } finally {
    await l.close();
  }
  // A second listener on the same store knows the first's calls.
  const again: CallbackEntry[] = [];
  const l2 = await startCallbackListener({ store: new CallbackStore(dir), onCall: (e) => again.push(e) });
  try {
    await post(l2.url, signed('R-2'));
    assert.equal(again[0].repeatOf, calls[1].id);
  } finally {
    await l2.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the repeat memory is bounded like the store: a key past the bound is forgotten', async () => {
  const dir = tempDir();
  const store = new CallbackStore(dir, 3);
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ store, onCall: (e) => calls.push(e) });
  try {
    for (const id of ['B-1', 'B-2', 'B-3', 'B-4', 'B-4', 'B-1']) await post(l.url, signed(id));
    assert.equal(calls[4].repeatOf, calls[3].id, 'a recent call is still known');
    assert.equal(calls[5].repeatOf, undefined, 'B-1 fell out of the bound of 3');
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a store written in the old shape (POST form, client-orderid) stays readable, its control and repeats recognised', async () => {
  const dir = tempDir();
  const old = {
    id: 'cb_old1',
    time: '2026-11-01T10:00:00.000Z',
    method: 'POST',
    path: '/paygate/notify',
    headers: [['content-type', 'application/x-www-form-urlencoded']],
    body: 'type=recurring-charge&status=approved&orderid=5&recurring-payment-id=5&client-orderid=OLD-1&amount=1.000&currency=EUR',
    masked: false,
    fields: { type: 'recurring-charge', status: 'approved', orderid: '5', 'recurring-payment-id': '5', 'client-orderid': 'OLD-1' },
    control: 'valid',
    forwarded: { status: 200, ms: 3 },
  };
  fs.writeFileSync(path.join(dir, 'callbacks.jsonl'), `${JSON.stringify(old)}\n`, { mode: 0o600 });
  const store = new CallbackStore(dir);
  const [e] = store.list();
  assert.equal(e.id, 'cb_old1');
  assert.equal(e.control, 'valid');
  assert.equal(e.forwarded?.status, 200);
  assert.match(entryLine(e), /approved {2}recurring-charge {2}client_orderid OLD-1 .*control: valid/);
  const calls: CallbackEntry[] = [];
  const l = await startCallbackListener({ store, onCall: (c) => calls.push(c) });
  try {
    await post(l.url, old.body);
    assert.equal(calls[0].repeatOf, 'cb_old1', 'the same callback again, in the old shape, is a repeat of the kept one');
    assert.match(entryLine(calls[0]), /\(repeat of cb_old1\)/);
  } finally {
    await l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
