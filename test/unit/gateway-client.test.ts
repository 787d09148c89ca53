import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createRecurringPayments, runCustomReport, newReportTemplate, operationUrl, type Environment } from '../../src/core/gateway';
import { verifyRequest, parseAuthorizationHeader } from '../../src/core/oauth';

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

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
    close: () => { srv.closeAllConnections(); return new Promise<void>((r) => srv.close(() => r())); },
  };
}

function env(origin: string): Environment {
  return { name: 'test', baseUrl: `${origin}/pfx/`, reportBaseUrl: `${origin}/rpt`, endpointId: '42', consumerKey: 'merchant', production: false };
}

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } });

test('create: CRLF records, no BOM, Base64 in the one form field payload, RSA-signed over it, no realm', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const csv = '\uFEFFclient-orderid;order_desc\n1;"two\nlines"\n2;x\r\n';
  const o = await createRecurringPayments({ environment: env(s.origin), csvText: csv, credentials: { signatureMethod: 'RSA-SHA256', consumerKey: 'merchant', privateKeyPem: keys.privateKey } });
  assert.equal(o.outcome, 'accepted');
  assert.equal(s.seen.length, 1);
  const r = s.seen[0];
  assert.equal(r.url, '/pfx/api/v4/create-recurring-payments/42/');
  assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
  const form = [...new URLSearchParams(r.body)];
  assert.deepEqual(form.map(([k]) => k), ['payload']);
  const sent = Buffer.from(form[0][1], 'base64');
  assert.notEqual(sent[0], 0xef, 'no UTF-8 BOM');
  assert.equal(sent.toString('utf8'), 'client-orderid;order_desc\r\n1;"two\nlines"\r\n2;x\r\n');
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
  const o = await runCustomReport({ environment: env(s.origin), template, credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'merchant', consumerSecret: 'secret&=' } });
  assert.ok(o.outcome === 'report' && o.format === 'csv');
  if (o.outcome === 'report' && o.format === 'csv') assert.deepEqual(o.rows, [['1', '2']]);
  const r = s.seen[0];
  assert.equal(r.url, '/rpt/services/v2/rpt-engine');
  assert.equal(r.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(r.body), template);
  const auth = String(r.headers.authorization);
  assert.match(auth, /^OAuth realm="", /);
  assert.deepEqual(verifyRequest({ method: 'POST', url: `${s.origin}${r.url}`, authorization: auth }, { consumerSecret: 'secret&=' }), { ok: true, consumerKey: 'merchant' });
});

test('path templates come from settings and are appended to the base URLs', async (t) => {
  const s = await server((_r, res) => res.writeHead(200).end());
  t.after(s.close);
  const paths = { createRecurringPayments: '/api/v5/rp/{endpointId}', customReport: 'reports/run' };
  await createRecurringPayments({ environment: env(s.origin), paths, csvText: 'a\n', credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'm', consumerSecret: 's' } });
  await runCustomReport({ environment: env(s.origin), paths, template: newReportTemplate(), credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'm', consumerSecret: 's' } });
  assert.deepEqual(s.seen.map((r) => r.url), ['/pfx/api/v5/rp/42', '/rpt/reports/run']);
  assert.equal(operationUrl('https://h.example/p/', '/x/{endpointId}/', { endpointId: 'a/b' }), 'https://h.example/p/x/a%2Fb/');
});

test('a server that never answers gives a timeout; a cancelled request says so', async (t) => {
  const s = await server(() => { /* never answers */ });
  t.after(s.close);
  const credentials = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'm', consumerSecret: 's' };
  const o = await createRecurringPayments({ environment: env(s.origin), csvText: 'a\n', credentials, timeoutMs: 200 });
  assert.equal(o.outcome, 'transport-error');
  if (o.outcome === 'transport-error') assert.equal(o.kind, 'timeout');
  const controller = new AbortController();
  const pending = runCustomReport({ environment: env(s.origin), template: newReportTemplate(), credentials, signal: controller.signal });
  while (s.seen.length < 2) await new Promise((r) => setImmediate(r));
  controller.abort();
  const c = await pending;
  assert.ok(c.outcome === 'transport-error' && c.kind === 'other' && /cancelled/.test(c.message), JSON.stringify(c));
});

test('create is sent once even when the connection drops (never retried)', async (t) => {
  const s = await server((_r, res) => res.socket?.destroy());
  t.after(s.close);
  const o = await createRecurringPayments({ environment: env(s.origin), csvText: 'a\n', credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'm', consumerSecret: 's' } });
  assert.equal(o.outcome, 'transport-error');
  assert.equal(s.seen.length, 1);
});

test('refused on a closed port, TLS failure when https meets a plain server', async () => {
  const s = await server((_r, res) => res.writeHead(200).end());
  const port = s.port;
  const credentials = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'm', consumerSecret: 's' };
  const tls = await createRecurringPayments({ environment: { ...env(s.origin), baseUrl: `https://127.0.0.1:${port}/` }, csvText: 'a\n', credentials });
  assert.ok(tls.outcome === 'transport-error' && tls.kind === 'tls', JSON.stringify(tls));
  await s.close();
  const refused = await createRecurringPayments({ environment: env(`http://127.0.0.1:${port}`), csvText: 'a\n', credentials });
  assert.ok(refused.outcome === 'transport-error' && refused.kind === 'refused', JSON.stringify(refused));
});
