import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

// The one check every file input goes through (a batch, a report, a schedule's batch, a template, a key):
// only a regular file is read. The file is opened without waiting (O_NONBLOCK: a FIFO would hold the open
// until a writer came, forever) and checked on the open descriptor, so what is checked is what is read; a
// directory, a device (/dev/zero would be read until memory ran out), a FIFO or a socket is refused at
// once with a message naming the file. O_NONBLOCK changes nothing for a regular file's reads.

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A file that cannot be read, or is not a regular file: `message` names it; `code` is the system's (ENOENT…). */
export class FileRefused extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const READ_ERRORS: Record<string, string> = { ENOENT: 'no such file', EISDIR: 'is a directory', EACCES: 'permission denied' };

/** "NAME: cannot read: why" for an error opening or reading a file. */
export function cannotReadText(name: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return `${name}: cannot read: ${READ_ERRORS[code ?? ''] ?? (err as Error).message}`;
}

const refusedBy = (name: string, err: unknown) => new FileRefused(cannotReadText(name, err), (err as NodeJS.ErrnoException).code);

/** Why `st` is not read (a directory, a device, FIFO or socket), or undefined for a regular file. */
function refusal(name: string, st: Stats): string | undefined {
  if (st.isDirectory()) return `${name}: cannot read: is a directory`;
  if (!st.isFile()) return `${name}: cannot read: not a regular file (a device, FIFO or socket); give a file`;
  return undefined;
}

/** `path` opened for reading when it is a regular file (the caller closes it); else why not, naming `name`. */
export async function openRegularFile(
  path: string,
  name: string,
): Promise<{ ok: true; handle: FileHandle; size: number } | { ok: false; message: string; code?: string }> {
  let handle: FileHandle;
  try {
    // Loaded on first use: a command that reads its files at once (openRegularFileSync) never loads it.
    const { open } = await import('node:fs/promises');
    handle = await open(path, FLAGS);
  } catch (err) {
    return { ok: false, message: cannotReadText(name, err), code: (err as NodeJS.ErrnoException).code };
  }
  try {
    const st = await handle.stat();
    const refused = refusal(name, st);
    if (refused === undefined) return { ok: true, handle, size: st.size };
    await handle.close().catch(() => undefined);
    return { ok: false, message: refused };
  } catch (err) {
    await handle.close().catch(() => undefined);
    return { ok: false, message: cannotReadText(name, err) };
  }
}

/**
 * openRegularFile at once: the descriptor (the caller closes it) when `path` is a regular file; else why
 * not, naming `name`. For a command that reads its files one after another anyway (`paygate lint`): no
 * promise, file handle or thread per step, nor node:fs/promises loaded (issue 40).
 */
export function openRegularFileSync(
  path: string,
  name: string,
): { ok: true; fd: number; size: number } | { ok: false; message: string; code?: string } {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (err) {
    return { ok: false, message: cannotReadText(name, err), code: (err as NodeJS.ErrnoException).code };
  }
  try {
    const st = fstatSync(fd);
    const refused = refusal(name, st);
    if (refused === undefined) return { ok: true, fd, size: st.size };
    closeSync(fd);
    return { ok: false, message: refused };
  } catch (err) {
    closeSync(fd);
    return { ok: false, message: cannotReadText(name, err) };
  }
}

/** A regular file's whole content; a FileRefused naming `name` otherwise. */
export async function readRegularFile(path: string, name: string): Promise<Buffer> {
  const opened = await openRegularFile(path, name);
  if (!opened.ok) throw new FileRefused(opened.message, opened.code);
  try {
    return await opened.handle.readFile();
  } catch (err) {
    throw refusedBy(name, err);
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/** The same, at once (a key file, a configuration read while a command starts). */
export function readRegularFileSync(path: string, name: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (err) {
    throw refusedBy(name, err);
  }
  try {
    const refused = refusal(name, fstatSync(fd));
    if (refused !== undefined) throw new FileRefused(refused);
    return readFileSync(fd);
  } catch (err) {
    throw err instanceof FileRefused ? err : refusedBy(name, err);
  } finally {
    closeSync(fd);
  }
}
