// `paygate listen` as a real process with the local gateway: a batch whose notify_url points at the
// listener, the clock advanced, one callback per charge with a valid control, each forwarded to a handler
// in the test, then `paygate callbacks list` and `replay` reaching the handler again. Every server binds
// 127.0.0.1; the test stops each one; every wait has a deadline.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { batch, postCreate, START, tempStateDir } from '../fixtures/local-gateway/helpers';
import { startLocalGateway } from '../../src/local-gateway';
import { loopbackHandler, postCallback } from '../fixtures/callbacks/loopbackHandler';
import { PROCESS_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const root = path.join(__dirname, '..', '..');

function paygate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...paygateArgs(), ...args], { cwd: root, timeout: PROCESS_MS }, (err, stdout, stderr) => {
      let code = 0;
      if (err) code = typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A line-reading view of a child's stdout: wait (with a deadline) until `n` lines have come. */
function lines(child: ChildProcess) {
  const got: string[] = [];
  let buffered = '';
  let waiter: (() => void) | undefined;
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    buffered += d;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) got.push(part);
    waiter?.();
  });
  return {
    got,
    async until(n: number, ms = 30_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (got.length < n) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`only ${got.length} of ${n} lines: ${got.join('\n')}`);
        await new Promise<void>((r) => {
          waiter = r;
          setTimeout(r, 200);
        });
      }
    },
  };
}

test(
  'paygate listen with the local gateway: one callback per charge, valid control, forwarded, listed and replayed',
  { timeout: 2 * PROCESS_MS },
  async () => {
    const stateDir = tempStateDir();
    const handler = await loopbackHandler({ body: 'handled' });
    const seen = handler.seen;
    const hook = handler.url;
    const gw = await startLocalGateway({ stateDir, port: 0, initialDate: START, log: () => undefined });
    const child = spawn(process.execPath, [...paygateArgs(), 'listen', '--state', stateDir, '--forward-to', hook, '--format', 'json'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const out = lines(child);
      await out.until(1);
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(out.got[0]);
      assert.ok(m, out.got[0]);
      const notify = `${m[1]}paygate/notify`;
      const rows = ['E2E-1', 'E2E-2'].map((id) => ({
        'client-orderid': id,
        notify_url: notify,
        'start-date': '31.01.2027',
        'max-repeats-number': '3',
      }));
      assert.equal((await postCreate(gw, batch(rows))).status, 200);
      await gw.advanceDays(62);
      const charges = gw.payments().reduce((n, p) => n + p.charges.length, 0);
      assert.equal(charges, 6, 'three charges per row');
      await out.until(1 + charges);
      const calls = out.got
        .slice(1)
        .map(
          (l) =>
            JSON.parse(l) as { id: string; path: string; fields: Record<string, string>; control: string; forwarded: { status: number } },
        );
      assert.equal(calls.length, charges);
      assert.ok(
        calls.every((c) => c.control === 'valid'),
        JSON.stringify(calls.map((c) => c.control)),
      );
      // The gateway's shape: a GET to the notify_url with the fields in its query string.
      assert.ok(calls.every((c) => c.forwarded.status === 200 && c.path.startsWith('/paygate/notify?')));
      assert.deepEqual(calls.map((c) => c.fields['client_orderid']).sort(), ['E2E-1', 'E2E-1', 'E2E-1', 'E2E-2', 'E2E-2', 'E2E-2']);
      assert.equal(seen.length, charges, 'the handler received every callback');
      // Passed on to the exact URL given (…/hook), the call's query added: never /hook/paygate/notify.
      assert.ok(seen.every((s) => s.method === 'GET' && s.url.startsWith('/hook?') && s.url.includes('client_orderid=E2E-')));
      assert.ok(calls.every((c) => (c.forwarded as { url?: string }).url?.startsWith(`${hook}?`)));

      const list = await paygate(['callbacks', 'list', '--state', stateDir, '--format', 'json']);
      assert.equal(list.code, 0, list.stderr);
      const kept = (JSON.parse(list.stdout) as { callbacks: { id: string }[] }).callbacks;
      assert.deepEqual(
        kept.map((k) => k.id),
        calls.map((c) => c.id),
      );
      const replay = await paygate(['callbacks', 'replay', calls[2].id, '--to', hook, '--state', stateDir]);
      assert.equal(replay.code, 0, replay.stderr);
      assert.match(replay.stdout, /^HTTP 200 from http:\/\/127\.0\.0\.1:\d+\/hook\?\S*client_orderid=E2E-\S* in \d+ ms\n {2}\| handled\n$/);
      assert.equal(seen.length, charges + 1);
      assert.ok(seen[charges].body.equals(seen[2].body), 'replayed byte for byte');
      assert.equal(seen[charges].url, seen[2].url, 'to the same URL, its query included');

      const offMachine = await paygate(['callbacks', 'replay', calls[0].id, '--to', 'http://192.0.2.1/hook', '--state', stateDir]);
      assert.equal(offMachine.code, 2);
      assert.match(offMachine.stderr, /192\.0\.2\.1 is not on this machine/);
      const sent = await paygate([
        'callbacks',
        'send',
        '--to',
        hook,
        '--client-orderid',
        'SEND-1',
        '--status',
        'declined',
        '--state',
        stateDir,
      ]);
      assert.equal(sent.code, 0, sent.stderr);
      const sentCall = seen[seen.length - 1];
      assert.equal(sentCall.method, 'GET');
      const sentFields = new URL(sentCall.url, 'http://x').searchParams;
      assert.equal(sentFields.get('client_orderid'), 'SEND-1');
      assert.equal(sentFields.get('merchant_order'), 'SEND-1');
      assert.equal(sentFields.get('type'), 'sale');
      assert.equal(sentFields.get('status'), 'declined');
      assert.match(sentFields.get('control') ?? '', /^[0-9a-f]{40}$/);

      child.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c))));
      assert.equal(code, 0, stderr);
      assert.match(stderr, /SIGTERM: stopping/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await gw.close();
      await handler.close();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  },
);

