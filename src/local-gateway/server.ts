// The local gateway's HTTP face: both operations under their path prefixes, and a small loopback-only
// admin surface (/_sim/*) that moves the simulated clock and shows the payments.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PATHS, type Environment, type PathTemplates } from '../core/gateway/environments';
import { authenticate, NonceCache } from './auth';
import { sendCallback } from './callbacks';
import { formEncodeAnswer, handleCreate, jsonAnswer, type Fields } from './create';
import { advance, findPayment, MAX_ADVANCE_DAYS, reschedule, simToday, stopPayment } from './ledger';
import { loadOrCreateDemoMerchant } from './merchant';
import { parseReportRequest, renderReport } from './report';
import { StateStore } from './state';
import type { AdvanceSummary, CallbackResult, ChargeEvent, LocalGateway, LocalGatewayOptions, SimState, StoredPayment } from './types';

export const DEFAULT_PATH_PREFIX = '/paygate';
export const DEFAULT_REPORT_PATH_PREFIX = '/reports';
/** The report operation's denial, as the spec describes it: HTTP 200, text/plain, a plain sentence. */
export const REPORT_DENIAL = 'You are not authorised to perform this request.';
const MAX_BODY_BYTES = 10 * 1024 * 1024;

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const validDays = (days: number) => Number.isSafeInteger(days) && days >= 1 && days <= MAX_ADVANCE_DAYS;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function normalisePrefix(p: string | undefined, fallback: string): string {
  const v = (p ?? fallback).trim();
  if (v === '' || v === '/') return '';
  return `/${v.replace(/^\/+|\/+$/g, '')}`;
}

/** `/prefix/api/v4/create-recurring-payments/{endpointId}/` → a pattern capturing the id, trailing slash optional. */
function createPattern(prefix: string, template: string): RegExp {
  const t = template.replace(/\/+$/, '');
  const parts = t.split(/\{endpoint_?id\}/i).map(escapeRegExp);
  return new RegExp(`^${escapeRegExp(prefix)}${parts.join('([^/]+)')}/?$`);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, contentType: string | undefined, body: string | Buffer, extra: Record<string, string> = {}): void {
  const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...extra };
  if (contentType) headers['content-type'] = contentType;
  res.writeHead(status, headers);
  res.end(body);
}

