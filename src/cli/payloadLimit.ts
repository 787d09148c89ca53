import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../core/payload';
import type { CliContext } from './context';
import { userConfigDir } from './trust';

// The active environment's maximum payload for `paygate lint`'s batch-too-large, found as `paygate submit`
// finds the environment. Without any configuration file (as in CI) it is the local gateway's maximum and
// the configuration's modules (zod's schemas) are never loaded: lint starts as quickly as before.

export interface PayloadLimitOptions {
  env?: string;
  config?: string;
}

/** The maximum, and why the configured one could not be read (the default then applies). */
export async function activeMaxPayload(ctx: CliContext, o: PayloadLimitOptions): Promise<{ max: number; problem?: string }> {
  // The file name as config.ts's CONFIG_FILE: that module is what this one keeps from loading.
  const configured =
    o.config !== undefined ||
    existsSync(join(ctx.cwd, 'paygate.config.json')) ||
    existsSync(join(userConfigDir(ctx.env), 'paygate.config.json'));
  if (!configured && (o.env === undefined || o.env === 'local')) return { max: DEFAULT_MAX_PAYLOAD_BYTES };
  const { loadCliConfig } = await import('./config.js');
  const loaded = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!loaded.ok) return { max: DEFAULT_MAX_PAYLOAD_BYTES, problem: loaded.message };
  const name = o.env ?? loaded.value.config.environment;
  if (name === 'local') return { max: DEFAULT_MAX_PAYLOAD_BYTES };
  const found = loaded.value.config.environments.find((e) => e.name === name);
  if (!found) return { max: DEFAULT_MAX_PAYLOAD_BYTES, problem: `unknown environment "${name}"` };
  return { max: found.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES };
}
