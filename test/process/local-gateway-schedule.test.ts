// The local gateway's recurring payments on the simulated clock, and the callbacks they send.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackTarget } from '../../src/local-gateway/callbackTarget';
import { createHash } from 'node:crypto';
import { checkControl } from '../../src/core/callbacks';
import {
  admin,
  batch,
  DECLINED_CARD,
  formFields,
  postCreate,
  postReport,
  reportTemplate,
  withGateway,
} from '../fixtures/local-gateway/helpers';

/** A call as the receiver saw it: method, path (before `?`), the query's fields, and the body. */
interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
}

/** A loopback receiver that records each call (method, path, query fields, body) and answers with `status`. */
async function listener(status = 200) {
  const calls: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body });
      res.writeHead(status).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    port,
    calls,
    /** The fields of each call, from its query string (where the gateway puts them). */
    get received() {
      return calls.map((c) => c.query);
    },
    /** Waits (event-driven, with a deadline) until `n` callbacks have arrived. */
    async until(n: number, ms = 60_000) {
      const deadline = Date.now() + ms;
      while (calls.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${calls.length} of ${n} callbacks arrived`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.max(1, deadline - Date.now()));
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('monthly from the 31st: the charge falls on the month’s last day and later months return to the 31st; stop at max repeats', async () => {
  await withGateway(async (gw) => {
    // The simulated clock starts on 31.01.2027 and the start date is today, so charge 0 is made at once.
    const f = formFields(
      (await postCreate(gw, batch([{ 'start-date': '31.01.2027', period: 'month', interval: '1', 'max-repeats-number': '4' }]))).text,
    );
    const id = f['recurring-payment-id'];
    assert.deepEqual(
      gw.payments()[0].charges.map((c) => c.date),
      ['31.01.2027'],
    );

    const feb = await gw.advanceDays(28);
    assert.deepEqual(
      feb.charges.map((c) => [c.index, c.date]),
      [[1, '28.02.2027']],
    );
    const mar = await gw.advanceDays(31);
    assert.deepEqual(
      mar.charges.map((c) => [c.index, c.date]),
      [[2, '31.03.2027']],
    );
    assert.deepEqual(mar.stopped, []);
    const apr = await gw.advanceDays(30);
    assert.deepEqual(
      apr.charges.map((c) => [c.index, c.date]),
      [[3, '30.04.2027']],
    );
    assert.deepEqual(apr.stopped, [id], 'the fourth charge reaches max-repeats-number');
    const p = gw.payments()[0];
    assert.equal(p.status, 'stop');
    assert.equal(p.stopReason, 'max-repeats');
    assert.equal((await gw.advanceDays(90)).charges.length, 0, 'no charge after stop');
  });
});

test('declined charges count as repeats: a card ending in 0 stops after max-repeats-number declines', async () => {
  await withGateway(async (gw) => {
    await postCreate(
      gw,
      batch([{ 'credit-card-number': DECLINED_CARD, 'start-date': '01.02.2027', period: 'day', interval: '2', 'max-repeats-number': '3' }]),
    );
    const r = await gw.advanceDays(30);
    assert.deepEqual(
      r.charges.map((c) => [c.index, c.date, c.status]),
      [
        [0, '01.02.2027', 'declined'],
        [1, '03.02.2027', 'declined'],
        [2, '05.02.2027', 'declined'],
      ],
    );
    const p = gw.payments()[0];
    assert.equal(p.nextIndex, 3);
    assert.equal(p.status, 'stop');
    const report = await postReport(
      gw,
      reportTemplate({ inputReportParameters: [{ type: 'INPUT_TEXT', name: 'status', value: 'declined' }] }),
    );
    assert.equal(report.text.split('\r\n').filter((l) => l.includes('"Sale declined"')).length, 3);
  });
});

test('the finish date stops the schedule when it is reached, not before', async () => {
  await withGateway(async (gw) => {
    await postCreate(
      gw,
      batch([{ 'start-date': '01.02.2027', 'finish-date': '10.02.2027', period: 'week', interval: '1', 'max-repeats-number': '' }]),
    );
    const upTo9 = await gw.advanceDays(9); // 31.01 → 09.02
    assert.deepEqual(
      upTo9.charges.map((c) => c.date),
      ['01.02.2027', '08.02.2027'],
    );
    assert.equal(gw.payments()[0].status, 'active', 'the finish date 10.02 is not yet reached');
    const on10 = await gw.advanceDays(1);
    assert.equal(on10.charges.length, 0, 'no weekly charge falls on 10.02');
    assert.equal(gw.payments()[0].status, 'stop');
    assert.equal(gw.payments()[0].stopReason, 'finish-date');
  });
});

test('amount-sequence uses its last element past its end; a range stays within its bounds', async () => {
  await withGateway(async (gw) => {
    await postCreate(
      gw,
      batch([
        { 'client-orderid': 'SEQ', amount: '', 'amount-sequence': '5.00,7.5', period: 'day', interval: '1', 'max-repeats-number': '3' },
        {
          'client-orderid': 'RANGE',
          amount: '',
          'amount-from': '1.00',
          'amount-to': '2.00',
          period: 'day',
          interval: '1',
          'max-repeats-number': '20',
        },
      ]),
    );
    await gw.advanceDays(30);
    const [seq, range] = gw.payments();
    assert.deepEqual(
      seq.charges.map((c) => c.amount),
      ['5.000', '7.500', '7.500'],
    );
    assert.equal(range.charges.length, 20);
    for (const c of range.charges) {
      const v = Number(c.amount);
      assert.ok(v >= 1 && v <= 2, c.amount);
      assert.match(c.amount, /^\d\.\d{2}0$/, 'whole cents');
    }
  });
});

test('advance, stop and reschedule over the admin HTTP endpoints; charges already made are not made again', async () => {
  await withGateway(async (gw) => {
    const id = formFields(
      (await postCreate(gw, batch([{ 'start-date': '01.02.2027', period: 'day', interval: '1', 'max-repeats-number': '' }]))).text,
    )['recurring-payment-id'];
    const adv = await admin(gw, 'POST', '/_local/advance?days=2');
    assert.equal(adv.status, 200);
    assert.equal(adv.json.today, '02.02.2027');
    assert.deepEqual(
      adv.json.charges.map((c: { index: number }) => c.index),
      [0, 1],
    );

    assert.equal((await admin(gw, 'POST', `/_local/payments/${id}/stop`)).json.payment.status, 'stop');
    assert.equal((await admin(gw, 'POST', '/_local/advance?days=3')).json.charges.length, 0);
    const resumed = await admin(gw, 'POST', `/_local/payments/${id}/reschedule`);
    assert.equal(resumed.json.payment.status, 'active');
    // Today is 05.02: the charges of 03.02 and 04.02 passed while stopped and are skipped; 05.02's is made.
    assert.deepEqual(
      resumed.json.charges.map((c: { date: string }) => c.date),
      ['05.02.2027'],
    );
    const dates = gw.payments()[0].charges.map((c) => c.date);
    assert.deepEqual(dates, ['01.02.2027', '02.02.2027', '05.02.2027']);
    assert.equal((await admin(gw, 'POST', '/_local/payments/404/stop')).status, 404);
  });
});

// The gateway family's "Merchant Callbacks" documentation and its PHP library
// (payneteasy/php-library-payneteasy-api, Callback/ServerCallbackUrlCallback.php): an HTTP GET to the
// callback URL with orderid, merchant_order, client_orderid, amount, status, type and control in the query
// string; control = SHA-1 of status + orderid + client_orderid + the control key (computed here with
// node:crypto); notify_url hears every later transaction, server_callback_url the initial one.
test("the local gateway calls back as the gateway does: GET, the fields in the query under their real names, the URL's query kept", async () => {
  const cb = await listener();
  try {
    await withGateway(async (gw) => {
      const f = formFields(
        (
          await postCreate(
            gw,
            batch([
              {
                'client-orderid': 'CB-1',
                notify_url: `${cb.url}?shop=7`,
                'start-date': '31.01.2027',
                period: 'month',
                interval: '1',
                amount: '9.99',
              },
              {
                'client-orderid': 'CB-2',
                server_callback_url: `http://localhost:${cb.port}/other`,
                'start-date': '01.02.2027',
                'credit-card-number': DECLINED_CARD,
                period: 'day',
                interval: '7',
              },
            ]),
          )
        ).text,
      );
      const [id1, id2] = f['recurring-payment-id'].split(',');
      await cb.until(1); // charge 0 of CB-1 is made on creation day; its callback follows the answer
      const first = cb.calls[0];
      assert.equal(first.method, 'GET');
      assert.equal(first.path, '/callback');
      assert.equal(first.body, '', 'no body: the fields are in the query string');
      const tx1 = gw.payments()[0].charges[0].transactionId;
      assert.deepEqual(first.query, {
        shop: '7',
        type: 'sale',
        status: 'approved',
        orderid: tx1,
        merchant_order: 'CB-1',
        client_orderid: 'CB-1',
        amount: '9.990',
        currency: 'EUR',
        'recurring-payment-id': id1,
        'serial-number': f['serial-number'],
        'charge-index': '0',
        'charge-date': '31.01.2027',
        control: createHash('sha1').update(`approved${tx1}CB-1${gw.merchant.controlKey}`).digest('hex'),
      });
      assert.equal(checkControl(first.query, gw.merchant.controlKey), 'valid');
      const r = await gw.advanceDays(28);
      // CB-2 (server_callback_url) is charged weekly from 01.02: only its first charge calls back.
      assert.deepEqual(
        r.callbacks.map((c) => [c['recurring-payment-id'], c.outcome]),
        [
          [id2, 'delivered'],
          [id1, 'delivered'],
        ],
      );
      assert.ok(r.charges.filter((c) => c['recurring-payment-id'] === id2).length >= 2, 'CB-2 was charged more than once');
      assert.equal(cb.calls.length, 3);
      assert.equal(cb.calls[1].path, '/other');
      assert.equal(cb.received[1]['client_orderid'], 'CB-2');
      assert.equal(cb.received[1].status, 'declined');
      assert.equal(cb.received[2]['charge-index'], '1');
      assert.notEqual(cb.received[2].orderid, cb.received[0].orderid, 'each charge is its own transaction');
      for (const q of cb.received) assert.equal(q.type, 'sale', "the gateway's vocabulary, not recurring-charge");
      const [p1, p2] = gw.payments();
      assert.ok(
        Number(p2.charges[0].transactionId) < Number(p1.charges[1].transactionId),
        'transaction ids follow the calendar (01.02 before 28.02)',
      );
    });
  } finally {
    await cb.close();
  }
});

