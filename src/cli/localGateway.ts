import { homedir } from 'node:os';
import * as path from 'node:path';
import { type PathTemplates } from '../core/gateway';
import {
  defaultStateDir,
  findOrStartLocalGateway,
  holderSaid,
  LocalGatewayUnusableError,
  readStateLock,
  StateDirLockedError,
  type LocalGatewayUse,
} from '../local-gateway';
import { saidText } from '../core/output';
import type { Result } from './config';
import type { CliContext } from './context';

// The local gateway a CLI command talks to; finding or starting it is the local gateway's own
// (findOrStartLocalGateway, the same as the editor's and the demo's), the CLI only words the outcome.

/** How long a command waits for another command's own (one-shot) local gateway to finish. */
const ONE_SHOT_WAIT_MS = 60_000;

/** The state directory of the local gateway `local` means: the same words as the editor's default. */
export function localStateDir(ctx: Pick<CliContext, 'env'>): string {
  return defaultStateDir(ctx.env, ctx.env.HOME || homedir());
}

/** A command's `--state DIR` (from the current folder), else the state directory of `local`. */
export function stateDirOption(ctx: Pick<CliContext, 'env' | 'cwd'>, state: string | undefined): string {
  return path.resolve(ctx.cwd, state ?? localStateDir(ctx));
}

/**
 * The local gateway on `stateDir`: a running one (`paygate gateway`, an editor, another window) is used;
 * another command's one-shot gateway is waited for (it stops when that command ends, possibly in the middle
 * of ours); else one is started for this command only. Its callbacks are not waited for when it stops.
 * `command` names this command in the state directory's client list while it runs ("paygate submit").
 */
export async function localGatewayFor(stateDir: string, paths: PathTemplates, command: string): Promise<Result<LocalGatewayUse>> {
  try {
    const use = await findOrStartLocalGateway({
      stateDir,
      port: 0,
      paths,
      oneShot: true,
      runBy: command,
      waitForOneShotMs: ONE_SHOT_WAIT_MS,
      client: { face: 'cli', label: command },
    });
    return { ok: true, value: use };
  } catch (err) {
    if (err instanceof LocalGatewayUnusableError) return { ok: false, message: `cannot use the local gateway: ${err.message}` };
    if (!(err instanceof StateDirLockedError))
      return { ok: false, message: `cannot start the local gateway on ${stateDir}: ${(err as Error).message}` };
    const holder = readStateLock(stateDir);
    return {
      ok: false,
      message: `the local gateway's state directory ${stateDir} stayed in use for ${ONE_SHOT_WAIT_MS / 1000} s${holder ? ` (${saidText(holderSaid(holder))}, started ${holder.startedAt})` : ''}; start \`paygate gateway\` to share one gateway between commands`,
    };
  }
}
