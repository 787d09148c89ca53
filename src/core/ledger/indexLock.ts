import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { writeIndexFile } from './indexIo';
import type { LedgerFs } from './ledgerFs';

// The guard index's lock (`guard/lock`, a link naming its holder): sealing and rebuilding happen under it,
// one process at a time. A dead holder's lock (this host, no such process) or one too old is broken.

const LOCK = 'lock';
/** A lock older than this is broken whoever holds it (no sealing or rebuild takes so long). */
const LOCK_STALE_MS = 10 * 60_000;

/** Releases a lock taken. */
export type Unlock = () => Promise<void>;

/**
 * Takes the index's lock in `directory`: a function that releases it; 'released' when it was held and let
 * go within `waitMs` (the lock is then not taken); undefined when it is still held or cannot be taken.
 */
export async function takeLock(fs: LedgerFs, directory: string, waitMs: number): Promise<Unlock | 'released' | undefined> {
  const file = path.join(directory, LOCK);
  const me = `${process.pid} ${hostname()} ${Date.now()} ${randomUUID()}`;
  const tmp = `${file}.${randomUUID()}.tmp`;
  try {
    await fs.mkdir(directory, { recursive: true, mode: 0o700 });
    await writeIndexFile(fs, tmp, Buffer.from(me, 'utf8'));
  } catch {
    // No lock can be taken (a read-only folder, a full disk): the ledger is read instead.
    await fs.unlink(tmp).catch(() => undefined);
    return undefined;
  }
  try {
    return await linkUntil(fs, tmp, file, me, Date.now() + waitMs);
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/** Links `tmp` to the lock until it is taken or the deadline passes (and one more round to break a stale lock). */
async function linkUntil(fs: LedgerFs, tmp: string, file: string, me: string, deadline: number): Promise<Unlock | 'released' | undefined> {
  let waited = false;
  for (;;) {
    try {
      await fs.link(tmp, file);
      if (!waited) return () => release(fs, file, me);
      await fs.unlink(file).catch(() => undefined);
      return 'released';
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    if (await breakStale(fs, file)) continue;
    if (Date.now() >= deadline) return undefined;
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function release(fs: LedgerFs, file: string, me: string): Promise<void> {
  const held = await fs.readFile(file).catch(() => undefined);
  if (held?.toString('utf8') === me) await fs.unlink(file).catch(() => undefined);
}

/** Breaks a lock whose holder is gone (this host, no such process) or that is too old. */
async function breakStale(fs: LedgerFs, file: string): Promise<boolean> {
  const text = (await fs.readFile(file).catch(() => undefined))?.toString('utf8');
  if (text === undefined) return true;
  const [pid, host, at] = text.split(' ');
  const gone = host === hostname() && !alive(Number(pid));
  if (!gone && Date.now() - Number(at) < LOCK_STALE_MS) return false;
  const aside = `${file}.stale-${randomUUID()}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return true;
  }
  await fs.unlink(aside).catch(() => undefined);
  return true;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
