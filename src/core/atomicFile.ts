// Replacing a file's contents in one step, for every face that rewrites a user's file in place: `paygate
// fix` and the editor's fixes made on a file's bytes (src/extension/diskEdits.ts). Node's file system: a
// face's door, never called by the pure parts of the core.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** For tests: a fault injected after the data is written, and the temporary names tried. */
interface WriteOptions {
  afterWrite?: (tempPath: string) => void | Promise<void>;
  tempName?: (dir: string, base: string) => string;
}

const randomTempName = (dir: string, base: string) => join(dir, `.${base}.${randomBytes(12).toString('hex')}.paygate-tmp`);

/**
 * Replaces a file's contents so that it cannot hurt: only a file the user may write (a read-only one
 * is refused); the real file behind any symlink is replaced (the link stays a link); its mode and owner
 * are kept; the data goes first to a temporary file only this process can have created (random name,
 * O_EXCL, mode 0600, in the real file's directory, so a planted link is never followed and the rename
 * stays on one file system), is synced, and is renamed over the file in one step; on any failure the
 * temporary file is removed and the file is as it was.
 */
export async function writeFileAtomic(path: string, text: string, options: WriteOptions = {}): Promise<void> {
  const real = await realpath(path);
  const dir = dirname(real);
  const tempName = options.tempName ?? randomTempName;
  const original = await stat(real);
  if (!original.isFile()) throw new Error('not a regular file');
  // A rename needs only the folder's permission: a read-only file would be replaced behind its mode.
  if ((original.mode & 0o222) === 0) throw new Error('the file is read-only; it is unchanged');
  await access(real, constants.W_OK).catch(() => {
    throw new Error('no permission to write the file; it is unchanged');
  });
  let handle: FileHandle | undefined;
  let temp: string;
  for (let attempt = 0; ; attempt++) {
    temp = tempName(dir, basename(real));
    try {
      handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      break;
    } catch (err) {
      // Someone else's file (or link) has that name: never touch it, draw another.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) continue;
      throw err;
    }
  }
  let renamed = false;
  try {
    await handle.writeFile(text, 'utf8');
    await options.afterWrite?.(temp);
    const created = await handle.stat();
    if (created.uid !== original.uid || created.gid !== original.gid) {
      try {
        await handle.chown(original.uid, original.gid);
      } catch {
        throw new Error(`cannot keep the file's owner and group (${original.uid}:${original.gid}); the file is unchanged`);
      }
    }
    await handle.chmod(original.mode & 0o7777);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, real);
    renamed = true;
  } catch (err) {
    await handle?.close().catch(() => undefined);
    if (!renamed) await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDirectory(dir);
}

/** Makes the rename durable. Best effort: some file systems cannot sync a directory, and the file is written. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    await handle.sync();
  } catch {
    // Nothing to undo: the new contents are in place either way.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
