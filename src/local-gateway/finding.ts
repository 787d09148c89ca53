import * as http from 'node:http';
import { formatGatewayDate, parseGatewayDate, type CalendarDate } from '../core/dates';
import type { LocalGatewayRef } from '../core/ledger/records';
import type { Environment } from '../core/gateway/environments';
import { takeClientLease, type ClientInfo, type ClientLease } from './clients';
import { loadOrCreateDemoMerchant } from './merchant';
import { readRunningGateway, readStateLock, StateDirLockedError, type RunningGateway } from './running';
import { startLocalGateway } from './server';
import type { AdvanceSummary, DemoMerchant, LocalGateway, LocalGatewayOptions, StoredPayment } from './types';
import { errorMessage } from '../core/errorMessage';

// Finding or starting the local gateway of a state directory: the one place every launcher (the editor's
// `local` environment, the CLI's commands, `paygate demo`) learns which local gateway it talks to, so one
// state directory has one gateway, one clock and one set of payments whoever asks. A running gateway is
// found through the running-gateway file (gateway.json) its owner writes there, and trusted once it
// answers (/_sim/state) as that directory's demo merchant; it is then reached through its loopback admin
// endpoints and never stopped from here. They are addressed by their first name, /_sim/…, which every
// version of `paygate gateway` answers (a newer one also at /_local/…). Otherwise a gateway is started in
// this process on the directory. Whoever uses it leaves a client lease (clients.ts) while it does.

