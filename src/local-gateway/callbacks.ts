// Callbacks to notify_url / server_callback_url when a charge reaches a final status.
//
// What a local stand-in calls back (and why): the rows come from files a developer did not necessarily
// write, so a callback address is untrusted input aimed at the developer's machine.
// - http on a loopback address only (127.0.0.0/8, ::1, `localhost` connected to 127.0.0.1, never
//   resolved): nothing leaves the machine;
// - a port from 1024 up: a callback receiver under test runs as the user, system services below 1024
//   (mail, printing, …) are not the gateway's business;
// - never this gateway's own port: the gateway must not be turned on itself;
// - never an admin path (`/_local/…`, or its old name `/_sim/…`) on any port: no row can move a clock or stop a payment, here or
//   in another local gateway;
// - no user:password@ in the address.
// Anything else is skipped and logged. Delivery is one at a time in charge order through a bounded queue:
// a burst of charges can neither hold unbounded memory nor keep the process alive, and close() drops
// what is still waiting instead of waiting for receivers that never answer.

import * as http from 'node:http';
import { isIP } from 'node:net';
import { callbackBody } from '../core/callbacks';
import { ADMIN_PATH_PREFIXES } from './admin';
import type { CallbackResult, ChargeEvent, StoredPayment } from './types';

export const CALLBACK_TIMEOUT_MS = 3000;
/** One first try and one retry: enough to ride over a listener that is still starting, never a loop. */
export const CALLBACK_ATTEMPTS = 2;
/** Callbacks waiting to be sent; more are dropped (and counted) until the queue drains. */
export const MAX_QUEUED_CALLBACKS = 1000;
export const MIN_CALLBACK_PORT = 1024;

export type LoopbackTarget = { ok: true; url: URL; connectHost: string } | { ok: false; reason: string };

function isAdminPath(pathname: string): boolean {
  let p: string;
  try {
    p = decodeURIComponent(pathname);
  } catch {
    p = pathname;
  }
  p = p.toLowerCase().replace(/\/{2,}/g, '/');
  return ADMIN_PATH_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

/**
 * Whether the local gateway may call `text` back; `ownPorts` are the gateway's own listening ports.
 * Accepts http URLs on 127.0.0.0/8, ::1 or `localhost` (connected to 127.0.0.1, never resolved).
 */
export function loopbackTarget(text: string, ownPorts: readonly number[] = []): LoopbackTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:')
    return { ok: false, reason: `${url.protocol} callbacks are not supported by the local gateway (http only)` };
  const host = url.hostname.toLowerCase();
  let connectHost: string;
  if (host === 'localhost') connectHost = '127.0.0.1';
  else if (host === '[::1]') connectHost = '::1';
  else if (isIP(host) === 4 && host.startsWith('127.')) connectHost = host;
  else return { ok: false, reason: 'not a loopback address' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'an address with user:password@ is not called' };
  const port = Number(url.port || 80);
  if (port < MIN_CALLBACK_PORT) return { ok: false, reason: `port ${port} is below ${MIN_CALLBACK_PORT} (system services are not called)` };
  if (ownPorts.includes(port)) return { ok: false, reason: "the local gateway's own port" };
  if (isAdminPath(url.pathname))
    return { ok: false, reason: `an admin path (${ADMIN_PATH_PREFIXES.map((prefix) => `${prefix}/…`).join(' or ')})` };
  return { ok: true, url, connectHost };
}

/** The callback's body as the gateway family sends it (core/callbacks), signed with the merchant's control key. */
export function callbackBodyFor(p: StoredPayment, e: ChargeEvent, controlKey: string | undefined): string {
  return callbackBody(
    {
      status: e.status,
      orderid: e['recurring-payment-id'],
      'serial-number': p['serial-number'],
      'client-orderid': e['client-orderid'],
      amount: e.amount,
      currency: e.currency,
      'charge-index': e.index,
      'charge-date': e.date,
    },
    controlKey,
  );
}

