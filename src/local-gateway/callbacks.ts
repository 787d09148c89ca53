// Callbacks to notify_url / server_callback_url when a charge reaches a final status. The simulator runs
// on a developer's machine, so it only ever calls back to that machine: any other address is skipped.

import * as http from 'node:http';
import { isIP } from 'node:net';
import type { CallbackResult, ChargeEvent, StoredPayment } from './types';

export const CALLBACK_TIMEOUT_MS = 3000;
/** One first try and one retry: enough to ride over a listener that is still starting, never a loop. */
export const CALLBACK_ATTEMPTS = 2;

export type LoopbackTarget = { ok: true; url: URL; connectHost: string } | { ok: false; reason: string };

/** Accepts http URLs on 127.0.0.0/8, ::1 or `localhost` (connected to 127.0.0.1, never resolved). */
export function loopbackTarget(text: string): LoopbackTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:') return { ok: false, reason: `${url.protocol} callbacks are not supported by the local gateway (http only)` };
  const host = url.hostname.toLowerCase();
  if (host === 'localhost') return { ok: true, url, connectHost: '127.0.0.1' };
  if (host === '[::1]') return { ok: true, url, connectHost: '::1' };
  if (isIP(host) === 4 && host.startsWith('127.')) return { ok: true, url, connectHost: host };
  return { ok: false, reason: 'not a loopback address' };
}

export function callbackFields(p: StoredPayment, e: ChargeEvent): [string, string][] {
  return [
    ['type', 'recurring-charge'],
    ['status', e.status],
    ['recurring-payment-id', e['recurring-payment-id']],
    ['serial-number', p['serial-number']],
    ['client-orderid', e['client-orderid']],
    ['amount', e.amount],
    ['currency', e.currency],
    ['charge-index', String(e.index)],
    ['charge-date', e.date],
  ];
}

function postOnce(target: { url: URL; connectHost: string }, body: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.connectHost,
        port: target.url.port || 80,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { host: target.url.host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        timeout: CALLBACK_TIMEOUT_MS,
      },
      (res) => {
        res.resume(); // the answer's body is not used; drain it so the socket is freed
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (err) => resolve({ error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CALLBACK_TIMEOUT_MS} ms`)));
    req.on('error', (err) => resolve({ error: err.message }));
    req.end(body);
  });
}

export async function sendCallback(p: StoredPayment, e: ChargeEvent, log: (line: string) => void): Promise<CallbackResult | undefined> {
  if (!p.callbackUrl) return undefined;
  const base = { url: p.callbackUrl, 'recurring-payment-id': e['recurring-payment-id'], 'charge-index': e.index };
  const target = loopbackTarget(p.callbackUrl);
  if (!target.ok) {
    log(`callback skipped for payment ${e['recurring-payment-id']} charge ${e.index}: ${p.callbackUrl} is ${target.reason}`);
    return { ...base, outcome: 'skipped', detail: target.reason };
  }
  const body = new URLSearchParams(callbackFields(p, e)).toString();
  let last = '';
  for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
    const r = await postOnce(target, body);
    if ('status' in r && r.status >= 200 && r.status < 300) {
      log(`callback ${e.status} for payment ${e['recurring-payment-id']} charge ${e.index} delivered to ${p.callbackUrl} (${r.status})`);
      return { ...base, outcome: 'delivered', httpStatus: r.status };
    }
    last = 'status' in r ? `HTTP ${r.status}` : r.error;
  }
  log(`callback for payment ${e['recurring-payment-id']} charge ${e.index} to ${p.callbackUrl} failed after ${CALLBACK_ATTEMPTS} attempts: ${last}`);
  return { ...base, outcome: 'failed', detail: last };
}