test('a non-loopback callback address is never called: skipped and logged', async () => {
  await withGateway(async (gw, _dir, logs) => {
    await postCreate(
      gw,
      batch([
        { notify_url: 'http://192.0.2.10/callback', 'start-date': '01.02.2027', period: 'day', interval: '1', 'max-repeats-number': '1' },
      ]),
    );
    const r = await gw.advanceDays(1);
    assert.equal(r.charges.length, 1);
    assert.deepEqual(
      r.callbacks.map((c) => [c.outcome, c.detail]),
      [['skipped', 'not a loopback address']],
    );
    assert.ok(logs.some((l) => l.includes('callback skipped') && l.includes('192.0.2.10')));
  });
});

// The gateway family's "Merchant Callbacks" documentation: the gateway repeats a callback until the merchant
// answers 200 OK, 30 times over 14 days on a progressive timeline. The local gateway does so on its simulated
// clock: a sentinel payment whose receiver answers 200 is charged every day, and its callback is queued after
// the retries each advance releases, so once an advance's callbacks are in, that day's retries are too.
test('a receiver answering 500 is retried as the simulated clock advances: the first retry the next day, never more than 30 tries', async () => {
  const failing = await listener(500);
  const sentinel = await listener(200);
  try {
    await withGateway(async (gw) => {
      await postCreate(
        gw,
        batch([
          {
            'client-orderid': 'RETRY',
            notify_url: failing.url,
            'start-date': '01.02.2027',
            period: 'day',
            interval: '1',
            'max-repeats-number': '1',
          },
          {
            'client-orderid': 'DAILY',
            notify_url: sentinel.url,
            'start-date': '01.02.2027',
            period: 'day',
            interval: '1',
            'max-repeats-number': '40',
          },
        ]),
      );
      const tries: number[] = [];
      for (let day = 0; day < 20; day++) {
        const r = await gw.advanceDays(1);
        assert.equal(r.callbacks.at(-1)?.outcome, 'delivered', 'the sentinel was called after the retries');
        tries.push(failing.calls.length);
      }
      assert.equal(tries[0], 1, 'the charge day: the first try');
      assert.ok(tries[1] > 1, `a retry within the next simulated day (${tries.join(',')})`);
      assert.equal(
        tries.reduce((a, b) => Math.max(a, b), 0),
        30,
        `at most 30 tries (${tries.join(',')})`,
      );
      assert.equal(tries[14], 30, `all 30 within 14 simulated days (${tries.join(',')})`);
      assert.equal(tries[19], 30, 'and none after');
      for (let i = 1; i < tries.length; i++) assert.ok(tries[i] >= tries[i - 1]);
      const orderids = new Set(failing.received.map((q) => q.orderid));
      assert.equal(orderids.size, 1, 'every try is the same callback');
      assert.ok(failing.received.every((q) => checkControl(q, gw.merchant.controlKey) === 'valid'));
    });
  } finally {
    await failing.close();
    await sentinel.close();
  }
});

test('loopback targets: 127.0.0.0/8, localhost and ::1 over http only', () => {
  const ok = (u: string) => loopbackTarget(u).ok;
  assert.ok(ok('http://127.0.0.1:8080/cb'));
  assert.ok(ok('http://127.10.20.30:8080/cb'));
  assert.ok(!ok('http://127.0.0.1/cb'), 'port 80: below 1024, a system service');
  assert.ok(ok('http://localhost:3000/cb'));
  assert.ok(ok('http://[::1]:3000/cb'));
  assert.ok(!ok('http://10.0.0.1/cb'));
  assert.ok(!ok('http://127.0.0.1.example.com/cb'));
  assert.ok(!ok('http://example.com/cb'));
  assert.ok(!ok('https://127.0.0.1/cb'));
  assert.ok(!ok('not a url'));
  const t = loopbackTarget('http://localhost:3000/cb');
  assert.equal(t.ok && t.connectHost, '127.0.0.1', 'localhost is never resolved through DNS');
});
