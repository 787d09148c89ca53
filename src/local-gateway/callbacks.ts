// Callbacks to notify_url / server_callback_url when a charge is made, as the gateway makes them (the
// gateway family's "Merchant Callbacks" documentation and its PHP library, docs/callbacks.md): an HTTP GET
// to the URL, the fields in its query string after the URL's own query (orderid, merchant_order,
// client_orderid, amount, status, type `sale`, control, …); a call answered with anything but 200 is tried
// again on the simulated clock (RETRY_DAYS: the first retry within the next simulated day, then further
// apart, at most CALLBACK_TRIES tries within 14 simulated days); notify_url hears every charge,
// server_callback_url the payment's first only.
//
// Which addresses are called at all is callbackTarget.ts's; a refused one is skipped and logged. Delivery
// is one at a time in charge order through a bounded queue: a burst of charges can neither hold unbounded
// memory nor keep the process alive, and close() drops what is still waiting instead of waiting for
// receivers that never answer. Retries wait in memory (at
// most MAX_WAITING_RETRIES): they need the local gateway to keep running (`paygate gateway`, the editor).

import * as http from 'node:http';
import { callbackQuery, withQuery } from '../core/callbacks';
import { parseGatewayDate, toDayNumber } from '../core/dates';
import { loopbackTarget } from './callbackTarget';
import type { CallbackResult, ChargeEvent, StoredPayment } from './types';

export const CALLBACK_TIMEOUT_MS = 3000;
/** The most tries of one callback (the family: 30 tries over 14 days). */
export const CALLBACK_TRIES = 30;
/**
 * When each retry is due, in simulated days after the first try (tries 2 to 30): the first within the next
 * day, then further apart, the last on day 14. The clock moves in whole days, so the tries due on a day are
 * made when it reaches that day, one after another until one is answered 200.
 */
export const RETRY_DAYS: readonly number[] = [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14];
/** Callbacks waiting to be sent; more are dropped (and counted) until the queue drains. */
export const MAX_QUEUED_CALLBACKS = 1000;
/** Failed callbacks waiting for their next try on the simulated clock; more are given up (and logged). */
export const MAX_WAITING_RETRIES = 1000;
/** The URL the charge's callback goes to: notify_url for every charge, server_callback_url for the payment's first only. */
export function callbackUrlFor(p: StoredPayment, e: ChargeEvent): string | undefined {
  if (!p.callbackUrl) return undefined;
  if (p.callbackColumn === 'server_callback_url' && p.charges[0]?.transactionId !== e.transactionId) return undefined;
  return p.callbackUrl;
}

/** The callback's fields under the gateway's names (core/callbacks), signed with the merchant's control key, then the local gateway's own. */
export function callbackQueryFor(p: StoredPayment, e: ChargeEvent, controlKey: string | undefined): string {
  return callbackQuery(
    {
      type: 'sale',
      status: e.status,
      orderid: e.transactionId,
      client_orderid: e['client-orderid'],
      amount: e.amount,
      currency: e.currency,
      extra: [
        ['recurring-payment-id', e['recurring-payment-id']],
        ['serial-number', p['serial-number']],
        ['charge-index', String(e.index)],
        ['charge-date', e.date],
      ],
    },
    controlKey,
  );
}

function getOnce(
  target: { url: URL; connectHost: string },
  query: string,
  signal: AbortSignal,
): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.connectHost,
        port: target.url.port || 80,
        path: withQuery(`${target.url.pathname}${target.url.search}`, query),
        method: 'GET',
        headers: { host: target.url.host },
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
    req.end();
  });
}

/** One try of the charge's callback: delivered only when answered 200 (the family retries anything else). */
export async function sendCallback(
  p: StoredPayment,
  e: ChargeEvent,
  log: (line: string) => void,
  o: { ownPorts?: readonly number[]; signal?: AbortSignal; controlKey?: string; attempt?: number } = {},
): Promise<CallbackResult | undefined> {
  const url = callbackUrlFor(p, e);
  if (!url) return undefined;
  const attempt = o.attempt ?? 1;
  const base = { url, attempt, 'recurring-payment-id': e['recurring-payment-id'], 'charge-index': e.index };
  const what = `callback ${e.status} for payment ${e['recurring-payment-id']} charge ${e.index}`;
  const target = loopbackTarget(url, o.ownPorts);
  if (!target.ok) {
    log(`callback skipped for payment ${e['recurring-payment-id']} charge ${e.index}: ${url} is ${target.reason}`);
    return { ...base, outcome: 'skipped', detail: target.reason };
  }
  const signal = o.signal ?? new AbortController().signal;
  const r = await getOnce(target, callbackQueryFor(p, e, o.controlKey), signal);
  if ('status' in r && r.status === 200) {
    log(`${what} delivered to ${url} (try ${attempt}, 200)`);
    return { ...base, outcome: 'delivered', httpStatus: r.status };
  }
  const detail = 'status' in r ? `HTTP ${r.status}` : r.error;
  log(`${what} to ${url} failed on try ${attempt} of ${CALLBACK_TRIES}: ${detail}`);
  return { ...base, outcome: 'failed', ...('status' in r ? { httpStatus: r.status } : {}), detail };
}

