import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import {
  createRecurringPayments,
  environmentProblems,
  runCustomReport,
  newReportTemplate,
  operationUrl,
  parseEnvironments,
  prepareSubmission,
  type Environment,
} from '../../src/core/gateway';
import { verifyRequest, parseAuthorizationHeader } from '../../src/core/oauth';
import { postOnce } from '../../src/core/gateway/transport';
import { WAIT_MS } from '../fixtures/deadlines';

/** The form field `payload` as every face makes it: prepareSubmission's CRLF text without BOM, in Base64. */
const payloadOf = (text: string) => prepareSubmission(text).payload;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback server that records each request and answers with `reply`. */
async function server(reply: (req: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      reply(s, res);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as AddressInfo).port;
  return {
    seen,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      srv.closeAllConnections();
      return new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

function env(origin: string): Environment {
  return {
    name: 'test',
    baseUrl: `${origin}/pfx/`,
    reportBaseUrl: `${origin}/rpt`,
    endpointId: '42',
    consumerKey: 'merchant',
    production: false,
  };
}

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});

test('create: the canonical text (every line break CRLF, quoted ones too), no BOM, Base64 in the one form field payload, RSA-signed over it, no realm', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const csv = '\uFEFFclient-orderid;order_desc\n1;"two\nlines"\n2;x\r\n';
  const o = await createRecurringPayments({
    environment: env(s.origin),
    payload: payloadOf(csv),
    credentials: { signatureMethod: 'RSA-SHA256', consumerKey: 'merchant', privateKeyPem: keys.privateKey },
  });
  assert.equal(o.outcome, 'accepted');
  assert.equal(s.seen.length, 1);
  const r = s.seen[0];
  assert.equal(r.url, '/pfx/api/v4/create-recurring-payments/42/');
  assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
  const form = [...new URLSearchParams(r.body)];
  assert.deepEqual(
    form.map(([k]) => k),
    ['payload'],
  );
  const sent = Buffer.from(form[0][1], 'base64');
  assert.notEqual(sent[0], 0xef, 'no UTF-8 BOM');
  assert.equal(sent.toString('utf8'), 'client-orderid;order_desc\r\n1;"two\r\nlines"\r\n2;x\r\n');
  const b64 = sent.toString('base64');
  assert.equal(r.body, `payload=${b64.replace(/\+/g, '%2B').replace(/\//g, '%2F').replace(/=/g, '%3D')}`, 'Base64 + / = percent-encoded');
  const auth = String(r.headers.authorization);
  assert.equal(parseAuthorizationHeader(auth)?.realm, undefined);
  const v = verifyRequest({ method: 'POST', url: `${s.origin}${r.url}`, form, authorization: auth }, { rsaPublicKeyPem: keys.publicKey });
  assert.deepEqual(v, { ok: true, consumerKey: 'merchant' });
});

test('report: the template as JSON body, HMAC-SHA1 with realm="", the body outside the signature', async (t) => {
  const s = await server((_r, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end('"A","B"\r\n"1","2"\r\n'));
  t.after(s.close);
  const template = { ...newReportTemplate(), reportIdentifier: 'transactions', extraField: 'kept' };
  const o = await runCustomReport({
    environment: env(s.origin),
    template,
    credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'merchant', consumerSecret: 'secret&=' },
  });
  assert.ok(o.outcome === 'report' && o.format === 'csv');
  if (o.outcome === 'report' && o.format === 'csv') assert.deepEqual(o.rows, [['1', '2']]);
  const r = s.seen[0];
  assert.equal(r.url, '/rpt/services/v2/rpt-engine');
  assert.equal(r.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(r.body), template);
  const auth = String(r.headers.authorization);
  assert.match(auth, /^OAuth realm="", /);
  assert.deepEqual(verifyRequest({ method: 'POST', url: `${s.origin}${r.url}`, authorization: auth }, { consumerSecret: 'secret&=' }), {
    ok: true,
    consumerKey: 'merchant',
  });
});

