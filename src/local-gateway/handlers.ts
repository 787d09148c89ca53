// The local gateway's request handlers, one named function per job, each given the running gateway's
// parts (GatewayParts) instead of closing over them: routing, create, report, the clock's advance and the
// callbacks it queues, and the admin surface's view of them.

import type * as http from 'node:http';
import { adminSubpath, handleAdmin, validDays, type AdminContext } from './admin';
import { authenticate, authorizationShape, type NonceCache } from './auth';
import { callbackUrlFor, type CallbackQueue } from './callbacks';
import {
  bodyTooLargeAnswer,
  formEncodeAnswer,
  handleCreate,
  jsonAnswer,
  unknownEndpointAnswer,
  type CreateResult,
  type Fields,
} from './create';
import { saidText } from '../core/output/said';
import { BodyTooLarge, HttpError, readBody, send } from './http';
import type { JournalStore } from './journal';
import { advance, advanceAllowance, MAX_ADVANCE_DAYS } from './payments';
import { parseReportRequest, renderReport } from './report';
import type { AdvanceSummary, CallbackResult, ChargeEvent, DemoMerchant, StoredPayment } from './types';

/** The report operation's denial, as the gateway answers it (docs/local-gateway.md, "Limits"): HTTP 200, text/plain, a plain sentence. */
export const REPORT_DENIAL = 'You are not authorised to perform this request.';

/** What every handler works on: one running gateway's state, merchant, nonces, callbacks and log. */
export interface GatewayParts {
  store: JournalStore;
  merchant: DemoMerchant;
  nonces: NonceCache;
  callbacks: CallbackQueue;
  maxBody: number;
  /** The longest payload (Base64 characters) a create takes. */
  maxPayload: number;
  /** The listening port (0 until the server listens). */
  port(): number;
  now(): number;
  log(line: string): void;
}

/** The two operations' paths, as patterns over the request path. */
export interface Routes {
  create: RegExp;
  report: RegExp;
}

export function queueCallbacks(
  g: GatewayParts,
  items: { payment: StoredPayment; event: ChargeEvent }[],
  results?: Promise<CallbackResult>[],
): number {
  let queued = 0;
  for (const { payment, event } of items) {
    const r = g.callbacks.enqueue(payment, event);
    if (r) {
      queued++;
      results?.push(r);
    }
  }
  return queued;
}

