// `{stateDir}/gateway.json`: the lock that makes one local gateway the only owner of a state directory,
// and how other runs find it (its addresses and its per-run admin token). Created exclusively
// (O_EXCL, mode 0600) before the state is read; removed by its owner on close. A lock whose process is
// gone (or a zombie) is stale and is taken over, under a second short-lived guard file so two starters racing for
// the same stale lock cannot both win.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { said, saidText, typed, type Said } from '../core/output/said';

export const RUNNING_FILE = 'gateway.json';
const GUARD_FILE = 'gateway.json.takeover';
/** A lock file still empty after this long belongs to a starter that died between create and write. */
const HALF_WRITTEN_MS = 10_000;

export interface RunningGateway {
  pid: number;
  /** ISO time the gateway took the lock. */
  startedAt: string;
  /** Empty while the gateway is starting (the lock is taken before the port is known). */
  baseUrl: string;
  reportBaseUrl: string;
  origin: string;
  /** Required on every `/_local/*` request as `Authorization: Bearer <token>`; new on every start. */
  adminToken: string;
  /** `oneShot`: started by a CLI command for its own duration, gone when that command ends. */
  kind: 'server' | 'oneShot';
  /**
   * Names this run (new on every start, unlike the state directory, which outlives it). Not a secret: the
   * ledger records it with every submission to this gateway. Absent in files of older versions.
   */
  startId?: string;
  /** Who runs it, in a few words ("paygate gateway", "the editor (VS Code)"); absent in older files. */
  runBy?: string;
}

/** Who runs a gateway, for messages: its words when it gave them, else its process. */
export function holderSaid(holder: Pick<RunningGateway, 'pid' | 'runBy'>): Said {
  return holder.runBy ? said`${typed.text(holder.runBy)}, process ${typed.count(holder.pid)}` : said`process ${typed.count(holder.pid)}`;
}

export class StateDirLockedError extends Error {
  constructor(
    readonly stateDir: string,
    readonly holder: RunningGateway | undefined,
  ) {
    super(
      holder
        ? `the state directory ${stateDir} is in use by the local gateway of ${saidText(holderSaid(holder))} (started ${holder.startedAt}${holder.baseUrl ? `, ${holder.baseUrl}` : ', still starting'}); ` +
            `stop it first, or use another --state directory`
        : `the state directory ${stateDir} is being taken over by another local gateway right now; try again`,
    );
    this.name = 'StateDirLockedError';
  }
}

/** Whether process `pid` is running (a zombie is not): locks and client leases of gone processes are stale. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !exited(pid);
}

/**
 * A process killed but not yet reaped (a zombie: its parent, often a container's PID 1, never waits)
 * still answers kill(pid, 0), though it holds nothing and never will again. Node offers no lock the
 * kernel drops with the process (flock needs native code), so Linux's /proc says whether it has exited:
 * state Z (zombie) or X (dead). Elsewhere, or when /proc cannot be read, kill(pid, 0) decides alone.
 */
function exited(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) state ...": comm may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 1).trimStart()[0];
  return state === 'Z' || state === 'X';
}

function parse(text: string): RunningGateway | undefined {
  try {
    const v = JSON.parse(text) as RunningGateway;
    if (
      Number.isSafeInteger(v.pid) &&
      typeof v.baseUrl === 'string' &&
      typeof v.reportBaseUrl === 'string' &&
      typeof v.adminToken === 'string'
    )
      return v;
  } catch {
    // empty or half-written
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

function writeExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

const serialise = (info: RunningGateway) => `${JSON.stringify(info, null, 2)}\n`;

/**
 * Takes the state directory's lock for `info.pid` or throws StateDirLockedError naming the holder.
 * A lock of a dead process (or one left empty by a starter that died) is removed and taken.
 */
export function acquireStateLock(stateDir: string, info: RunningGateway): void {
  const file = path.join(stateDir, RUNNING_FILE);
  const guard = path.join(stateDir, GUARD_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (writeExclusive(file, serialise(info))) return;
    const text = readText(file);
    if (text === undefined) continue; // removed between our create and our read: try again
    const holder = parse(text);
    if (holder ? processAlive(holder.pid) : ageMs(file) < HALF_WRITTEN_MS) throw new StateDirLockedError(stateDir, holder);
    // Stale. Only the process that creates the guard may remove the lock, and only if it is still the
    // stale one it looked at: a racer that lost sees the guard (or the winner's fresh lock) and stops.
    if (!writeExclusive(guard, String(process.pid))) {
      if (ageMs(guard) < HALF_WRITTEN_MS) throw new StateDirLockedError(stateDir, undefined);
      fs.rmSync(guard, { force: true }); // left by a starter that died mid-takeover
      continue;
    }
    try {
      if (readText(file) === text) fs.rmSync(file, { force: true });
    } finally {
      fs.rmSync(guard, { force: true });
    }
  }
  throw new StateDirLockedError(stateDir, parse(readText(file) ?? ''));
}

/** Rewrites the lock's content (the addresses once listening); only its owner calls this. */
export function updateStateLock(stateDir: string, info: RunningGateway): void {
  const file = path.join(stateDir, RUNNING_FILE);
  // A new private file each time (never an existing one, whatever its mode), renamed over the lock.
  const tmp = `${file}.${info.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, serialise(info), { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** Removes the lock only when it is this process's own, so a later owner's lock survives. */
export function releaseStateLock(stateDir: string, pid = process.pid, adminToken?: string): void {
  const file = path.join(stateDir, RUNNING_FILE);
  const info = parse(readText(file) ?? '');
  if (info && info.pid === pid && (adminToken === undefined || info.adminToken === adminToken)) fs.rmSync(file, { force: true });
}

/** The gateway owning this state directory, if its process is alive and it is listening. */
export function readRunningGateway(stateDir: string): RunningGateway | undefined {
  const info = parse(readText(path.join(stateDir, RUNNING_FILE)) ?? '');
  return info && info.baseUrl !== '' && processAlive(info.pid) ? info : undefined;
}

/** The lock's holder whatever its state (starting, running, or a dead process's stale lock). */
export function readStateLock(stateDir: string): RunningGateway | undefined {
  return parse(readText(path.join(stateDir, RUNNING_FILE)) ?? '');
}
