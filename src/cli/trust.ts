// Which paygate.config.json files the CLI may use. A config file decides where batches — card data — are
// sent, so one found in the current directory (a cloned repository, a downloaded folder) is used only
// after the user has trusted it, like direnv's `allow`: `paygate trust FILE` records its real path and
// the SHA-256 of its bytes in the user's config directory; any change to the file needs trusting again.
// A file given with --config, and the config in the user's own config directory, are the user's choice
// and need no record. Plain functions over (env, paths), so any argument parser can call them.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { contentHash } from '../core/contentHash';

export const TRUST_FILE = 'trusted.json';

export type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/paygate`, else `~/.config/paygate`: the trust store and the user's own config live here. */
export function userConfigDir(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'paygate');
  return path.join(env.HOME || os.homedir(), '.config', 'paygate');
}

export interface TrustEntry {
  /** The file's real path (symbolic links resolved). */
  path: string;
  sha256: string;
  trustedAt: string;
}

interface TrustStore {
  version: 1;
  files: TrustEntry[];
}

function storePath(env: Env): string {
  return path.join(userConfigDir(env), TRUST_FILE);
}

export function readTrustStore(env: Env): TrustEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(storePath(env), 'utf8');
  } catch {
    return [];
  }
  try {
    const v = JSON.parse(text) as TrustStore;
    if (v && v.version === 1 && Array.isArray(v.files)) {
      return v.files.filter((e) => typeof e?.path === 'string' && typeof e.sha256 === 'string' && /^[0-9a-f]{64}$/.test(e.sha256));
    }
  } catch {
    // an unreadable store trusts nothing; the next `paygate trust` rewrites it
  }
  return [];
}

function writeTrustStore(env: Env, files: TrustEntry[]): void {
  const dir = userConfigDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = storePath(env);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const store: TrustStore = { version: 1, files };
  try {
    fs.writeFileSync(tmp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The real path of `file`, so a symbolic link and its target are one entry. */
export function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

export type TrustCheck = { trusted: true } | { trusted: false; reason: 'unknown' | 'changed'; message: string };

/** Whether `bytes`, read from `file`, are what the user trusted. The caller hashes what it will use. */
export function checkTrust(env: Env, file: string, bytes: Buffer | string, commandName = 'paygate'): TrustCheck {
  const real = realPath(file);
  const entry = readTrustStore(env).find((e) => e.path === real);
  const quoted = /[\s'"$`\\]/.test(real) ? `'${real.replace(/'/g, `'\\''`)}'` : real;
  const how = `Review it, then run: ${commandName} trust ${quoted}`;
  if (!entry) {
    return {
      trusted: false,
      reason: 'unknown',
      message: `${real} is not trusted: a paygate.config.json found in the current folder chooses where batches are sent, so it is used only after you trust it. ${how} (or pass --config FILE)`,
    };
  }
  if (entry.sha256 !== contentHash(bytes)) {
    return { trusted: false, reason: 'changed', message: `${real} changed since you trusted it on ${entry.trustedAt}. ${how}` };
  }
  return { trusted: true };
}

/** Records `bytes` (the content of `file`) as trusted, replacing an earlier entry for the same file. */
export function trustFile(env: Env, file: string, bytes: Buffer | string, now = new Date()): TrustEntry {
  const entry: TrustEntry = { path: realPath(file), sha256: contentHash(bytes), trustedAt: now.toISOString() };
  writeTrustStore(env, [...readTrustStore(env).filter((e) => e.path !== entry.path), entry]);
  return entry;
}

/** Forgets `file`; false when it was not trusted. */
export function revokeTrust(env: Env, file: string): boolean {
  const real = realPath(file);
  const files = readTrustStore(env);
  const kept = files.filter((e) => e.path !== real);
  if (kept.length === files.length) return false;
  writeTrustStore(env, kept);
  return true;
}
