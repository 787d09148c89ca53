import { type PathTemplates } from '../core/gateway';
import { findOrStartLocalGateway, readStateLock, StateDirLockedError } from '../local-gateway';
import type { Result } from './config';

// The local gateway a CLI command talks to; finding or starting it is the local gateway's own
// (findOrStartLocalGateway), the CLI only words the outcome.

/** How long a command waits for another command's own (one-shot) local gateway to finish. */
const ONE_SHOT_WAIT_MS = 60_000;

/**
 * The local gateway on `stateDir`: a running `paygate gateway` (or editor) is used; another command's
 * one-shot gateway is waited for (it stops when that command ends, possibly in the middle of ours);
 * else one is started for this command only. Its callbacks are not waited for when it stops.
 */
export async function localGatewayFor(
  stateDir: string,
  paths: PathTemplates,
): Promise<Result<{ baseUrl: string; reportBaseUrl: string; started: boolean; release(): Promise<void> }>> {
  try {
    const found = await findOrStartLocalGateway({ stateDir, port: 0, paths, oneShot: true, waitForOneShotMs: ONE_SHOT_WAIT_MS });
    if (found.kind === 'started') {
      const gw = found.gateway;
      return { ok: true, value: { baseUrl: gw.baseUrl, reportBaseUrl: gw.reportBaseUrl, started: true, release: () => gw.close() } };
    }
    const running = found.kind === 'announced' ? found.running : found.handle.environment;
    return {
      ok: true,
      value: { baseUrl: running.baseUrl, reportBaseUrl: running.reportBaseUrl, started: false, release: async () => undefined },
    };
  } catch (err) {
    if (!(err instanceof StateDirLockedError))
      return { ok: false, message: `cannot start the local gateway on ${stateDir}: ${(err as Error).message}` };
    const holder = readStateLock(stateDir);
    return {
      ok: false,
      message: `the local gateway's state directory ${stateDir} stayed in use for ${ONE_SHOT_WAIT_MS / 1000} s${holder ? ` (process ${holder.pid}, started ${holder.startedAt})` : ''}; start \`paygate gateway\` to share one gateway between commands`,
    };
  }
}
