// The local gateway's HTTP face: both operations under their path prefixes, and the admin surface
// (/_local/*, admin.ts). One gateway per state directory (running.ts); every request that changes
// something commits it to the journal (journal.ts) before the answer leaves.

import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PATHS, type Environment } from '../core/gateway/environments';
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
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const stateDir = options.stateDir;
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxPayload = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  ensureStateDir(stateDir);
  const startId = randomBytes(6).toString('hex');
  const lock: RunningGateway = {
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
    const routes: Routes = {
      create: createPattern(prefix, paths.createRecurringPayments),
      report: new RegExp(`^${escapeRegExp(reportPrefix + paths.customReport.replace(/\/+$/, ''))}/?$`),
    };
    let port = 0;
    const parts: GatewayParts = {
      store: s,
      merchant,
      nonces,
      callbacks: new CallbackQueue(() => [port], log, undefined, merchant.controlKey),
      maxBody,
      maxPayload,
      port: () => port,
      now,
      log,
    };
    const admin = adminContext(parts, lock.adminToken, () => ({
      baseUrl: gateway.baseUrl,
      reportBaseUrl: gateway.reportBaseUrl,
      startId: gateway.startId,
    }));

    const server = http.createServer((req, res) => {
      route(parts, routes, admin, req, res).catch((err: unknown) => {
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
      startId,
      stateDir,
      environment,
      merchant,
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
          log('local gateway stopped');
        })();
        return closing;
      },
    };
    return gateway;
  }
}
