import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import * as zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import {
  createRecurringPayments,
  interpretCreateAnswer,
  runCustomReport,
  newReportTemplate,
  type GatewayOutcome,
} from '../../src/core/gateway';

// Issue 17, answers: a typed success under a failing status is unrecognised, a 5xx that is not the
// gateway's own typed answer is unknown (gateway-unavailable), the gateway's typed error stays a server
// error, and compressed answers are decoded on both operations.

const FORM = 'application/x-www-form-urlencoded';
const SUCCESS = 'type=create-recurring-payment-response\n&status=active\n&recurring-payment-id=1';

function create(status: number, body: string, contentType = FORM): GatewayOutcome {
  return interpretCreateAnswer({ status, contentType, headers: { 'content-type': contentType }, body: new TextEncoder().encode(body) });
}

test('a typed success under any non-2xx status is unrecognised', () => {
  for (const status of [500, 502, 503, 400, 404, 302]) assert.equal(create(status, SUCCESS).outcome, 'unrecognised', String(status));
  assert.equal(create(200, SUCCESS).outcome, 'accepted');
});

test('502, 503, 504 and untyped 5xx are unknown (gateway-unavailable); the typed error stays a server error', () => {
  const cases: [number, string, string, string | undefined][] = [
    [502, '', '', 'gateway-unavailable'],
    [504, '<html><head><title>504 Gateway Time-out</title></head><body>nginx</body></html>', 'text/html', 'gateway-unavailable'],
    [503, 'Service Unavailable', 'text/plain', 'gateway-unavailable'],
    [500, '<html><body>Internal Server Error</body></html>', 'text/html', 'gateway-unavailable'],
    [500, '', '', 'gateway-unavailable'],
    [502, 'Bad gateway. Error ID: 77', 'text/plain', 'gateway-unavailable'],
    [500, 'type=error\n&error-message=Internal\n&error-id=e-1', FORM, undefined],
    [503, 'type=error\n&error-message=Maintenance', FORM, undefined],
    [500, 'Internal Server Error. Error ID: 3b8d1f44c2', 'text/plain', undefined],
  ];
  for (const [status, body, ct, kind] of cases) {
    const o = create(status, body, ct);
    if (kind === undefined) assert.equal(o.outcome, 'server-error', `${status} ${body}`);
    else {
      assert.equal(o.outcome, 'unknown', `${status} ${body}`);
      assert.equal(o.outcome === 'unknown' && o.kind, kind);
      assert.equal(o.outcome === 'unknown' && o.status, status);
    }
  }
});

async function server(reply: (res: http.ServerResponse) => void) {
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => reply(res));
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return {
    environment: {
      name: 'test',
      baseUrl: `${origin}/`,
      reportBaseUrl: `${origin}/r`,
      endpointId: '42',
      consumerKey: 'k',
      production: false,
    },
    close: () => {
      srv.closeAllConnections();
      return new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

const credentials = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'k', consumerSecret: 's' };

for (const [coding, encode] of [
  ['gzip', zlib.gzipSync],
  ['deflate', zlib.deflateSync],
  ['br', zlib.brotliCompressSync],
] as const) {
  test(`a ${coding} create answer is decoded like a report's`, async (t) => {
    const s = await server((res) =>
      res.writeHead(200, { 'Content-Type': FORM, 'Content-Encoding': coding }).end(encode(Buffer.from(SUCCESS))),
    );
    t.after(s.close);
    const o = await createRecurringPayments({ environment: s.environment, payload: 'eA==', credentials, timeoutMs: 5000 });
    assert.equal(o.outcome, 'accepted');
    const r = await runCustomReport({ environment: s.environment, template: newReportTemplate(), credentials, timeoutMs: 5000 });
    assert.notEqual(r.outcome, 'transport-error');
  });
}

test('a compressed answer that does not decode is unknown (truncated) on the create operation', async (t) => {
  const s = await server((res) =>
    res.writeHead(200, { 'Content-Type': FORM, 'Content-Encoding': 'gzip' }).end(Buffer.from('not gzip at all')),
  );
  t.after(s.close);
  const o = await createRecurringPayments({ environment: s.environment, payload: 'eA==', credentials, timeoutMs: 5000 });
  assert.equal(o.outcome, 'unknown');
  assert.equal(o.outcome === 'unknown' && o.kind, 'truncated');
});

test('an empty 502 from a proxy is unknown with the advice to check before sending again', async (t) => {
  const s = await server((res) => res.writeHead(502).end());
  t.after(s.close);
  const o = await createRecurringPayments({ environment: s.environment, payload: 'eA==', credentials, timeoutMs: 5000 });
  assert.equal(o.outcome, 'unknown');
  assert.match(o.outcome === 'unknown' ? o.message : '', /may have created the payments/);
});
