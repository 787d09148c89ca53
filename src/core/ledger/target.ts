import { realpathSync } from 'node:fs';
import { LOCAL_ENVIRONMENT, targetUrl } from '../gateway/environments';

// The identity of a target, as both resend guards and lint's already-sent decide it (architecture habit 15:
// "the same" as the other side decides it): the same environment and endpoint id; for a local gateway, its
// state directory by its real path (symlinks resolved); for any other environment, also the same create URL
// under another name (as URLs read it: targetUrl). `targetKey` writes that identity as one text: the file
// ledger's guards compare it (atTarget), the team ledger keys its claims on it (team/rows.ts). No imports
// from records.ts (it re-exports these).

/** What a record says of where its create went (a SubmissionRecord has all of it). */
export interface SentTo {
  environment: string;
  endpointId: string;
  /** The create operation's full URL. */
  endpoint: string;
  localGateway?: { stateDir: string };
}

/** Where a create went, as the guards compare it: never a URL, whose port changes with every local gateway. */
export interface Target {
  environment: string;
  endpointId: string;
  /** A local gateway's state directory: another local gateway holds other payments. */
  localStateDir?: string;
  /**
   * The create URL (base URL and endpoint id), read by `targetUrl`: another environment with the same one
   * is the same target. Absent for a local gateway (known by its state directory, not its port).
   */
  url?: string;
}

/** What the resend guard compares: the content (today's hash, or one an older version recorded) and the target. */
export interface GuardKey extends Target {
  contentHash: string;
  /** Hashes versions up to 0.1 may have recorded for this same content (csv/canonical.ts). */
  legacyHashes?: readonly string[];
}

/** Where a record's (or a new submission's) create went, as the guards compare targets. */
export function targetOf(r: SentTo): Target {
  const t: Target = { environment: r.environment, endpointId: r.endpointId };
  if (r.localGateway) t.localStateDir = r.localGateway.stateDir;
  else if (r.environment !== LOCAL_ENVIRONMENT) {
    const url = recordUrl(r.endpoint);
    if (url !== undefined) t.url = url;
  }
  return t;
}

/**
 * A target's identity as one text: a local gateway by its environment, endpoint id and state directory's
 * real path; any other environment by its create URL (base URL and endpoint id, as targetUrl reads them),
 * whatever its name; by its name and endpoint id only when no URL can be read. Two targets are the same
 * target when their keys are equal (and, atTarget, when a record does not say which local gateway it went to).
 */
export function targetKey(t: Target): string {
  if (t.localStateDir !== undefined) return JSON.stringify(['local', t.environment, t.endpointId, realDir(t.localStateDir)]);
  if (t.url !== undefined) return JSON.stringify(['url', t.url]);
  return JSON.stringify(['name', t.environment, t.endpointId]);
}

const keys = new WeakMap<SentTo | Target, string>();

/** A record's or a target's key, kept with it (lint compares every row's records with one target, many times). */
function keptKey(o: SentTo | Target, key: () => string): string {
  let k = keys.get(o);
  if (k === undefined) keys.set(o, (k = key()));
  return k;
}

export function atTarget(r: SentTo, target: Target): boolean {
  // A record that does not say which local gateway it went to may have gone to either.
  if (
    r.environment === target.environment &&
    r.endpointId === target.endpointId &&
    sameLocalGateway(r.localGateway?.stateDir, target.localStateDir)
  )
    return true;
  // Two names for one gateway and endpoint (the same base URL and endpoint id, as URLs read): one target.
  // Never a local gateway's (known by its state directory: its port changes with every start).
  return target.url !== undefined && !isLocal(r) && keptKey(r, () => targetKey(targetOf(r))) === keptKey(target, () => targetKey(target));
}

const isLocal = (r: SentTo) => r.environment === LOCAL_ENVIRONMENT || r.localGateway !== undefined;

const recordUrls = new Map<string, string | undefined>();

/** A record's create URL as targetUrl reads it (cached: the guard compares every record's, and few differ). */
function recordUrl(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined) return undefined;
  if (!recordUrls.has(endpoint)) {
    if (recordUrls.size > 1000) recordUrls.clear();
    recordUrls.set(endpoint, targetUrl(endpoint));
  }
  return recordUrls.get(endpoint);
}

/** The hashes a guard key names: today's first. */
export function keyHashes(key: GuardKey): string[] {
  return [key.contentHash, ...(key.legacyHashes ?? [])];
}

export function sameTarget(r: SentTo & { contentHash: string }, key: GuardKey): boolean {
  return atTarget(r, key) && (r.contentHash === key.contentHash || (key.legacyHashes?.includes(r.contentHash) ?? false));
}

/**
 * Two local gateways differ only when both are known: a record that names none may have gone to either.
 * A state directory is compared by its real path (symlinks resolved): a link to the same folder is the
 * same local gateway, holding the same payments.
 */
function sameLocalGateway(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b || realDir(a) === realDir(b);
}

const realDirs = new Map<string, string>();

/** A folder's real path (cached: the guard compares every record's); the path itself when it cannot be resolved (gone). */
export function realDir(dir: string): string {
  let real = realDirs.get(dir);
  if (real === undefined) {
    try {
      real = realpathSync(dir);
    } catch {
      real = dir;
    }
    if (realDirs.size > 1000) realDirs.clear();
    realDirs.set(dir, real);
  }
  return real;
}