test('paygate listen refuses a forward target off the machine, naming it as off the machine whatever its scheme', async () => {
  const r = await paygate(['listen', '--forward-to', 'https://example.com/hook']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--forward-to: example\.com is not on this machine/);
  const tls = await paygate(['listen', '--forward-to', 'https://127.0.0.1:9/hook']);
  assert.equal(tls.code, 2);
  assert.match(tls.stderr, /--forward-to: .*not an http:\/\/ address/);
});

test('paygate callbacks send --to https://example.com is refused as not on this machine, exit 2, nothing sent', async () => {
  const r = await paygate(['callbacks', 'send', '--to', 'https://example.com', '--client-orderid', 'X-1', '--status', 'approved']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /example\.com is not on this machine/);
  assert.doesNotMatch(r.stderr, /http:\/\/ address/);
});

test(
  'paygate listen forwarding to a handler that is down: 200 concurrent calls each get a 502, each said on its line; Ctrl+C stops it',
  { timeout: 2 * PROCESS_MS },
  async () => {
    const stateDir = tempStateDir();
    // A port that was just free: nothing listens there once the probe is closed.
    const probe = http.createServer();
    probe.listen(0, '127.0.0.1');
    await new Promise((r) => probe.once('listening', r));
    const downPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const child = spawn(
      process.execPath,
      [...paygateArgs(), 'listen', '--state', stateDir, '--forward-to', `http://127.0.0.1:${downPort}/hook`, '--control-key', 'k'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const out = lines(child);
      await out.until(1);
      const url = out.got[0].replace('listening on ', '');
      const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
      const statuses = await Promise.all(
        Array.from(
          { length: 200 },
          (_, i) =>
            new Promise<number>((resolve, reject) => {
              const req = http.request(
                url,
                { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
                (res) => {
                  res.resume();
                  res.on('end', () => resolve(res.statusCode ?? 0));
                },
              );
              req.on('error', reject);
              req.end(`status=approved&orderid=${i}&client-orderid=C-${i}`);
            }),
        ),
      );
      agent.destroy();
      assert.equal(statuses.filter((s) => s === 502).length, 200);
      await out.until(201);
      const textLines = out.got.slice(1);
      assert.ok(
        textLines.every((l) => /-> http:\/\/127\.0\.0\.1:\d+\/hook: 502 \(handler http:\/\/127\.0\.0\.1:\d+ unreachable/.test(l)),
        textLines[0],
      );
      assert.ok(textLines.every((l) => l.includes('control: absent')));
      assert.equal(new Set(textLines.map((l) => /client_orderid (C-\d+)/.exec(l)?.[1])).size, 200);
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c))));
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  },
);

