import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliContext } from './context';
import { userConfigDir } from './trust';

// Whether `paygate lint` must read a configuration to know the active environment's maximum payload
// (batch-too-large). Without a configuration file and without --env (as in CI) the maximum is the local
// gateway's, and the configuration's modules (zod's schemas) are never loaded: lint starts as quickly.

export interface PayloadLimitOptions {
  env?: string;
  config?: string;
}

/** True when a configuration may name another environment or maximum than the local gateway's. */
export function configMayNameLimit(ctx: Pick<CliContext, 'cwd' | 'env'>, o: PayloadLimitOptions): boolean {
  // The file name is config.ts's CONFIG_FILE: that module is what this one keeps from loading.
  const file = 'paygate.config.json';
  return (
    o.config !== undefined ||
    (o.env !== undefined && o.env !== 'local') ||
    existsSync(join(ctx.cwd, file)) ||
    existsSync(join(userConfigDir(ctx.env), file))
  );
}
