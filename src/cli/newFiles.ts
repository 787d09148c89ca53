import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// New files written all or none (the parts of `paygate split`): each goes first to a temporary file only
// this process can have created (random name, O_EXCL, no link followed, mode 0600: the parts hold card
// numbers), is synced, and is then linked under its name, which fails rather than replace a file that
// appeared meanwhile. On any failure every file this call created is removed again: no half set of
// parts is left to be sent. A process killed outright (kill -9, a power cut) cannot clean up: its
// temporary files carry its process id in their names (`.NAME.<pid>-<random>.paygate-tmp`), and the next
// split into that folder removes those of processes that are gone (sweepStaleTemps), so card data never
// stays behind in hidden files.

export interface NewFile {
  path: string;
  text: string;
}

async function writeTemp(file: NewFile): Promise<string> {
  let handle: FileHandle | undefined;
  for (let attempt = 0; ; attempt++) {
    const temp = join(dirname(file.path), `.${basename(file.path)}.${process.pid}-${randomBytes(12).toString('hex')}.paygate-tmp`);
    try {
      handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) continue;
      throw err;
    }
    try {
      await handle.writeFile(file.text, 'utf8');
      await handle.sync();
      return temp;
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
}

/** Writes every file under its name, none of which may exist; all or none. Throws with the reason. */
export async function writeNewFiles(files: readonly NewFile[]): Promise<void> {
  const temps: string[] = [];
  const placed: string[] = [];
  try {
    for (const f of files) temps.push(await writeTemp(f));
    for (let i = 0; i < files.length; i++) {
      await link(temps[i], files[i].path).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'EEXIST' ? new Error(`${basename(files[i].path)} exists; nothing was written`) : err;
      });
      placed.push(files[i].path);
    }
  } catch (err) {
    for (const p of placed) await unlink(p).catch(() => undefined);
    throw err;
  } finally {
    for (const t of temps) await unlink(t).catch(() => undefined);
  }
}

/** A temporary file of writeNewFiles: its process id (absent in the names of versions before it). */
const TEMP = /^\..+\.part-\d{3,}\.rpcsv\.(?:(\d+)-)?[0-9a-f]{24}\.paygate-tmp$/;
/** How old a temporary file without a process id must be before it is taken for a killed split's. */
const UNNAMED_STALE_MS = 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of splits into `dir` whose process is gone (killed before it could clean
 * up); those of a split still running are left alone. Returns how many were removed.
 */
export async function sweepStaleTemps(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = TEMP.exec(name);
    if (!m) continue;
    const file = join(dir, name);
    const stale =
      m[1] !== undefined
        ? Number(m[1]) !== process.pid && !alive(Number(m[1]))
        : Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? Date.now()) > UNNAMED_STALE_MS;
    if (
      stale &&
      (await unlink(file).then(
        () => true,
        () => false,
      ))
    )
      removed++;
  }
  return removed;
}