function postOnce(
  target: { url: URL; connectHost: string },
  body: string,
  signal: AbortSignal,
): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.connectHost,
        port: target.url.port || 80,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { host: target.url.host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        timeout: CALLBACK_TIMEOUT_MS,
        signal,
      },
      (res) => {
        res.resume(); // the answer's body is not used; drain it so the socket is freed
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (err) => resolve({ error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CALLBACK_TIMEOUT_MS} ms`)));
    req.on('error', (err) => resolve({ error: signal.aborted ? 'the local gateway stopped' : err.message }));
    req.end(body);
  });
}

export async function sendCallback(
  p: StoredPayment,
  e: ChargeEvent,
  log: (line: string) => void,
  o: { ownPorts?: readonly number[]; signal?: AbortSignal; controlKey?: string } = {},
): Promise<CallbackResult | undefined> {
  if (!p.callbackUrl) return undefined;
  const base = { url: p.callbackUrl, 'recurring-payment-id': e['recurring-payment-id'], 'charge-index': e.index };
  const target = loopbackTarget(p.callbackUrl, o.ownPorts);
  if (!target.ok) {
    log(`callback skipped for payment ${e['recurring-payment-id']} charge ${e.index}: ${p.callbackUrl} is ${target.reason}`);
    return { ...base, outcome: 'skipped', detail: target.reason };
  }
  const signal = o.signal ?? new AbortController().signal;
  const body = callbackBodyFor(p, e, o.controlKey);
  let last = '';
  for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS && !signal.aborted; attempt++) {
    const r = await postOnce(target, body, signal);
    if ('status' in r && r.status >= 200 && r.status < 300) {
      log(`callback ${e.status} for payment ${e['recurring-payment-id']} charge ${e.index} delivered to ${p.callbackUrl} (${r.status})`);
      return { ...base, outcome: 'delivered', httpStatus: r.status };
    }
    last = 'status' in r ? `HTTP ${r.status}` : r.error;
  }
  log(`callback for payment ${e['recurring-payment-id']} charge ${e.index} to ${p.callbackUrl} failed: ${last}`);
  return { ...base, outcome: 'failed', detail: last };
}

interface Queued {
  payment: StoredPayment;
  event: ChargeEvent;
  done: (r: CallbackResult) => void;
}

/** One sender for the whole gateway: callbacks leave in the order their charges were made. */
export class CallbackQueue {
  private queue: Queued[] = [];
  private running = false;
  private readonly abort = new AbortController();
  /** Callbacks dropped because the queue was full, since start. */
  dropped = 0;

  constructor(
    private readonly ownPorts: () => readonly number[],
    private readonly log: (line: string) => void,
    private readonly max = MAX_QUEUED_CALLBACKS,
    /** The demo merchant's control key: every callback carries its `control` checksum. */
    private readonly controlKey?: string,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  /** How many more callbacks fit in the queue now. */
  get capacity(): number {
    return Math.max(0, this.max - this.queue.length);
  }

  /** Queues the charge's callback; undefined when the payment has no callback address or the queue is full. */
  enqueue(payment: StoredPayment, event: ChargeEvent): Promise<CallbackResult> | undefined {
    if (!payment.callbackUrl) return undefined;
    if (this.abort.signal.aborted || this.queue.length >= this.max) {
      this.dropped++;
      if (this.dropped === 1 || this.dropped % 1000 === 0) {
        this.log(
          `callback queue full (${this.max} waiting): ${this.dropped} callback(s) dropped so far, e.g. payment ${event['recurring-payment-id']} charge ${event.index}`,
        );
      }
      return undefined;
    }
    const p = new Promise<CallbackResult>((done) => this.queue.push({ payment, event, done }));
    if (!this.running) void this.drain();
    return p;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) {
        const skipped = {
          url: item.payment.callbackUrl ?? '',
          'recurring-payment-id': item.event['recurring-payment-id'],
          'charge-index': item.event.index,
        };
        if (this.abort.signal.aborted) {
          item.done({ ...skipped, outcome: 'skipped', detail: 'the local gateway stopped' });
          continue;
        }
        const r = await sendCallback(item.payment, item.event, this.log, {
          ownPorts: this.ownPorts(),
          signal: this.abort.signal,
          controlKey: this.controlKey,
        });
        item.done(r ?? { ...skipped, outcome: 'skipped', detail: 'no callback address' });
      }
    } finally {
      this.running = false;
    }
  }

  /** Stops sending: the callback in flight is aborted, those waiting are dropped as skipped. */
  close(): void {
    if (this.queue.length > 0) this.log(`${this.queue.length} callback(s) not sent: the local gateway stopped`);
    this.abort.abort();
    if (!this.running) void this.drain();
  }
}
