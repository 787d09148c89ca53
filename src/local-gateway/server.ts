// The local gateway's HTTP face: both operations under their path prefixes, and the admin surface
// (/_local/*, admin.ts). One gateway per state directory (running.ts); every request that changes
// something commits it to the journal (journal.ts) before the answer leaves.

import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PATHS, type Environment } from '../core/gateway/environments';
import { toDayNumber } from '../core/dates';
import { NonceCache, nonceStillLive } from './auth';
import { CallbackQueue } from './callbacks';
import { adminContext, advanceDays, route, type GatewayParts, type Routes } from './handlers';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../core/payload';
import { HttpError, MAX_BODY_BYTES, send } from './http';
import { JournalStore } from './journal';
import { ensureStateDir, loadOrCreateDemoMerchant } from './merchant';
import { gatewayToday } from './payments';
import { acquireStateLock, releaseStateLock, updateStateLock, type RunningGateway } from './running';
import type { LocalGateway, LocalGatewayOptions } from './types';
import { errorMessage } from '../core/errorMessage';

export const DEFAULT_PATH_PREFIX = '/paygate';
export const DEFAULT_REPORT_PATH_PREFIX = '/reports';

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
  ensureStateDir(options.stateDir);
  const startId = randomBytes(6).toString('hex');
  const lock = lockRecord(options, startId);
  // The lock comes first: nothing of the state is read while another process may be writing it.
  acquireStateLock(options.stateDir, lock);
  let opened: OpenedParts | undefined;
  try {
    opened = openParts(options);
    return await serve(options, opened, { lock, startId });
  } catch (err) {
    opened?.parts.store.close();
    releaseStateLock(options.stateDir, process.pid, lock.adminToken);
    throw err;
  }
}

/** What the state directory's lock says of this gateway (its addresses are filled in once it listens). */
function lockRecord(options: LocalGatewayOptions, startId: string): RunningGateway {
  return {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    baseUrl: '',
    reportBaseUrl: '',
    origin: '',
    adminToken: randomBytes(24).toString('base64url'),
    kind: options.oneShot ? 'oneShot' : 'server',
    startId,
    ...(options.runBy !== undefined ? { runBy: options.runBy } : {}),
  };
}

interface OpenedParts {
  parts: GatewayParts;
  /** The port, once the server listens (the callback queue and the handlers read it from parts). */
  setPort(port: number): void;
}

/** The state read back (journal and snapshot), the demo merchant, the nonces and the callback queue. */
function openParts(options: LocalGatewayOptions): OpenedParts {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const merchant = loadOrCreateDemoMerchant(options.stateDir);
  const nonces = new NonceCache();
  const store = new JournalStore(
    options.stateDir,
    options.initialDate,
    () => nonces.entries(nowSeconds()),
    (ts) => nonceStillLive(ts, nowSeconds()),
  );
  nonces.restore(store.restoredNonces);
  for (const note of store.notes) log(note);
  let port = 0;
  const parts: GatewayParts = {
    store,
    merchant,
    nonces,
    callbacks: new CallbackQueue(
      () => [port],
      log,
      undefined,
      merchant.controlKey,
      () => toDayNumber(gatewayToday(store.state)),
    ),
    maxBody: options.maxBodyBytes ?? MAX_BODY_BYTES,
    maxPayload: options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    port: () => port,
    now,
    log,
  };
  return { parts, setPort: (p) => (port = p) };
}

/** Both operations' paths under their prefixes. */
function routesFor(options: LocalGatewayOptions): Routes & { prefix: string; reportPrefix: string } {
  const paths = options.paths ?? DEFAULT_PATHS;
  const prefix = normalisePrefix(options.pathPrefix, DEFAULT_PATH_PREFIX);
  const reportPrefix = normalisePrefix(options.reportPathPrefix, DEFAULT_REPORT_PATH_PREFIX);
  return {
    prefix,
    reportPrefix,
    create: createPattern(prefix, paths.createRecurringPayments),
    report: new RegExp(`^${escapeRegExp(reportPrefix + paths.customReport.replace(/\/+$/, ''))}/?$`),
  };
}

/** Listens on 127.0.0.1, records its addresses in the lock and returns the running gateway. */
async function serve(
  options: LocalGatewayOptions,
  { parts, setPort }: OpenedParts,
  { lock, startId }: { lock: RunningGateway; startId: string },
): Promise<LocalGateway> {
  const routes = routesFor(options);
  const admin = adminContext(parts, lock.adminToken, () => ({ baseUrl: lock.baseUrl, reportBaseUrl: lock.reportBaseUrl, startId }));
  const server = http.createServer((req, res) => {
    route(parts, routes, admin, req, res).catch((err: unknown) => answerFault(parts, req, res, err));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  setPort(port);
  const origin = `http://127.0.0.1:${port}`;
  const environment: Environment = {
    name: 'local',
    baseUrl: `${origin}${routes.prefix}`,
    reportBaseUrl: `${origin}${routes.reportPrefix}`,
    endpointId: parts.merchant.endpointId,
    consumerKey: parts.merchant.consumerKey,
    production: false,
  };
  Object.assign(lock, { baseUrl: environment.baseUrl, reportBaseUrl: environment.reportBaseUrl, origin });
  try {
    updateStateLock(options.stateDir, lock);
  } catch (err) {
    server.close();
    throw err;
  }
  parts.log(`local gateway listening on ${origin} (simulated date ${parts.store.state.today})`);
  return gatewayHandle(options.stateDir, parts, { lock, startId, environment, server });
}

/** A request that failed: its status (500 when unexpected) and message, and the connection closed if its body was not read. */
function answerFault(parts: GatewayParts, req: http.IncomingMessage, res: http.ServerResponse, err: unknown): void {
  const status = err instanceof HttpError ? err.status : 500;
  const message = errorMessage(err);
  parts.log(`${req.method} ${req.url?.split('?')[0]} -> ${status}: ${message}`);
  // An unread or half-read body is not read further: the connection closes after the answer.
  if (!res.headersSent) send(res, status, 'text/plain; charset=utf-8', `${message}\n`, {}, !req.complete);
  else res.destroy();
}

/** The running gateway as its starter holds it; close() stops serving, then lets go of the state and its lock. */
function gatewayHandle(
  stateDir: string,
  parts: GatewayParts,
  { lock, startId, environment, server }: { lock: RunningGateway; startId: string; environment: Environment; server: http.Server },
): LocalGateway {
  const s = parts.store;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: environment.baseUrl,
    reportBaseUrl: environment.reportBaseUrl,
    origin: lock.origin,
    port: parts.port(),
    adminToken: lock.adminToken,
    startId,
    stateDir,
    environment,
    merchant: parts.merchant,
    today: () => gatewayToday(s.state),
    advanceDays: (days) => advanceDays(parts, days),
    payments: () => structuredClone(s.state.payments),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        // Callbacks still waiting are dropped, the one in flight aborted: nobody waits for a receiver
        // that never answers. Every change was committed when it was made.
        parts.callbacks.close();
        await closed;
        s.close();
        releaseStateLock(stateDir, process.pid, lock.adminToken);
        parts.log('local gateway stopped');
      })();
      return closing;
    },
  };
}