test('path templates come from settings and are appended to the base URLs', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const paths = { createRecurringPayments: '/api/v5/rp/{endpointId}', customReport: 'reports/run' };
  await createRecurringPayments({
    environment: env(s.origin),
    paths,
    payload: payloadOf('a\n'),
    credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'm', consumerSecret: 's' },
  });
  await runCustomReport({
    environment: env(s.origin),
    paths,
    template: newReportTemplate(),
    credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'm', consumerSecret: 's' },
  });
  assert.deepEqual(
    s.seen.map((r) => r.url),
    ['/pfx/api/v5/rp/42', '/rpt/reports/run'],
  );
  assert.equal(operationUrl('https://h.example/p/', '/x/{endpointId}/', { endpointId: 'a/b' }), 'https://h.example/p/x/a%2Fb/');
});

const hmac = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'm', consumerSecret: 's' };

test('create: a server that never answers after the request went out is outcome unknown (timeout), never "not delivered"', async (t) => {
  const s = await server(() => {
    /* never answers */
  });
  t.after(s.close);
  const o = await createRecurringPayments({ environment: env(s.origin), payload: payloadOf('a\n'), credentials: hmac, timeoutMs: 200 });
  assert.ok(o.outcome === 'unknown' && o.kind === 'timeout', JSON.stringify(o));
  assert.match(o.message, /may have created the payments/);
  assert.match(o.message, /before sending this file again/i);
  assert.equal(s.seen.length, 1);
});

test('report: a timeout after sending is a transport error (a report creates nothing); a cancelled request says so', async (t) => {
  const s = await server(() => {
    /* never answers */
  });
  t.after(s.close);
  const o = await runCustomReport({ environment: env(s.origin), template: newReportTemplate(), credentials: hmac, timeoutMs: 200 });
  assert.ok(o.outcome === 'transport-error' && o.kind === 'timeout', JSON.stringify(o));
  const controller = new AbortController();
  const pending = createRecurringPayments({
    environment: env(s.origin),
    payload: payloadOf('a\n'),
    credentials: hmac,
    signal: controller.signal,
  });
  const deadline = Date.now() + WAIT_MS;
  while (s.seen.length < 2 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  controller.abort();
  const c = await pending;
  assert.ok(c.outcome === 'unknown' && c.kind === 'cancelled', JSON.stringify(c));
  const early = new AbortController();
  early.abort();
  const before = await createRecurringPayments({
    environment: env(s.origin),
    payload: payloadOf('a\n'),
    credentials: hmac,
    signal: early.signal,
  });
  assert.ok(before.outcome === 'transport-error' && /nothing was sent/.test(before.message), JSON.stringify(before));
});

test('create is sent once even when the connection drops; a drop after sending is unknown (connection-lost)', async (t) => {
  const s = await server((_r, res) => res.socket?.destroy());
  t.after(s.close);
  const o = await createRecurringPayments({ environment: env(s.origin), payload: payloadOf('a\n'), credentials: hmac });
  assert.ok(o.outcome === 'unknown' && o.kind === 'connection-lost', JSON.stringify(o));
  assert.equal(s.seen.length, 1);
});

test('create: an answer cut short of its Content-Length, or in the middle of a chunk, is unknown (truncated)', async (t) => {
  const s = await server((r, res) => {
    if (r.url.includes('/42/')) {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '500' });
      res.write('type=create-recurring-payment-response\n&status=act');
      setImmediate(() => res.socket?.destroy());
    }
  });
  t.after(s.close);
  const o = await createRecurringPayments({ environment: env(s.origin), payload: payloadOf('a\n'), credentials: hmac });
  assert.ok(o.outcome === 'unknown' && o.kind === 'truncated', JSON.stringify(o));
  const chunked = await server((_r, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('type=create-recurring-payment-response\n');
    setImmediate(() => res.socket?.destroy());
  });
  t.after(chunked.close);
  const c = await createRecurringPayments({ environment: env(chunked.origin), payload: payloadOf('a\n'), credentials: hmac });
  assert.ok(c.outcome === 'unknown' && c.kind === 'truncated', JSON.stringify(c));
});

