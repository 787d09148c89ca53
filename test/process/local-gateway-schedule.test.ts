// The local gateway's recurring payments on the simulated clock, and the callbacks they send.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackTarget } from '../../src/local-gateway/callbacks';
import { callbackControl, checkControl } from '../../src/core/callbacks';
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

/** A loopback listener that records callback bodies and answers with `status`. */
async function listener(status = 200) {
  const received: Record<string, string>[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(Object.fromEntries(new URLSearchParams(body)));
      res.writeHead(status).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    port,
    received,
    /** Waits (event-driven, with a deadline) until `n` callbacks have arrived. */
    async until(n: number, ms = 60_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${n} callbacks arrived`);
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

test('callbacks reach a loopback notify_url / server_callback_url with the charge fields', async () => {
  const cb = await listener();
  try {
    await withGateway(async (gw) => {
      const f = formFields(
        (
          await postCreate(
            gw,
            batch([
              { 'client-orderid': 'CB-1', notify_url: cb.url, 'start-date': '31.01.2027', period: 'month', interval: '1', amount: '9.99' },
              {
                'client-orderid': 'CB-2',
                server_callback_url: `http://localhost:${cb.port}/other`,
                'start-date': '01.02.2027',
                'credit-card-number': DECLINED_CARD,
                period: '',
                interval: '',
              },
            ]),
          )
        ).text,
      );
      const [id1, id2] = f['recurring-payment-id'].split(',');
      await cb.until(1); // charge 0 of CB-1 is made on creation day; its callback follows the answer
      assert.deepEqual(cb.received[0], {
        type: 'recurring-charge',
        status: 'approved',
        orderid: id1,
        'recurring-payment-id': id1,
        'serial-number': f['serial-number'],
        'client-orderid': 'CB-1',
        amount: '9.990',
        currency: 'EUR',
        'charge-index': '0',
        'charge-date': '31.01.2027',
        control: callbackControl('approved', id1, 'CB-1', gw.merchant.controlKey),
      });
      assert.equal(checkControl(cb.received[0], gw.merchant.controlKey), 'valid');
      const r = await gw.advanceDays(28);
      assert.deepEqual(
        r.callbacks.map((c) => [c['recurring-payment-id'], c.outcome]),
        [
          [id2, 'delivered'],
          [id1, 'delivered'],
        ],
      );
      assert.equal(cb.received.length, 3);
      assert.equal(cb.received[1]['client-orderid'], 'CB-2');
      assert.equal(cb.received[1].status, 'declined');
      assert.equal(cb.received[2]['charge-index'], '1');
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

test('a failing callback receiver gets one retry and no more', async () => {
  const cb = await listener(500);
  try {
    await withGateway(async (gw) => {
      await postCreate(
        gw,
        batch([{ notify_url: cb.url, 'start-date': '01.02.2027', period: 'day', interval: '1', 'max-repeats-number': '1' }]),
      );
      const r = await gw.advanceDays(1);
      assert.deepEqual(
        r.callbacks.map((c) => [c.outcome, c.detail]),
        [['failed', 'HTTP 500']],
      );
      assert.equal(cb.received.length, 2);
    });
  } finally {
    await cb.close();
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