interface Queued {
  payment: StoredPayment;
  event: ChargeEvent;
  /** 1 for the first try. */
  attempt: number;
  done?: (r: CallbackResult) => void;
}

interface Retry {
  payment: StoredPayment;
  event: ChargeEvent;
  attempt: number;
  /** The simulated day (day number) it is due. */
  due: number;
}

/** One sender for the whole gateway: callbacks leave in the order their charges were made, retries when the simulated clock reaches them. */
export class CallbackQueue {
  private queue: Queued[] = [];
  private retries: Retry[] = [];
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
    /** The simulated clock's day (a day number): a retry is sent once it is due. */
    private readonly today: () => number = () => Number.MAX_SAFE_INTEGER,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  /** Failed callbacks waiting for their next try on the simulated clock. */
  get waitingRetries(): number {
    return this.retries.length;
  }

  /** How many more callbacks fit in the queue now. */
  get capacity(): number {
    return Math.max(0, this.max - this.queue.length);
  }

  /** Queues the charge's callback (its first try); undefined when it has no callback URL or the queue is full. */
  enqueue(payment: StoredPayment, event: ChargeEvent): Promise<CallbackResult> | undefined {
    if (!callbackUrlFor(payment, event)) return undefined;
    if (this.abort.signal.aborted || this.queue.length >= this.max) {
      this.dropped++;
      if (this.dropped === 1 || this.dropped % 1000 === 0) {
        this.log(
          `callback queue full (${this.max} waiting): ${this.dropped} callback(s) dropped so far, e.g. payment ${event['recurring-payment-id']} charge ${event.index}`,
        );
      }
      return undefined;
    }
    const p = new Promise<CallbackResult>((done) => this.queue.push({ payment, event, attempt: 1, done }));
    this.start();
    return p;
  }

  /** Queues the retries the simulated clock has reached (call after it moved, before the new charges' callbacks); how many. */
  releaseDue(): number {
    const today = this.today();
    const due = this.retries.filter((r) => r.due <= today);
    if (due.length === 0) return 0;
    this.retries = this.retries.filter((r) => r.due > today);
    due.sort((a, b) => a.due - b.due);
    for (const r of due) this.queue.push({ payment: r.payment, event: r.event, attempt: r.attempt });
    this.start();
    return due.length;
  }

  private start(): void {
    if (!this.running) void this.drain();
  }

  /** After a try that was not answered 200: its next try, due RETRY_DAYS after the charge's day, or given up after the last. */
  private retryLater(item: Queued): void {
    const next = item.attempt + 1;
    const what = `payment ${item.event['recurring-payment-id']} charge ${item.event.index}`;
    if (next > CALLBACK_TRIES) return this.log(`callback for ${what} given up after ${CALLBACK_TRIES} tries`);
    if (this.retries.length >= MAX_WAITING_RETRIES)
      return this.log(`callback for ${what} not retried: ${MAX_WAITING_RETRIES} retries are already waiting`);
    const chargeDay = parseGatewayDate(item.event.date);
    const due = (chargeDay ? toDayNumber(chargeDay) : this.today()) + RETRY_DAYS[next - 2];
    // A retry the clock has already passed (the charge was made earlier in a long advance) is due now.
    // It goes next, before callbacks queued after it: the tries of one callback stay together.
    if (due <= this.today()) this.queue.unshift({ payment: item.payment, event: item.event, attempt: next });
    else this.retries.push({ payment: item.payment, event: item.event, attempt: next, due });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) {
        const skipped = {
          url: item.payment.callbackUrl ?? '',
          attempt: item.attempt,
          'recurring-payment-id': item.event['recurring-payment-id'],
          'charge-index': item.event.index,
        };
        if (this.abort.signal.aborted) {
          item.done?.({ ...skipped, outcome: 'skipped', detail: 'the local gateway stopped' });
          continue;
        }
        const r = await sendCallback(item.payment, item.event, this.log, {
          ownPorts: this.ownPorts(),
          signal: this.abort.signal,
          controlKey: this.controlKey,
          attempt: item.attempt,
        });
        if (r?.outcome === 'failed' && !this.abort.signal.aborted) this.retryLater(item);
        item.done?.(r ?? { ...skipped, outcome: 'skipped', detail: 'no callback address' });
      }
    } finally {
      this.running = false;
    }
  }

  /** Stops sending: the callback in flight is aborted, those waiting are dropped as skipped, retries forgotten. */
  close(): void {
    if (this.queue.length > 0) this.log(`${this.queue.length} callback(s) not sent: the local gateway stopped`);
    if (this.retries.length > 0) this.log(`${this.retries.length} callback retry(ies) not sent: the local gateway stopped`);
    this.retries = [];
    this.abort.abort();
    this.start();
  }
}