test('the deadline covers the whole body: a server trickling bytes forever is cut off', async (t) => {
  const timers = new Set<NodeJS.Timeout>();
  const s = await server((_r, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const tick = setInterval(() => res.write('x'), 20);
    timers.add(tick);
    res.on('close', () => clearInterval(tick));
  });
  t.after(() => {
    for (const x of timers) clearInterval(x);
    return s.close();
  });
  const o = await createRecurringPayments({ environment: env(s.origin), payload: payloadOf('a\n'), credentials: hmac, timeoutMs: 300 });
  assert.ok(o.outcome === 'unknown' && o.kind === 'timeout', JSON.stringify(o));
});

test('answers are read up to a cap: a server sending forever is cut off, not buffered', async (t) => {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const s = await server((_r, res) => {
    res.writeHead(200, { 'Content-Type': 'text/csv' });
    const pump = () => {
      while (res.write(chunk)) {
        /* until the socket pushes back */
      }
    };
    res.on('drain', pump);
    res.on('error', () => undefined);
    pump();
  });
  t.after(s.close);
  const o = await createRecurringPayments({ environment: env(s.origin), payload: payloadOf('a\n'), credentials: hmac, timeoutMs: 30_000 });
  assert.ok(o.outcome === 'unknown' && o.kind === 'truncated' && /exceeded 1048576 bytes/.test(o.message), JSON.stringify(o));
  const r = await runCustomReport({
    environment: env(s.origin),
    template: newReportTemplate(),
    credentials: hmac,
    timeoutMs: 30_000,
    maxAnswerBytes: 200_000,
  });
  assert.ok(r.outcome === 'transport-error' && /exceeded 200000 bytes/.test(r.message), JSON.stringify(r));
});

test('refused on a closed port, TLS failure when https meets a plain server', async () => {
  const s = await server((_r, res) => res.writeHead(200).end());
  const port = s.port;
  const credentials = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'm', consumerSecret: 's' };
  const tls = await createRecurringPayments({
    environment: { ...env(s.origin), baseUrl: `https://127.0.0.1:${port}/` },
    payload: payloadOf('a\n'),
    credentials,
  });
  assert.ok(tls.outcome === 'transport-error' && tls.kind === 'tls' && /nothing was sent/.test(tls.message), JSON.stringify(tls));
  await s.close();
  const refused = await createRecurringPayments({ environment: env(`http://127.0.0.1:${port}`), payload: payloadOf('a\n'), credentials });
  assert.ok(
    refused.outcome === 'transport-error' && refused.kind === 'refused' && /nothing was sent/.test(refused.message),
    JSON.stringify(refused),
  );
});

test('operation URLs: the base URL path and query kept, the endpoint id one encoded segment', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const environment = { ...env(s.origin), baseUrl: `${s.origin}/paynet?lang=en&x=a%20b`, endpointId: 'a/b?c#d' };
  await createRecurringPayments({ environment, payload: payloadOf('a\n'), credentials: hmac });
  assert.equal(s.seen[0].url, '/paynet/api/v4/create-recurring-payments/a%2Fb%3Fc%23d/?lang=en&x=a%20b');
  // The query is signed as query parameters: the gateway verifies the signature over the URL it received.
  const v = verifyRequest(
    {
      method: 'POST',
      url: `${s.origin}${s.seen[0].url}`,
      form: [['payload', Buffer.from('a\r\n').toString('base64')]],
      authorization: String(s.seen[0].headers.authorization),
    },
    { consumerSecret: 's' },
  );
  assert.ok(v.ok, JSON.stringify(v));
  assert.equal(operationUrl('https://h.example/p?lang=en', '/x/{endpointId}/', { endpointId: '7' }), 'https://h.example/p/x/7/?lang=en');
  assert.equal(operationUrl('https://h.example', 'x/{endpointId}', { endpointId: '7' }), 'https://h.example/x/7');
});

