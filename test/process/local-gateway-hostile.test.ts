// Regression fixtures for the attacks on the local gateway (issue 10): turned on itself through a
// callback address, admin without its token, large bodies without a signature, malformed OAuth
// headers, replays across restarts, ids after restarts, a torn journal. A signed body over the maximum
// is read and answered, not cut off: local-gateway-oversize.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startLocalGateway } from '../../src/local-gateway';
import { CallbackQueue } from '../../src/local-gateway/callbacks';
import { loopbackTarget } from '../../src/local-gateway/callbackTarget';
import type { ChargeEvent, StoredPayment } from '../../src/local-gateway/types';
import { admin, batch, createUrl, formFields, postCreate, START, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';

/** A loopback receiver that counts requests and never answers them (until closed). */
async function silentReceiver() {
  const seen: { url: string; closedByClient: Promise<void> }[] = [];
  let first!: () => void;
  const firstRequest = new Promise<void>((r) => (first = r));
  const server = http.createServer((req) => {
    seen.push({ url: req.url ?? '', closedByClient: new Promise((r) => req.socket.once('close', () => r())) });
    first();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    seen,
    /** Resolves at the first request; rejects after `ms`. */
    firstRequest: (ms: number) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no callback within ${ms} ms`)), ms);
        void firstRequest.then(() => {
          clearTimeout(t);
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

test('a notify_url pointing at the gateway itself (admin or not) is skipped: the clock does not move', async () => {
  await withGateway(async (gw, _dir, logs) => {
    const rows = [
      { 'client-orderid': 'SELF-1', notify_url: `${gw.origin}/_local/advance?days=3660` },
      { 'client-orderid': 'SELF-2', notify_url: `http://localhost:${gw.port}/paygate/anything` },
      { 'client-orderid': 'SELF-3', notify_url: `http://127.0.0.1:${gw.port}//_sim/payments/7000001/stop` },
    ].map((r) => ({ ...r, 'start-date': '01.02.2027', period: 'day', interval: '1', 'max-repeats-number': '2' }));
    assert.equal((await postCreate(gw, batch(rows))).status, 200);
    const r = await gw.advanceDays(1);
    assert.equal(r.today, '01.02.2027');
    assert.deepEqual(
      r.callbacks.map((c) => [c.outcome, c.detail]),
      [
        ['skipped', "the local gateway's own port"],
        ['skipped', "the local gateway's own port"],
        ['skipped', "the local gateway's own port"],
      ],
    );
    assert.deepEqual(gw.today(), { year: 2027, month: 2, day: 1 }, 'no callback advanced the clock');
    assert.ok(
      gw.payments().every((p) => p.status === 'active'),
      'no callback stopped a payment',
    );
    assert.ok(logs.some((l) => l.includes('callback skipped') && l.includes('/_local/advance')));
  });
});

test("a callback to another gateway's admin path is skipped: one row cannot stop someone else's payment", async () => {
  await withGateway(async (victim) => {
    const victimId = formFields((await postCreate(victim, batch([{ 'start-date': '01.02.2027', period: 'day', interval: '1' }]))).text)[
      'recurring-payment-id'
    ];
    await withGateway(async (attacker) => {
      const row = {
        notify_url: `http://127.0.0.1:${victim.port}/_sim/payments/${victimId}/stop`,
        'start-date': '01.02.2027',
        period: 'day',
        interval: '1',
        'max-repeats-number': '1',
      };
      await postCreate(attacker, batch([row]));
      const r = await attacker.advanceDays(1);
      assert.deepEqual(
        r.callbacks.map((c) => [c.outcome, c.detail]),
        [['skipped', 'an admin path (/_local/… or /_sim/…)']],
      );
    });
    assert.equal(victim.payments()[0].status, 'active');
  });
});

test('callback policy: loopback http from port 1024, never the own ports, admin paths in any spelling, or user:password@', () => {
  const reason = (u: string, own: number[] = []) => {
    const t = loopbackTarget(u, own);
    return t.ok ? 'ok' : t.reason;
  };
  assert.equal(reason('http://127.0.0.1:8080/cb'), 'ok');
  assert.equal(reason('http://127.0.0.1:8080/cb', [8080]), "the local gateway's own port");
  assert.equal(reason('http://localhost:8080/x', [8080]), "the local gateway's own port");
  assert.equal(reason('http://[::1]:8080/x', [8080]), "the local gateway's own port");
  for (const p of ['/_sim/advance', '/_SIM/advance', '/%5Fsim/advance', '/a/../_sim/advance', '//_sim/advance', '/_sim']) {
    assert.equal(reason(`http://127.0.0.1:9000${p}`), 'an admin path (/_local/… or /_sim/…)', p);
    const current = p.replace(/sim/i, 'local');
    assert.equal(reason(`http://127.0.0.1:9000${current}`), 'an admin path (/_local/… or /_sim/…)', current);
  }
  assert.equal(reason('http://127.0.0.1:9000/_simulator'), 'ok', 'only the admin prefix itself');
  assert.equal(reason('http://127.0.0.1:9000/_locale'), 'ok', 'only the admin prefix itself');
  assert.match(reason('http://127.0.0.1/cb'), /below 1024/);
  assert.match(reason('http://127.0.0.1:25/cb'), /below 1024/);
  assert.match(reason('http://user:pw@127.0.0.1:9000/cb'), /user:password/);
  assert.equal(reason('http://0.0.0.0:9000/cb'), 'not a loopback address');
});

