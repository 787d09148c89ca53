import { environmentTargetUrl, LOCAL_ENVIRONMENT } from '../core/gateway/environments';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../core/payload';
import { findEnvironment } from '../core/gateway/settings';
import type { Target } from '../core/ledger';
import { demoEndpointId } from '../local-gateway/merchant';
import { loadCliConfig, type Result } from './config';
import type { CliContext } from './context';
import { localStateDir } from './localGateway';

// What the commands that only read the ledger (lint's already-sent and cvv-after-send, diff, the language
// server) need: the ledger when one is there, and the active environment and endpoint, found the way
// `paygate submit` finds them but without starting a local gateway or asking for a secret.

export interface LedgerTargetOptions {
  env?: string;
  state?: string;
  config?: string;
}

/** The environment and endpoint id (and for `local`, its state directory) `paygate submit` would send to with these options. */
export function activeTarget(ctx: CliContext, o: LedgerTargetOptions): Result<Target> {
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return config;
  const name = o.env ?? config.value.config.environment;
  if (name === LOCAL_ENVIRONMENT) {
    try {
      const stateDir = localStateDir(ctx);
      return { ok: true, value: { environment: name, endpointId: demoEndpointId(stateDir), localStateDir: stateDir } };
    } catch (err) {
      return { ok: false, message: `cannot read the local gateway's demo merchant: ${(err as Error).message}` };
    }
  }
  const found = findEnvironment(config.value.config.environments, name);
  if (!found) return { ok: false, message: `unknown environment "${name}"` };
  // Another environment with the same base URL and endpoint id is the same target.
  const url = environmentTargetUrl(found, config.value.config.paths);
  return { ok: true, value: { environment: found.name, endpointId: found.endpointId, ...(url !== undefined ? { url } : {}) } };
}

/**
 * The maximum payload of the environment `paygate submit` would send to (batch-too-large), and why the
 * configured one could not be read (the local gateway's maximum applies then).
 */
export function activeMaxPayload(ctx: CliContext, o: Omit<LedgerTargetOptions, 'state'>): { max: number; problem?: string } {
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return { max: DEFAULT_MAX_PAYLOAD_BYTES, problem: config.message };
  const name = o.env ?? config.value.config.environment;
  if (name === LOCAL_ENVIRONMENT) return { max: DEFAULT_MAX_PAYLOAD_BYTES };
  const found = findEnvironment(config.value.config.environments, name);
  if (!found) return { max: DEFAULT_MAX_PAYLOAD_BYTES, problem: `unknown environment "${name}"` };
  return { max: found.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES };
}