export function advanceNow(
  g: GatewayParts,
  days: number,
  results?: Promise<CallbackResult>[],
): AdvanceSummary & { callbacksQueued: number } {
  if (!validDays(days)) throw new RangeError(`days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
  const touched = new Set<StoredPayment>();
  const pendingCallbacks: { payment: StoredPayment; event: ChargeEvent }[] = [];
  const r = advance(g.store.state, days, {
    ...advanceAllowance(g.store.state),
    touched,
    // Callbacks are queued only after the commit: a receiver never hears of a charge the disk does not hold.
    onCharge: (payment, event) => {
      if (!callbackUrlFor(payment, event)) return;
      if (pendingCallbacks.length < g.callbacks.capacity) pendingCallbacks.push({ payment, event });
      else g.callbacks.dropped++;
    },
  });
  g.store.commit(touched);
  // The retries the clock reached go first: they were due before the charges this advance made.
  g.callbacks.releaseDue();
  const callbacksQueued = queueCallbacks(g, pendingCallbacks, results);
  g.log(
    `clock advanced ${days} day(s) ${r.from} -> ${r.today}: ${r.chargeCount} charge(s), ${r.stopped.length} stopped${r.truncated ? ` (${r.truncated.reason})` : ''}`,
  );
  return { ...r, callbacks: [], callbacksQueued };
}

export async function advanceDays(g: GatewayParts, days: number): Promise<AdvanceSummary> {
  const results: Promise<CallbackResult>[] = [];
  const r = advanceNow(g, days, results);
  const { callbacksQueued: _q, ...summary } = r;
  return { ...summary, callbacks: await Promise.all(results) };
}

function requestUrl(g: GatewayParts, req: http.IncomingMessage): string {
  return `http://${req.headers.host ?? `127.0.0.1:${g.port()}`}${req.url ?? '/'}`;
}

async function onCreate(g: GatewayParts, req: http.IncomingMessage, res: http.ServerResponse, endpointId: string): Promise<void> {
  // Refused before a byte of the body is read: without an OAuth header the request cannot succeed.
  const shape = authorizationShape(req.headers.authorization);
  if (!shape.ok) {
    g.log(`create denied (403): ${shape.reason}`);
    return send(res, 403, undefined, '', {}, true);
  }
  let body: Buffer;
  try {
    body = await readBody(req, g.maxBody);
  } catch (err) {
    if (!(err instanceof BodyTooLarge)) throw err;
    // Read to its end and discarded: answered like a payload over the maximum, never by closing the connection.
    const refused = bodyTooLargeAnswer(err.size, err.max, g.maxPayload);
    g.log(saidText(refused.logLine));
    return sendCreateAnswer(req, res, refused);
  }
  const isForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const form: Fields = isForm ? [...new URLSearchParams(body.toString('utf8'))] : [];
  const auth = authenticate(
    { operation: 'create', method: req.method ?? 'POST', url: requestUrl(g, req), form, authorization: req.headers.authorization },
    g.merchant,
    g.nonces,
    g.now(),
  );
  if (!auth.ok) {
    g.log(`create denied (403): ${auth.reason}`);
    return send(res, 403, undefined, '');
  }
  if (endpointId !== g.merchant.endpointId) {
    const refused = unknownEndpointAnswer(endpointId, g.merchant);
    g.log(saidText(refused.logLine));
    return send(res, refused.httpStatus, 'application/x-www-form-urlencoded; charset=utf-8', formEncodeAnswer(refused.fields));
  }
  const result = handleCreate(g.store.state, form, g.maxPayload);
  g.log(saidText(result.logLine));
  // One commit: the new payments, their first charges, the counters and the spent nonce.
  g.store.commit(result.created?.payments ?? [], g.nonces.take());
  // A real gateway answers first and calls back later.
  if (result.created) queueCallbacks(g, result.created.charges);
  sendCreateAnswer(req, res, result);
}

/** A create's answer, as JSON when the client asks for it, else as form pairs. */
function sendCreateAnswer(req: http.IncomingMessage, res: http.ServerResponse, result: CreateResult): void {
  const wantsJson = /application\/json/i.test(req.headers.accept ?? '');
  if (wantsJson) send(res, result.httpStatus, 'application/json; charset=utf-8', jsonAnswer(result.fields));
  else send(res, result.httpStatus, 'application/x-www-form-urlencoded; charset=utf-8', formEncodeAnswer(result.fields));
}

async function onReport(g: GatewayParts, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const shape = authorizationShape(req.headers.authorization);
  if (!shape.ok) {
    g.log(`report denied (200 text/plain): ${shape.reason}`);
    return send(res, 200, 'text/plain; charset=utf-8', REPORT_DENIAL, {}, true);
  }
  const body = await readBody(req, g.maxBody);
  const auth = authenticate(
    { operation: 'report', method: req.method ?? 'POST', url: requestUrl(g, req), authorization: req.headers.authorization },
    g.merchant,
    g.nonces,
    g.now(),
  );
  if (!auth.ok) {
    g.log(`report denied (200 text/plain): ${auth.reason}`);
    return send(res, 200, 'text/plain; charset=utf-8', REPORT_DENIAL);
  }
  g.store.commit([], g.nonces.take());
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'the report request body is not JSON');
  }
  const parsed = parseReportRequest(json);
  if (!parsed.ok) throw new HttpError(400, parsed.message);
  const report = renderReport(g.store.state, parsed.request);
  g.log(`report ${parsed.request.format} ${parsed.request.reportName}: ${report.body.length} bytes`);
  send(res, 200, report.contentType, report.body, { 'content-disposition': `attachment; filename="${report.fileName}"` });
}

/** Sends a request to the admin surface or to one of the two operations. */
export async function route(
  g: GatewayParts,
  routes: Routes,
  admin: AdminContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (adminSubpath(url.pathname) !== undefined) return handleAdmin(admin, req, res, url);
  const create = routes.create.exec(url.pathname);
  const isReport = routes.report.test(url.pathname);
  if (!create && !isReport) throw new HttpError(404, 'not found');
  if (req.method !== 'POST') throw new HttpError(405, 'use POST');
  if (create) {
    let endpointId: string;
    try {
      endpointId = decodeURIComponent(create[1]);
    } catch {
      endpointId = create[1];
    }
    return onCreate(g, req, res, endpointId);
  }
  return onReport(g, req, res);
}

/** The admin surface's view of the gateway (admin.ts); `info` names the addresses it listens on. */
export function adminContext(
  g: GatewayParts,
  token: string,
  info: () => { baseUrl: string; reportBaseUrl: string; startId: string },
): AdminContext {
  return {
    get port() {
      return g.port();
    },
    token,
    state: () => g.store.state,
    find: (id) => g.store.find(id),
    advance: (days) => advanceNow(g, days),
    changed(p, events) {
      g.store.commit([p]);
      return queueCallbacks(
        g,
        events.map((event) => ({ payment: p, event })),
      );
    },
    info: () => ({
      today: g.store.state.today,
      ...info(),
      endpointId: g.merchant.endpointId,
      consumerKey: g.merchant.consumerKey,
    }),
    log: g.log,
  };
}
