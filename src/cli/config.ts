import { FileRefused, readRegularFileSync } from '../core/regularFile';
import { isAbsolute, join, resolve } from 'node:path';
import { CliConfigSchema, formatZodIssues, type GatewayConfig } from '../core/gateway';
import { readJsonText } from '../core/gateway/jsonPosition';
import { checkTrust, realPath, userConfigDir } from './trust';

// Which configuration a CLI command reads: paygate.config.json (cwd, trusted, or --config, or the user's
// own) for environments and paths. Where a request goes is target.ts; which secrets sign it,
// credentials.ts; whether a folder's configuration is trusted, trust.ts.

export const CONFIG_FILE = 'paygate.config.json';

export type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Reads --config FILE, else ./paygate.config.json if present and trusted (see trust.ts), else the user's
 * own `$XDG_CONFIG_HOME/paygate/paygate.config.json` (or ~/.config/paygate/…), else the defaults
 * (environment local). An untrusted or changed ./paygate.config.json is an error: nothing may be sent.
 */
export function loadCliConfig(
  cwd: string,
  configPath?: string,
  env: Record<string, string | undefined> = process.env,
): Result<{ config: GatewayConfig; file?: string }> {
  let given: string | undefined;
  if (configPath !== undefined) given = isAbsolute(configPath) ? configPath : resolve(cwd, configPath);
  const local = join(cwd, CONFIG_FILE);
  const own = join(userConfigDir(env), CONFIG_FILE);
  const candidates = given !== undefined ? [given] : [local, own];
  for (const file of candidates) {
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(file, configPath ?? file);
    } catch (err) {
      if (err instanceof FileRefused && err.code !== 'ENOENT') return { ok: false, message: err.message };
      if (given === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return {
        ok: false,
        message: `${configPath ?? file}: cannot read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      };
    }
    // The bytes checked are the bytes used: the file cannot change between the check and the parse.
    if (given === undefined && file === local && realPath(local) !== realPath(own)) {
      const trust = checkTrust(env, local, bytes);
      if (!trust.trusted) return { ok: false, message: trust.message };
    }
    const read = readJsonText(bytes.toString('utf8'));
    if (!read.ok) return { ok: false, message: `${file}:${read.line ?? 1}:${read.column ?? 1}: invalid JSON: ${read.message}` };
    const r = CliConfigSchema.safeParse(read.value);
    if (!r.success) return { ok: false, message: `${file}: ${formatZodIssues(r.error)}` };
    return { ok: true, value: { config: r.data, file } };
  }
  return { ok: true, value: { config: CliConfigSchema.parse({}) } };
}
