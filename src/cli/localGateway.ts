import { type PathTemplates } from '../core/gateway';
import { readRunningGateway, readStateLock, startLocalGateway, StateDirLockedError } from '../local-gateway';
import type { Result } from './config';

// Finding or starting the local gateway a CLI command talks to.

/** How long a command waits for another command's own (one-shot) local gateway to finish. */
export const ONE_SHOT_WAIT_MS = 60_000;
const POLL_MS = 100;

/**
 * The local gateway on `stateDir`: a running `paygate gateway` (or editor) is used; another command's
 * one-shot gateway is waited for (it stops when that command ends, possibly in the middle of ours);
 * else one is started for this command only. Its callbacks are not waited for when it stops.
 */
export async function localGatewayFor(
  stateDir: string,
  paths: PathTemplates,
): Promise<Result<{ baseUrl: string; reportBaseUrl: string; started: boolean; release(): Promise<void> }>> {
  const deadline = Date.now() + ONE_SHOT_WAIT_MS;
  for (;;) {
    const running = readRunningGateway(stateDir);
    if (running && running.kind !== 'oneShot')
      return {
        ok: true,
        value: { baseUrl: running.baseUrl, reportBaseUrl: running.reportBaseUrl, started: false, release: async () => undefined },
      };
    if (!running) {
      try {
        const gw = await startLocalGateway({ stateDir, port: 0, paths, oneShot: true });
        return { ok: true, value: { baseUrl: gw.baseUrl, reportBaseUrl: gw.reportBaseUrl, started: true, release: () => gw.close() } };
      } catch (err) {
        if (!(err instanceof StateDirLockedError))
          return { ok: false, message: `cannot start the local gateway on ${stateDir}: ${(err as Error).message}` };
      }
    }
    if (Date.now() > deadline) {
      const holder = readStateLock(stateDir);
      return {
        ok: false,
        message: `the local gateway's state directory ${stateDir} stayed in use for ${ONE_SHOT_WAIT_MS / 1000} s${holder ? ` (process ${holder.pid}, started ${holder.startedAt})` : ''}; start \`paygate gateway\` to share one gateway between commands`,
      };
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