/** The local gateway a launcher uses, whoever runs it. */
export interface LocalGatewayUse {
  /** `started`: runs in this process, and release() stops it; `running`: another process runs it. */
  kind: 'started' | 'running';
  /** The process that runs it. */
  pid: number;
  stateDir: string;
  /** Names the run that answers ('' for a gateway of an older version, which names none). */
  startId: string;
  /** Who runs it, in its own words, when it says. */
  runBy?: string;
  origin: string;
  environment: Environment;
  merchant: DemoMerchant;
  /** Its simulated date now: the day a row without start-date would start on. */
  today(): Promise<CalendarDate>;
  advanceDays(days: number): Promise<AdvanceSummary>;
  payments(): Promise<StoredPayment[]>;
  /** False once it has stopped (its process gone, the terminal closed, Ctrl+C) or was released here. */
  alive(): boolean;
  /** Lets go of it: drops this process's client lease, and stops it when it runs in this process. */
  release(): Promise<void>;
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

/** What GET /_sim/state answers (startId since the version that names its runs). */
interface StateAnswer {
  today: string;
  baseUrl: string;
  reportBaseUrl: string;
  endpointId: string;
  consumerKey: string;
  startId?: string;
}

function dayOf(answer: StateAnswer, origin: string): CalendarDate {
  const day = parseGatewayDate(answer.today);
  if (!day) throw new Error(`the local gateway at ${origin} answered no simulated date`);
  return day;
}

function runningUse(running: RunningGateway, stateDir: string, origin: URL, state: StateAnswer, merchant: DemoMerchant): LocalGatewayUse {
  const startId = running.startId ?? state.startId ?? '';
  const stateUrl = new URL('/_sim/state', origin);
  return {
    kind: 'running',
    pid: running.pid,
    stateDir,
    startId,
    ...(running.runBy !== undefined ? { runBy: running.runBy } : {}),
    origin: origin.origin,
    environment: {
      name: 'local',
      baseUrl: state.baseUrl,
      reportBaseUrl: state.reportBaseUrl,
      endpointId: merchant.endpointId,
      consumerKey: merchant.consumerKey,
      production: false,
    },
    merchant,
    today: async () => dayOf(await admin<StateAnswer>('GET', stateUrl, running.adminToken, ADMIN_TIMEOUT_MS), origin.origin),
    advanceDays: (days) =>
      admin<AdvanceSummary>(
        'POST',
        new URL(`/_sim/advance?days=${encodeURIComponent(String(days))}`, origin),
        running.adminToken,
        ADMIN_TIMEOUT_MS,
      ),
    payments: async () =>
      (await admin<{ payments: StoredPayment[] }>('GET', new URL('/_sim/payments', origin), running.adminToken, ADMIN_TIMEOUT_MS)).payments,
    alive: () => {
      const now = readRunningGateway(stateDir);
      return now?.pid === running.pid && now.adminToken === running.adminToken;
    },
    release: async () => undefined,
  };
}

function startedUse(g: LocalGateway): LocalGatewayUse {
  let closed = false;
  return {
    kind: 'started',
    pid: process.pid,
    stateDir: g.stateDir,
    startId: g.startId,
    origin: g.origin,
    environment: g.environment,
    merchant: g.merchant,
    today: async () => g.today(),
    advanceDays: (days) => g.advanceDays(days),
    payments: async () => g.payments(),
    alive: () => !closed,
    release: async () => {
      closed = true;
      await g.close();
    },
  };
}

/**
 * The gateway a `paygate gateway` process (or an editor, or a command) runs on `stateDir`, when its file
 * names a live process on loopback that answers as that state directory's demo merchant; otherwise
 * undefined (with the reason).
 */
export async function findRunningGateway(stateDir: string): Promise<{ handle?: LocalGatewayUse; reason: string }> {
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
  const who = running.runBy ? `${running.runBy}, pid ${running.pid}` : `pid ${running.pid}`;
  let state: StateAnswer;
  try {
    state = await admin<StateAnswer>('GET', new URL('/_sim/state', origin), running.adminToken, PROBE_TIMEOUT_MS);
  } catch (err) {
    return {
      reason: `the local gateway at ${origin.origin} (${who}) did not answer: ${errorMessage(err)}`,
    };
  }
  let merchant: DemoMerchant;
  try {
    merchant = loadOrCreateDemoMerchant(stateDir);
  } catch (err) {
    return { reason: `cannot read the demo merchant in ${stateDir}: ${errorMessage(err)}` };
  }
  if (state.consumerKey !== merchant.consumerKey || state.endpointId !== merchant.endpointId) {
    return { reason: `the local gateway at ${origin.origin} serves another merchant than the one in ${stateDir}` };
  }
  return {
    handle: runningUse(running, stateDir, origin, state, merchant),
    reason: `using the local gateway at ${origin.origin} (${who}, state ${stateDir})`,
  };
}

export interface FindOrStartOptions extends LocalGatewayOptions {
  /**
   * Wait up to this long for another command's one-shot gateway to finish (it stops when that command
   * ends, possibly in the middle of ours). Without it a one-shot gateway is used like any other.
   */
  waitForOneShotMs?: number;
  /** Who uses it: a client lease in the state directory says so while it is used (until release()). */
  client?: ClientInfo;
  /** Why a running gateway was or was not used. */
  note?: (reason: string) => void;
}

/** A running gateway on the directory that cannot be used: it does not answer as the directory's gateway. */
export class LocalGatewayUnusableError extends StateDirLockedError {
  constructor(stateDir: string, holder: RunningGateway, reason: string) {
    super(stateDir, holder);
    this.message = `${reason}; it holds ${stateDir}, so no other local gateway can start there: stop it (or remove its gateway.json if that process is not a local gateway)`;
    this.name = 'LocalGatewayUnusableError';
  }
}

const POLL_MS = 100;

function withLease(use: LocalGatewayUse, client: ClientInfo | undefined): LocalGatewayUse {
  if (!client) return use;
  let lease: ClientLease | undefined = takeClientLease(use.stateDir, client);
  const release = use.release;
  return {
    ...use,
    release: async () => {
      lease?.release();
      lease = undefined;
      await release();
    },
  };
}

/**
 * The local gateway on `options.stateDir`: the one running there once it answers, else one started in this
 * process. Throws StateDirLockedError when another gateway holds the directory and cannot be used (it does
 * not answer: LocalGatewayUnusableError; or a one-shot one outlasted the wait).
 */
export async function findOrStartLocalGateway(options: FindOrStartOptions): Promise<LocalGatewayUse> {
  const { waitForOneShotMs, note, client, ...start } = options;
  const stateDir = start.stateDir;
  const deadline = Date.now() + (waitForOneShotMs ?? 0);
  for (;;) {
    const running = readRunningGateway(stateDir);
    if (running && (running.kind !== 'oneShot' || waitForOneShotMs === undefined)) {
      const found = await findRunningGateway(stateDir);
      note?.(found.reason);
      if (found.handle) return withLease(found.handle, client);
      // Gone between the look and the probe: look again rather than call it unusable.
      if (readRunningGateway(stateDir)?.pid === running.pid) throw new LocalGatewayUnusableError(stateDir, running, found.reason);
      continue;
    }
    if (!running) {
      try {
        const started = startedUse(await startLocalGateway(start));
        note?.(`started a local gateway on ${stateDir} in this process (${started.origin})`);
        return withLease(started, client);
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

/**
 * What the ledger records of a send to this local gateway: its state directory, its run, and its date
 * now (read just before the send; an advance in between, from another window, is the only way to skew it).
 */
export async function localGatewayRef(use: Pick<LocalGatewayUse, 'stateDir' | 'startId' | 'today'>): Promise<LocalGatewayRef> {
  return { stateDir: use.stateDir, startId: use.startId, today: formatGatewayDate(await use.today()) };
}