test(
  'paygate listen on SIGTERM answers a forward in flight with its handler answer, then exits 0',
  { timeout: 2 * PROCESS_MS },
  async () => {
    const stateDir = tempStateDir();
    const handler = await loopbackHandler({ hold: true });
    const hook = handler.url;
    const child = spawn(process.execPath, [...paygateArgs(), 'listen', '--state', stateDir, '--forward-to', hook], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const out = lines(child);
      await out.until(1);
      const url = out.got[0].replace('listening on ', '');
      const answer = postCallback(url, 'status=approved&orderid=1&client-orderid=TERM-1');
      await handler.arrived(1, 20_000);
      const stopping = new Promise<void>((r) => child.stderr!.on('data', () => /SIGTERM: stopping/.test(stderr) && r()));
      child.kill('SIGTERM');
      await stopping;
      handler.held[0].writeHead(201).end('handled while stopping');
      assert.deepEqual(await answer, { status: 201, text: 'handled while stopping' });
      const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c))));
      assert.equal(code, 0, stderr);
      await out.until(2);
      assert.match(out.got[1], /client_orderid TERM-1 .* -> http:\/\/127\.0\.0\.1:\d+\/hook: 201 in \d+ ms/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await handler.close();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  },
);

// README, "The first minute", step 9 runs `paygate callbacks send --to ADDRESS` as written (issue 43: it
// failed with "required option '--status' not specified"). The gateway family's "Merchant Callbacks": a GET
// with the fields in the query string; `--method POST` sends the same fields as a form body.
test('paygate callbacks send --to ADDRESS works as written: an approved sale, GET with the fields in the query; --method POST as a form', async () => {
  const stateDir = tempStateDir();
  const handler = await loopbackHandler();
  try {
    const plain = await paygate(['callbacks', 'send', '--to', `${handler.url}?shop=7`, '--state', stateDir, '--control-key', 'k']);
    assert.equal(plain.code, 0, plain.stderr);
    const get = handler.seen[0];
    assert.equal(get.method, 'GET');
    assert.equal(get.body.length, 0);
    const q = new URL(get.url, 'http://x');
    assert.equal(q.pathname, '/hook', 'the exact path given');
    assert.equal(q.searchParams.get('shop'), '7', "the URL's own query kept");
    assert.equal(q.searchParams.get('status'), 'approved');
    assert.equal(q.searchParams.get('type'), 'sale');
    const orderid = q.searchParams.get('orderid') ?? '';
    const client = q.searchParams.get('client_orderid') ?? '';
    assert.equal(q.searchParams.get('control'), createHash('sha1').update(`approved${orderid}${client}k`).digest('hex'));
    assert.match(plain.stdout, new RegExp(`^HTTP 200 from ${handler.url.replace(/[/.]/g, '\\$&')}\\?shop=7&type=sale&`));

    const form = await paygate(['callbacks', 'send', '--to', handler.url, '--method', 'POST', '--status', 'declined', '--state', stateDir]);
    assert.equal(form.code, 0, form.stderr);
    const posted = handler.seen[1];
    assert.equal(posted.method, 'POST');
    assert.equal(posted.url, '/hook');
    assert.equal(new URLSearchParams(posted.body.toString()).get('status'), 'declined');
  } finally {
    await handler.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});
