// The local gateway's HTTP face: both operations under their path prefixes, and the admin surface
// (/_local/*, admin.ts). One gateway per state directory (running.ts); every request that changes
// something commits it to the journal (journal.ts) before the answer leaves.

import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PATHS, type Environment } from '../core/gateway/environments';
import { adminSubpath, handleAdmin, validDays, type AdminContext } from './admin';
import { authenticate, authorizationShape, NonceCache, nonceStillLive } from './auth';
import { CallbackQueue } from './callbacks';
import { formEncodeAnswer, handleCreate, jsonAnswer, unknownEndpointAnswer, type Fields } from './create';
import { HttpError, MAX_BODY_BYTES, readBody, send } from './http';
import { JournalStore } from './journal';
import { advance, advanceAllowance, MAX_ADVANCE_DAYS, gatewayToday } from './payments';
import { ensureStateDir, loadOrCreateDemoMerchant } from './merchant';
import { parseReportRequest, renderReport } from './report';
import { acquireStateLock, releaseStateLock, updateStateLock, type RunningGateway } from './running';
import type { AdvanceSummary, CallbackResult, ChargeEvent, LocalGateway, LocalGatewayOptions, StoredPayment } from './types';

export const DEFAULT_PATH_PREFIX = '/paygate';
export const DEFAULT_REPORT_PATH_PREFIX = '/reports';
/** The report operation's denial, as the spec describes it: HTTP 200, text/plain, a plain sentence. */
export const REPORT_DENIAL = 'You are not authorised to perform this request.';

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