test('a base URL with a fragment or credentials is a settings error naming the environment, never the password', async () => {
  const withPassword = { ...env('https://gw.example'), name: 'sandbox', baseUrl: 'https://merchant:s3cr3t-pass@gw.example/paynet' };
  assert.throws(
    () => operationUrl(withPassword.baseUrl, '/x', {}, 'sandbox'),
    (err: Error) => /environment "sandbox"/.test(err.message) && !err.message.includes('s3cr3t-pass'),
  );
  const problems = environmentProblems(withPassword);
  assert.equal(problems.length, 1);
  assert.ok(/sandbox/.test(problems[0]) && !problems[0].includes('s3cr3t-pass'), problems[0]);
  const fragment = environmentProblems({ ...env('https://gw.example'), name: 'prod', reportBaseUrl: 'https://gw.example/rpt#frag' });
  assert.ok(fragment.length === 1 && /prod/.test(fragment[0]) && /fragment/.test(fragment[0]), fragment.join());
  assert.throws(() => operationUrl('https://h.example/', '/x/{endpointId}/', { endpointId: '..' }, 'e'), /cannot be a path segment/);
  const parsed = parseEnvironments([
    { name: 'sandbox', baseUrl: 'https://u:hunter2@gw.example/', reportBaseUrl: 'https://gw.example/', endpointId: '1', consumerKey: 'k' },
  ]);
  assert.equal(parsed.environments.length, 0);
  assert.ok(/sandbox/.test(parsed.problems[0]) && !parsed.problems[0].includes('hunter2'), parsed.problems[0]);
  // Nothing is sent to such an environment.
  const o = await createRecurringPayments({ environment: withPassword, payload: payloadOf('a\n'), credentials: hmac }).catch(
    (err: Error) => err,
  );
  assert.ok(o instanceof Error && !o.message.includes('s3cr3t-pass'));
});

test('a request the gateway never took whole (it stopped reading) is a transport error: nothing was sent', async (t) => {
  // Accepts the connection and never reads: the body stays in buffers, the last byte never leaves.
  const sockets = new Set<Socket>();
  const silent = (await import('node:net')).createServer((socket) => {
    sockets.add(socket);
    socket.pause();
  });
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => silent.close(() => r()));
  });
  const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const o = await createRecurringPayments({
    environment: env(origin),
    payload: payloadOf('a').repeat(15_000_000),
    credentials: hmac,
    timeoutMs: 500,
  });
  assert.ok(o.outcome === 'transport-error' && o.kind === 'timeout' && /nothing was sent/.test(o.message), JSON.stringify(o).slice(0, 300));
});

test('create: the bytes sent are told as the request is written, never going back, the last when all of it was (a large batch shows them)', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const row = '1;SRC;' + 'x'.repeat(200) + '\r\n';
  const told: [number, number][] = [];
  const o = await createRecurringPayments({
    environment: env(s.origin),
    payload: payloadOf('client-orderid;rp_card_type;order_desc\r\n' + row.repeat(20_000)),
    credentials: { signatureMethod: 'RSA-SHA256', consumerKey: 'merchant', privateKeyPem: keys.privateKey },
    onSent: (sent, total) => void told.push([sent, total]),
  });
  assert.equal(o.outcome, 'accepted');
  assert.ok(told.length > 0, 'told at least once');
  const total = told[0][1];
  assert.ok(
    told.every(([, n]) => n === total),
    'one total',
  );
  assert.ok(total >= s.seen[0].body.length, `the total ${total} covers the body of ${s.seen[0].body.length} bytes`);
  assert.ok(
    told.every(([sent], i) => i === 0 || sent >= told[i - 1][0]),
    'never going back',
  );
  assert.deepEqual(told[told.length - 1], [total, total], 'the last: all of it');
});

test("the answer carries its headers: a 429's Retry-After can be read", async (t) => {
  // RFC 6585 §4: 429 Too Many Requests "MAY include a Retry-After header"; a proxy in front of the gateway
  // may answer it (the gateway's API description names no rate limit).
  const s = await server((_req, res) => {
    res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '120', 'x-repeated': ['a', 'b'] }).end('Too Many Requests');
  });
  t.after(s.close);
  const r = await postOnce({ url: `${s.origin}/x`, headers: {}, body: '' }, { timeoutMs: WAIT_MS, maxAnswerBytes: 1024 });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.answer.status, 429);
  assert.equal(r.answer.headers['retry-after'], '120');
  assert.equal(r.answer.headers['x-repeated'], 'a, b');
  assert.equal(r.answer.headers['content-type'], r.answer.contentType);
});
