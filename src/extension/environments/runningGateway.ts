import * as http from 'node:http';
import type { Environment } from '../../core/gateway/environments';
import {
  loadOrCreateDemoMerchant,
  readRunningGateway,
  type AdvanceSummary,
  type DemoMerchant,
  type StoredPayment,
} from '../../local-gateway';

// A local gateway that a `paygate gateway` process runs (npm start starts one, a user may run one in a
// terminal): the editor's `local` uses it instead of starting a second one, so `curl …/_local/advance`, the
// CLI and the editor see one clock and one set of payments. It is found through the running-gateway file
// the CLI writes in its state directory, checked by asking it (/_sim/state) before it is trusted, and
// reached through its loopback admin endpoints; it is never stopped from here. They are addressed by their
// first name, /_sim/…, which every version of `paygate gateway` answers (a newer one also at /_local/…).

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