const sendJson = (res: http.ServerResponse, status: number, value: unknown) => send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`);

export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const stateDir = options.stateDir;
  const merchant = loadOrCreateDemoMerchant(stateDir);
  const store = new StateStore(stateDir, options.initialDate, log);
  const paths = options.paths ?? DEFAULT_PATHS;
  const prefix = normalisePrefix(options.pathPrefix, DEFAULT_PATH_PREFIX);
  const reportPrefix = normalisePrefix(options.reportPathPrefix, DEFAULT_REPORT_PATH_PREFIX);
  const createRe = createPattern(prefix, paths.createRecurringPayments);
  const reportRe = new RegExp(`^${escapeRegExp(reportPrefix + paths.customReport.replace(/\/+$/, ''))}/?$`);
  const nonces = new NonceCache();
  const pending = new Set<Promise<unknown>>();
  let port = 0;

  const persist = () => store.save();

  async function callbacksFor(items: { payment: StoredPayment; event: ChargeEvent }[]): Promise<CallbackResult[]> {
    const results: CallbackResult[] = [];
    // In order, one at a time: a receiver sees a payment's charges in the order they were made.
    for (const { payment, event } of items) {
      const r = await sendCallback(payment, event, log);
      if (r) results.push(r);
    }
    return results;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  }

  function withPayments(state: SimState, events: ChargeEvent[]): { payment: StoredPayment; event: ChargeEvent }[] {
    return events.map((event) => ({ payment: findPayment(state, event['recurring-payment-id'])!, event }));
  }

  async function advanceDays(days: number): Promise<AdvanceSummary> {
    if (!validDays(days)) throw new RangeError(`days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
    const state = store.current();
    const r = advance(state, days);
    persist();
    log(`clock advanced ${days} day(s) ${r.from} -> ${r.today}: ${r.charges.length} charge(s), ${r.stopped.length} stopped`);
    const callbacks = await track(callbacksFor(withPayments(state, r.charges)));
    return { ...r, callbacks };
  }

  function requestUrl(req: http.IncomingMessage): string {
    return `http://${req.headers.host ?? `127.0.0.1:${port}`}${req.url ?? '/'}`;
  }

  async function onCreate(req: http.IncomingMessage, res: http.ServerResponse, endpointId: string): Promise<void> {
    const body = await readBody(req);
    const isForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
    const form: Fields = isForm ? [...new URLSearchParams(body.toString('utf8'))] : [];
    const auth = authenticate({ operation: 'create', method: req.method ?? 'POST', url: requestUrl(req), form, authorization: req.headers.authorization }, merchant, nonces, now());
    const denied = !auth.ok ? auth.reason : endpointId !== merchant.endpointId ? `endpoint ${endpointId} does not belong to ${merchant.consumerKey}` : undefined;
    if (denied) {
      log(`create denied (403): ${denied}`);
      send(res, 403, undefined, '');
      return;
    }
    const result = handleCreate(store.current(), form);
    log(result.logLine);
    if (result.created) {
      persist();
      // A real gateway answers first and calls back later; close() still waits for these.
      void track(callbacksFor(result.created.charges));
    }
    const wantsJson = /application\/json/i.test(req.headers.accept ?? '');
    if (wantsJson) send(res, result.httpStatus, 'application/json; charset=utf-8', jsonAnswer(result.fields));
    else send(res, result.httpStatus, 'application/x-www-form-urlencoded; charset=utf-8', formEncodeAnswer(result.fields));
  }

  async function onReport(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const auth = authenticate({ operation: 'report', method: req.method ?? 'POST', url: requestUrl(req), authorization: req.headers.authorization }, merchant, nonces, now());
    if (!auth.ok) {
      log(`report denied (200 text/plain): ${auth.reason}`);
      send(res, 200, 'text/plain; charset=utf-8', REPORT_DENIAL);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpError(400, 'the report request body is not JSON');
    }
    const parsed = parseReportRequest(json);
    if (!parsed.ok) throw new HttpError(400, parsed.message);
    const report = renderReport(store.current(), parsed.request);
    log(`report ${parsed.request.format} ${parsed.request.reportName}: ${report.body.length} bytes`);
    send(res, 200, report.contentType, report.body, { 'content-disposition': `attachment; filename="${report.fileName}"` });
  }

  async function onAdmin(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    // The admin surface has no signature: refuse anything a web page could send (DNS rebinding, CSRF).
    const host = (req.headers.host ?? '').toLowerCase();
    if (req.headers.origin !== undefined || !(host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`)) {
      throw new HttpError(403, 'admin endpoints accept requests from local tools only');
    }
    const m = /^\/_sim\/payments\/([^/]+)\/(stop|reschedule)$/.exec(url.pathname);
    const state = store.current();
    if (req.method === 'GET' && url.pathname === '/_sim/payments') return sendJson(res, 200, { today: state.today, payments: state.payments });
    if (req.method === 'GET' && url.pathname === '/_sim/state') {
      return sendJson(res, 200, { today: state.today, baseUrl: gateway.baseUrl, reportBaseUrl: gateway.reportBaseUrl, endpointId: merchant.endpointId, consumerKey: merchant.consumerKey });
    }
    if (req.method === 'POST' && url.pathname === '/_sim/advance') {
      await readBody(req);
      const days = Number(url.searchParams.get('days') ?? '1');
      if (!validDays(days)) throw new HttpError(400, `days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
      return sendJson(res, 200, await advanceDays(days));
    }
    if (req.method === 'POST' && m) {
      await readBody(req);
      const p = findPayment(state, decodeURIComponent(m[1]));
      if (!p) throw new HttpError(404, `no recurring payment ${m[1]}`);
      let events: ChargeEvent[] = [];
      if (m[2] === 'stop') stopPayment(p);
      else events = reschedule(state, p);
      persist();
      log(`payment ${p['recurring-payment-id']} ${m[2]}: status ${p.status}`);
      const callbacks = await track(callbacksFor(withPayments(state, events)));
      return sendJson(res, 200, { payment: p, charges: events, callbacks });
    }
    throw new HttpError(404, 'unknown admin endpoint');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/_sim/')) return onAdmin(req, res, url);
    const create = createRe.exec(url.pathname);
    const isReport = reportRe.test(url.pathname);
    if (!create && !isReport) throw new HttpError(404, 'not found');
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    if (create) return onCreate(req, res, decodeURIComponent(create[1]));
    return onReport(req, res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      log(`${req.method} ${req.url?.split('?')[0]} -> ${status}: ${message}`);
      if (!res.headersSent) send(res, status, 'text/plain; charset=utf-8', `${message}\n`);
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const environment: Environment = {
    name: 'local',
    baseUrl: `${origin}${prefix}`,
    reportBaseUrl: `${origin}${reportPrefix}`,
    endpointId: merchant.endpointId,
    consumerKey: merchant.consumerKey,
    production: false,
  };
  log(`local gateway listening on ${origin} (simulated date ${store.current().today})`);

  let closing: Promise<void> | undefined;
  const gateway: LocalGateway = {
    baseUrl: environment.baseUrl,
    reportBaseUrl: environment.reportBaseUrl,
    origin,
    port,
    environment,
    merchant,
    today: () => simToday(store.current()),
    advanceDays,
    payments: () => structuredClone(store.current().payments),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        // Every change was saved when it was made; saving again here could overwrite another process's newer state.
        await Promise.allSettled([...pending]);
        log('local gateway stopped');
      })();
      return closing;
    },
  };
  return gateway;
}