test('admin endpoints need the per-run token; a wrong, missing or old token is 401 and changes nothing', async () => {
  const stateDir = tempStateDir();
  try {
    let oldToken = '';
    await withGateway(
      async (gw) => {
        oldToken = gw.adminToken;
        assert.match(gw.adminToken, /^[A-Za-z0-9_-]{32}$/);
        assert.equal((await admin(gw, 'POST', '/_local/advance?days=30', null)).status, 401);
        assert.equal((await admin(gw, 'POST', '/_sim/advance?days=30', 'not-the-token')).status, 401);
        assert.equal((await admin(gw, 'GET', '/_local/payments', null)).status, 401);
        const raw = await fetch(`${gw.origin}/_sim/state`, { headers: { 'x-paygate-admin-token': gw.adminToken } });
        assert.equal(raw.status, 401, 'only the Authorization: Bearer header carries it');
        assert.deepEqual(gw.today(), START);
        assert.equal((await admin(gw, 'POST', '/_sim/advance?days=1')).status, 200);
      },
      { stateDir },
    );
    await withGateway(
      async (gw) => {
        assert.notEqual(gw.adminToken, oldToken, 'a new token on every start');
        assert.equal((await admin(gw, 'GET', '/_sim/state', oldToken)).status, 401);
      },
      { stateDir },
    );
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

/** Sends headers and the first part of a body, then waits for the answer before sending the rest. */
function answerBeforeBody(
  port: number,
  pathName: string,
  headers: Record<string, string>,
  total: number,
): Promise<{ head: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    let sent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer while the body was incomplete (${sent} of ${total} bytes sent)`));
    }, 10_000);
    socket.on('data', (d) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ head, sent });
      }
    });
    socket.on('error', (err) => {
      if (head === '') {
        clearTimeout(timer);
        reject(err);
      }
    });
    const lines = [
      `POST ${pathName} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      `content-length: ${total}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    socket.write(chunk);
    sent = chunk.length; // the other ~10 MB are never sent: the answer must come without them
  });
}

test('a 10 MB create without an Authorization header is refused (403) before its body is read', async () => {
  await withGateway(async (gw) => {
    const r = await answerBeforeBody(
      gw.port,
      new URL(createUrl(gw)).pathname,
      { 'content-type': 'application/x-www-form-urlencoded' },
      10 * 1024 * 1024,
    );
    assert.match(r.head, /^HTTP\/1\.1 403 /);
    assert.match(r.head, /\r\nconnection: close\r\n/i);
    assert.equal(gw.payments().length, 0);
  });
});

test('malformed Authorization headers are 403 (create) or the report denial, never 500', async () => {
  await withGateway(async (gw, _dir, logs) => {
    const headers = [
      'OAuth %zz="1"',
      'OAuth oauth_consumer_key="%E0%A4%A"',
      'OAuth ="x"',
      'OAuth a="\\',
      'Bearer abc',
      'OAuth',
      `OAuth ${'a="b",'.repeat(2000)}`,
      'OAuth oauth_consumer_key="demo-merchant",oauth_signature_method="RSA-SHA256",oauth_timestamp="1",oauth_nonce="n",oauth_signature="%%%"',
      'OAuth __proto__="x",constructor="y"',
    ];
    for (const authorization of headers) {
      const res = await fetch(createUrl(gw), {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payload=eA==',
      });
      assert.equal(res.status, 403, authorization.slice(0, 40));
      const rep = await fetch(`${gw.reportBaseUrl}/services/v2/rpt-engine`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(rep.status, 200, authorization.slice(0, 40));
      assert.equal(await rep.text(), 'You are not authorised to perform this request.');
    }
    assert.ok(!logs.some((l) => /-> 500/.test(l)), logs.filter((l) => /-> 500/.test(l)).join('\n'));
  });
});

test('a nonce used before a restart is refused after it (same port, same signed request)', async () => {
  const stateDir = tempStateDir();
  try {
    const ts = String(Math.floor(Date.now() / 1000));
    let port = 0;
    await withGateway(
      async (gw) => {
        port = gw.port;
        assert.equal((await postCreate(gw, batch([{}]), { timestamp: ts, nonce: 'once-only' })).status, 200);
      },
      { stateDir },
    );
    await withGateway(
      async (gw, _dir, logs) => {
        assert.equal(gw.port, port);
        const replay = await postCreate(gw, batch([{}]), { timestamp: ts, nonce: 'once-only' });
        assert.equal(replay.status, 403);
        assert.ok(logs.some((l) => l.includes('oauth_nonce already used')));
        assert.equal(gw.payments().length, 1);
        // A fresh nonce still works: the refusal was the replay, not the restart.
        assert.equal((await postCreate(gw, batch([{}]))).status, 200);
      },
      { stateDir, port },
    );
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('ids and serial numbers are never reused across restarts', async () => {
  const stateDir = tempStateDir();
  try {
    const ids = new Set<string>();
    const serials = new Set<string>();
    for (let run = 0; run < 3; run++) {
      await withGateway(
        async (gw) => {
          for (let i = 0; i < 2; i++) {
            const f = formFields(
              (await postCreate(gw, batch([{ 'client-orderid': `R${run}-${i}-A` }, { 'client-orderid': `R${run}-${i}-B` }]))).text,
            );
            for (const id of f['recurring-payment-id'].split(',')) {
              assert.ok(!ids.has(id), `id ${id} handed out twice`);
              ids.add(id);
            }
            assert.ok(!serials.has(f['serial-number']));
            serials.add(f['serial-number']);
          }
          assert.equal(gw.payments().length, ids.size);
        },
        { stateDir },
      );
    }
    assert.equal(ids.size, 12);
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a journal line torn by a crash is cut off: the state is that of the last whole commit', async () => {
  const stateDir = tempStateDir();
  try {
    const ids = await withGateway(
      async (gw) => {
        await postCreate(gw, batch([{ 'client-orderid': 'KEEP-1' }]));
        await postCreate(gw, batch([{ 'client-orderid': 'KEEP-2' }]));
        return gw.payments().map((p) => p['recurring-payment-id']);
      },
      { stateDir },
    );
    const journal = path.join(stateDir, 'journal.ndjson');
    const whole = fs.readFileSync(journal);
    // What kill -9 in the middle of a write leaves: the first part of a commit line, no newline.
    fs.appendFileSync(journal, '{"seq":99,"today":"01.01.2099","ids":[1,1,1],"created":[{"recurring-payment-id":"TORN"');
    await withGateway(
      async (gw, _dir, logs) => {
        assert.deepEqual(
          gw.payments().map((p) => p['recurring-payment-id']),
          ids,
        );
        assert.deepEqual(gw.today(), START);
        assert.ok(logs.some((l) => /cut off \d+ byte/.test(l)));
        assert.deepEqual(fs.readFileSync(journal).subarray(0, whole.length), whole, 'the whole lines are kept as they were');
        const next = formFields((await postCreate(gw, batch([{ 'client-orderid': 'AFTER' }]))).text)['recurring-payment-id'];
        assert.ok(!ids.includes(next));
      },
      { stateDir },
    );
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('closing the gateway does not wait for a callback receiver that never answers', async () => {
  const rx = await silentReceiver();
  try {
    const logs: string[] = [];
    const stateDir = tempStateDir();
    const gw = await startLocalGateway({ stateDir, port: 0, initialDate: START, log: (l) => logs.push(l) });
    try {
      // Three charges made on creation day, each with a callback to a receiver that holds the request.
      await postCreate(gw, batch(['A', 'B', 'C'].map((c) => ({ 'client-orderid': `SLOW-${c}`, notify_url: rx.url }))));
      await rx.firstRequest(15_000);
      assert.equal(rx.seen.length, 1, 'one callback in flight, the others waiting in order');
    } finally {
      await gw.close();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
    await rx.seen[0].closedByClient; // the gateway aborted it rather than waiting for its timeout
    assert.equal(rx.seen.length, 1, 'no retry and no further callback after close');
    assert.ok(
      logs.some((l) => l.includes('2 callback(s) not sent: the local gateway stopped')),
      logs.join('\n'),
    );
  } finally {
    await rx.close();
  }
});

test('the callback queue is bounded: past its size callbacks are dropped and counted, not held', async () => {
  const rx = await silentReceiver();
  const logs: string[] = [];
  const q = new CallbackQueue(
    () => [],
    (l) => logs.push(l),
    3,
  );
  try {
    const payment = { 'recurring-payment-id': '1', 'serial-number': 's', callbackUrl: rx.url } as StoredPayment;
    const event = (index: number): ChargeEvent => ({
      transactionId: String(1000 + index),
      'recurring-payment-id': '1',
      'client-orderid': 'Q',
      index,
      date: '01.02.2027',
      amount: '1.000',
      currency: 'EUR',
      status: 'approved',
    });
    const queued = Array.from({ length: 10 }, (_, i) => q.enqueue(payment, event(i)));
    // The first one leaves at once and frees its place: 1 sending + 3 waiting, 6 dropped.
    assert.equal(queued.filter(Boolean).length, 4);
    assert.equal(q.dropped, 6);
    assert.ok(logs.some((l) => l.includes('callback queue full')));
    q.close();
    const results = await Promise.all(queued.filter((p) => p !== undefined));
    assert.deepEqual(
      results.map((r) => r.detail),
      Array(4).fill('the local gateway stopped'),
    );
  } finally {
    await rx.close();
  }
});
