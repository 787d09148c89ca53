import * as http from 'node:http';
import type { Environment } from '../core/gateway/environments';
import { loadOrCreateDemoMerchant } from './merchant';
import { readRunningGateway, readStateLock, StateDirLockedError, type RunningGateway } from './running';
import { startLocalGateway } from './server';
import type { AdvanceSummary, DemoMerchant, LocalGateway, LocalGatewayOptions, StoredPayment } from './types';

// Finding or starting the local gateway of a state directory: the one place both launchers (the editor's
// `local` environment and the CLI's commands) learn whether a gateway already owns the directory. A
// running gateway is found through the running-gateway file (gateway.json) its owner writes there; the
// editor also checks it answers (/_sim/state) as that directory's demo merchant before trusting it, and
// reaches it through its loopback admin endpoints; it is never stopped from here. They are addressed by
// their first name, /_sim/…, which every version of `paygate gateway` answers (a newer one also at
// /_local/…). Otherwise a gateway is started in this process on the directory.

export interface RunningGatewayHandle {
  pid: number;
  stateDir: string;
  origin: string;
  environment: Environment;
  merchant: DemoMerchant;
  advanceDays(days: number): Promise<AdvanceSummary>;
  payments(): Promise<StoredPayment[]>;
  /** False once its process has gone (the terminal was closed, Ctrl+C). */
  alive(): boolean;
}

const ADMIN_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 2_000;

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]');
}

/**
 * One request to the admin surface, with the run's admin token from gateway.json (mode 0600). No Origin
 * header: the gateway refuses those (they come from web pages).
 */
function admin<T>(method: 'GET' | 'POST', url: URL, token: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, timeout: timeoutMs, headers: { accept: 'application/json', 'content-length': 0, authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200)
            return reject(new Error(`${method} ${url.pathname} answered ${res.statusCode}: ${body.trim().slice(0, 300)}`));
          try {
            resolve(JSON.parse(body) as T);
          } catch {
            reject(new Error(`${method} ${url.pathname} did not answer JSON`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url.pathname}: no answer within ${timeoutMs / 1000}s`)));
    req.on('error', reject);
    req.end();
  });
}

interface LocalGatewayInfo {
  baseUrl: string;
  reportBaseUrl: string;
  endpointId: string;
  consumerKey: string;
}

/**
 * The gateway a `paygate gateway` process runs on `stateDir`, when its file names a live process on
 * loopback that answers as that state directory's demo merchant; otherwise undefined (with the reason).
 */
export async function findRunningGateway(stateDir: string): Promise<{ handle?: RunningGatewayHandle; reason: string }> {
  const running = readRunningGateway(stateDir);
  if (!running) return { reason: `no paygate gateway is running on ${stateDir}` };
  let origin: URL;
  try {
    origin = new URL(new URL(running.baseUrl).origin);
  } catch {
    return { reason: `the running-gateway file in ${stateDir} names no usable address` };
  }
  if (!isLoopback(origin))
    return { reason: `the running-gateway file in ${stateDir} names ${origin.host}, which is not a loopback address` };
  let state: LocalGatewayInfo;
  try {
    state = await admin<LocalGatewayInfo>('GET', new URL('/_sim/state', origin), running.adminToken, PROBE_TIMEOUT_MS);
  } catch (err) {
    return {
      reason: `the paygate gateway at ${origin.origin} (pid ${running.pid}) did not answer: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  let merchant: DemoMerchant;
  try {
    merchant = loadOrCreateDemoMerchant(stateDir);
  } catch (err) {
    return { reason: `cannot read the demo merchant in ${stateDir}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (state.consumerKey !== merchant.consumerKey || state.endpointId !== merchant.endpointId) {
    return { reason: `the paygate gateway at ${origin.origin} serves another merchant than the one in ${stateDir}` };
  }
  const environment: Environment = {
    name: 'local',
    baseUrl: state.baseUrl,
    reportBaseUrl: state.reportBaseUrl,
    endpointId: merchant.endpointId,
    consumerKey: merchant.consumerKey,
    production: false,
  };
  const handle: RunningGatewayHandle = {
    pid: running.pid,
    stateDir,
    origin: origin.origin,
    environment,
    merchant,
    advanceDays: (days) =>
      admin<AdvanceSummary>(
        'POST',
        new URL(`/_sim/advance?days=${encodeURIComponent(String(days))}`, origin),
        running.adminToken,
        ADMIN_TIMEOUT_MS,
      ),
    payments: async () =>
      (await admin<{ payments: StoredPayment[] }>('GET', new URL('/_sim/payments', origin), running.adminToken, ADMIN_TIMEOUT_MS)).payments,
    alive: () => readRunningGateway(stateDir)?.pid === running.pid,
  };
  return { handle, reason: `using the paygate gateway at ${origin.origin} (pid ${running.pid}, state ${stateDir})` };
}

export interface FindOrStartOptions extends LocalGatewayOptions {
  /**
   * Trust a running gateway only once it answers as this state directory's demo merchant (the editor,
   * which then reaches it through its admin endpoints). Without it the running-gateway file is trusted.
   */
  checkAnswers?: boolean;
  /**
   * Wait up to this long for another command's one-shot gateway to finish (the CLI: it stops when that
   * command ends, possibly in the middle of ours). Without it a one-shot gateway is used like any other.
   */
  waitForOneShotMs?: number;
  /** Why a running gateway was or was not used. */
  note?: (reason: string) => void;
}

export type FoundOrStarted =
  | { kind: 'started'; gateway: LocalGateway }
  | { kind: 'announced'; running: RunningGateway }
  | { kind: 'answering'; handle: RunningGatewayHandle };

const POLL_MS = 100;

/**
 * The local gateway on `options.stateDir`: the one running there (see the options for when it is
 * trusted), else one started in this process. Throws StateDirLockedError when another gateway holds
 * the directory and cannot be used (it does not answer, or a one-shot one outlasted the wait).
 */
export async function findOrStartLocalGateway(
  options: FindOrStartOptions & { checkAnswers: true },
): Promise<Exclude<FoundOrStarted, { kind: 'announced' }>>;
export async function findOrStartLocalGateway(options: FindOrStartOptions): Promise<FoundOrStarted>;
export async function findOrStartLocalGateway(options: FindOrStartOptions): Promise<FoundOrStarted> {
  const { checkAnswers, waitForOneShotMs, note, ...start } = options;
  const stateDir = start.stateDir;
  const deadline = Date.now() + (waitForOneShotMs ?? 0);
  for (;;) {
    const running = readRunningGateway(stateDir);
    if (running && (running.kind !== 'oneShot' || waitForOneShotMs === undefined)) {
      if (!checkAnswers) return { kind: 'announced', running };
      const found = await findRunningGateway(stateDir);
      note?.(found.reason);
      if (found.handle) return { kind: 'answering', handle: found.handle };
      throw new StateDirLockedError(stateDir, running);
    }
    if (!running) {
      try {
        return { kind: 'started', gateway: await startLocalGateway(start) };
      } catch (err) {
        if (!(err instanceof StateDirLockedError)) throw err;
        // Another gateway took the directory between the look and the start: look once more (or wait).
        if (waitForOneShotMs === undefined && !readRunningGateway(stateDir)) throw err;
      }
    }
    if (waitForOneShotMs !== undefined) {
      if (Date.now() > deadline) throw new StateDirLockedError(stateDir, readStateLock(stateDir));
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}