export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const stateDir = options.stateDir;
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  ensureStateDir(stateDir);
  const lock: RunningGateway = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    baseUrl: '',
    reportBaseUrl: '',
    origin: '',
    adminToken: randomBytes(24).toString('base64url'),
    kind: options.oneShot ? 'oneShot' : 'server',
  };
  // The lock comes first: nothing of the state is read while another process may be writing it.
  acquireStateLock(stateDir, lock);
  let store: JournalStore | undefined;
  try {
    return await listen();
  } catch (err) {
    store?.close();
    releaseStateLock(stateDir, process.pid, lock.adminToken);
    throw err;
  }

  async function listen(): Promise<LocalGateway> {
    const merchant = loadOrCreateDemoMerchant(stateDir);
    const nonces = new NonceCache();
    const s = new JournalStore(
      stateDir,
      options.initialDate,
      () => nonces.entries(nowSeconds()),
      (ts) => nonceStillLive(ts, nowSeconds()),
    );
    store = s;
    nonces.restore(s.restoredNonces);
    for (const note of s.notes) log(note);
    const paths = options.paths ?? DEFAULT_PATHS;
    const prefix = normalisePrefix(options.pathPrefix, DEFAULT_PATH_PREFIX);
    const reportPrefix = normalisePrefix(options.reportPathPrefix, DEFAULT_REPORT_PATH_PREFIX);
    const createRe = createPattern(prefix, paths.createRecurringPayments);
    const reportRe = new RegExp(`^${escapeRegExp(reportPrefix + paths.customReport.replace(/\/+$/, ''))}/?$`);
    let port = 0;
    const callbacks = new CallbackQueue(() => [port], log, undefined, merchant.controlKey);

    function queueCallbacks(items: { payment: StoredPayment; event: ChargeEvent }[], results?: Promise<CallbackResult>[]): number {
      let queued = 0;
      for (const { payment, event } of items) {
        const r = callbacks.enqueue(payment, event);
        if (r) {
          queued++;
          results?.push(r);
        }
      }
      return queued;
    }

    function advanceNow(days: number, results?: Promise<CallbackResult>[]): AdvanceSummary & { callbacksQueued: number } {
      if (!validDays(days)) throw new RangeError(`days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
      const touched = new Set<StoredPayment>();
      const pendingCallbacks: { payment: StoredPayment; event: ChargeEvent }[] = [];
      const r = advance(s.state, days, {
        ...advanceAllowance(s.state),
        touched,
        // Callbacks are queued only after the commit: a receiver never hears of a charge the disk does not hold.
        onCharge: (payment, event) => {
          if (payment.callbackUrl && pendingCallbacks.length < callbacks.capacity) pendingCallbacks.push({ payment, event });
          else if (payment.callbackUrl) callbacks.dropped++;
        },
      });
      s.commit(touched);
      const callbacksQueued = queueCallbacks(pendingCallbacks, results);
      log(
        `clock advanced ${days} day(s) ${r.from} -> ${r.today}: ${r.chargeCount} charge(s), ${r.stopped.length} stopped${r.truncated ? ` (${r.truncated.reason})` : ''}`,
      );
      return { ...r, callbacks: [], callbacksQueued };
    }

    async function advanceDays(days: number): Promise<AdvanceSummary> {
      const results: Promise<CallbackResult>[] = [];
      const r = advanceNow(days, results);
      const { callbacksQueued: _q, ...summary } = r;
      return { ...summary, callbacks: await Promise.all(results) };
    }

    function requestUrl(req: http.IncomingMessage): string {
      return `http://${req.headers.host ?? `127.0.0.1:${port}`}${req.url ?? '/'}`;
    }

    async function onCreate(req: http.IncomingMessage, res: http.ServerResponse, endpointId: string): Promise<void> {
      // Refused before a byte of the body is read: without an OAuth header the request cannot succeed.
      const shape = authorizationShape(req.headers.authorization);
      if (!shape.ok) {
        log(`create denied (403): ${shape.reason}`);
        return send(res, 403, undefined, '', {}, true);
      }
      const body = await readBody(req, maxBody);
      const isForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
      const form: Fields = isForm ? [...new URLSearchParams(body.toString('utf8'))] : [];
      const auth = authenticate(
        { operation: 'create', method: req.method ?? 'POST', url: requestUrl(req), form, authorization: req.headers.authorization },
        merchant,
        nonces,
        now(),
      );
      if (!auth.ok) {
        log(`create denied (403): ${auth.reason}`);
        return send(res, 403, undefined, '');
      }
      if (endpointId !== merchant.endpointId) {
        const refused = unknownEndpointAnswer(endpointId, merchant);
        log(refused.logLine);
        return send(res, refused.httpStatus, 'application/x-www-form-urlencoded; charset=utf-8', formEncodeAnswer(refused.fields));
      }
      const result = handleCreate(s.state, form);
      log(result.logLine);
      // One commit: the new payments, their first charges, the counters and the spent nonce.
      s.commit(result.created?.payments ?? [], nonces.take());
      // A real gateway answers first and calls back later.
      if (result.created) queueCallbacks(result.created.charges);
      const wantsJson = /application\/json/i.test(req.headers.accept ?? '');
      if (wantsJson) send(res, result.httpStatus, 'application/json; charset=utf-8', jsonAnswer(result.fields));
      else send(res, result.httpStatus, 'application/x-www-form-urlencoded; charset=utf-8', formEncodeAnswer(result.fields));
    }

    async function onReport(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
      const shape = authorizationShape(req.headers.authorization);
      if (!shape.ok) {
        log(`report denied (200 text/plain): ${shape.reason}`);
        return send(res, 200, 'text/plain; charset=utf-8', REPORT_DENIAL, {}, true);
      }
      const body = await readBody(req, maxBody);
      const auth = authenticate(
        { operation: 'report', method: req.method ?? 'POST', url: requestUrl(req), authorization: req.headers.authorization },
        merchant,
        nonces,
        now(),
      );
      if (!auth.ok) {
        log(`report denied (200 text/plain): ${auth.reason}`);
        return send(res, 200, 'text/plain; charset=utf-8', REPORT_DENIAL);
      }
      s.commit([], nonces.take());
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new HttpError(400, 'the report request body is not JSON');
      }
      const parsed = parseReportRequest(json);
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      const report = renderReport(s.state, parsed.request);
      log(`report ${parsed.request.format} ${parsed.request.reportName}: ${report.body.length} bytes`);
      send(res, 200, report.contentType, report.body, { 'content-disposition': `attachment; filename="${report.fileName}"` });
    }

    const admin: AdminContext = {
      get port() {
        return port;
      },
      token: lock.adminToken,
      state: () => s.state,
      find: (id) => s.find(id),
      advance: (days) => advanceNow(days),
      changed(p, events) {
        s.commit([p]);
        return queueCallbacks(events.map((event) => ({ payment: p, event })));
      },
      info: () => ({
        today: s.state.today,
        baseUrl: gateway.baseUrl,
        reportBaseUrl: gateway.reportBaseUrl,
        endpointId: merchant.endpointId,
        consumerKey: merchant.consumerKey,
      }),
      log,
    };

    async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (adminSubpath(url.pathname) !== undefined) return handleAdmin(admin, req, res, url);
      const create = createRe.exec(url.pathname);
      const isReport = reportRe.test(url.pathname);
      if (!create && !isReport) throw new HttpError(404, 'not found');
      if (req.method !== 'POST') throw new HttpError(405, 'use POST');
      if (create) {
        let endpointId: string;
        try {
          endpointId = decodeURIComponent(create[1]);
        } catch {
          endpointId = create[1];
        }
        return onCreate(req, res, endpointId);
      }
      return onReport(req, res);
    }

    const server = http.createServer((req, res) => {
      handle(req, res).catch((err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500;
        const message = err instanceof Error ? err.message : String(err);
        log(`${req.method} ${req.url?.split('?')[0]} -> ${status}: ${message}`);
        // An unread or half-read body is not read further: the connection closes after the answer.
        if (!res.headersSent) send(res, status, 'text/plain; charset=utf-8', `${message}\n`, {}, !req.complete);
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
    Object.assign(lock, { baseUrl: environment.baseUrl, reportBaseUrl: environment.reportBaseUrl, origin });
    try {
      updateStateLock(stateDir, lock);
    } catch (err) {
      server.close();
      throw err;
    }
    log(`local gateway listening on ${origin} (simulated date ${s.state.today})`);

    let closing: Promise<void> | undefined;
    const gateway: LocalGateway = {
      baseUrl: environment.baseUrl,
      reportBaseUrl: environment.reportBaseUrl,
      origin,
      port,
      adminToken: lock.adminToken,
      stateDir,
      environment,
      merchant,
      today: () => gatewayToday(s.state),
      advanceDays,
      payments: () => structuredClone(s.state.payments),
      close() {
        closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeAllConnections();
          // Callbacks still waiting are dropped, the one in flight aborted: nobody waits for a receiver
          // that never answers. Every change was committed when it was made.
          callbacks.close();
          await closed;
          s.close();
          releaseStateLock(stateDir, process.pid, lock.adminToken);
          log('local gateway stopped');
        })();
        return closing;
      },
    };
    return gateway;
  }
}
