import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { errorMessage } from '../errorMessage';

// The ledger's only door to the disk, small enough that a test can put a failing one in its place (the
// fault suite fails the Nth write short, with ENOSPC or EIO, or fails fsync). Every append goes through
// writeFully: the bytes written are counted, a short write is continued, and a write that makes no
// progress or any error is thrown before anything is sent.

export interface LedgerStat {
  ino: number;
  size: number;
}

export interface LedgerFileHandle {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  sync(): Promise<void>;
  stat(): Promise<LedgerStat>;
  close(): Promise<void>;
}

export interface LedgerFs {
  open(path: string, flags: 'a' | 'r', mode?: number): Promise<LedgerFileHandle>;
  stat(path: string): Promise<LedgerStat>;
  rename(from: string, to: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  /** A second name for a file; fails with EEXIST when `to` exists (how the ledger's key is created once). */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Removes a folder and everything in it (an index this version no longer reads). */
  removeTree(path: string): Promise<void>;
  /** A whole small file (an index shard): one call, as a lookup reads thousands of them. */
  readFile(path: string): Promise<Buffer>;
}

export const nodeLedgerFs: LedgerFs = {
  open: (p, flags, mode) => nodeFs.open(p, flags, mode),
  stat: (p) => nodeFs.stat(p),
  rename: (a, b) => nodeFs.rename(a, b),
  readdir: (p) => nodeFs.readdir(p),
  mkdir: (p, o) => nodeFs.mkdir(p, o),
  link: (a, b) => nodeFs.link(a, b),
  unlink: (p) => nodeFs.unlink(p),
  removeTree: (p) => nodeFs.rm(p, { recursive: true, force: true }),
  // Synchronous inside: reading thousands of small shards through promises (open, stat, read, close
  // each) cost more than the reading.
  readFile: async (p) => readFileSync(p),
};

/** A whole file's text, or undefined when there is none (an index shard, the key: small files). */
export async function readWhole(fs: LedgerFs, file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** An append that did not reach the disk whole: the reason is named for the person who must fix it. */
export class LedgerWriteError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly written: number,
  ) {
    super(`cannot write to the submission ledger ${file}: ${reason}`);
  }
}

function reasonOf(err: unknown, step: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return `the disk is full (ENOSPC during ${step})`;
  if (code === 'EDQUOT') return `the disk quota is exhausted (EDQUOT during ${step})`;
  if (code === 'EIO') return `an input/output error (EIO during ${step})`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code} during ${step})`;
  return `${step} failed (${code ?? errorMessage(err)})`;
}

/**
 * Writes every byte (continuing after short writes) and fsyncs (unless `sync` is false: the guard's index,
 * a cache whose checksums tell a lost write). Bounded: each round writes at least one byte or stops, so at
 * most `bytes.length` rounds.
 */
export async function writeFully(handle: LedgerFileHandle, bytes: Uint8Array, file: string, sync = true): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    let n: number;
    try {
      n = (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
    } catch (err) {
      throw new LedgerWriteError(file, reasonOf(err, 'write'), offset);
    }
    if (!(n > 0)) throw new LedgerWriteError(file, `a short write (${offset} of ${bytes.length} bytes, then none)`, offset);
    offset += n;
  }
  if (!sync) return;
  try {
    await handle.sync();
  } catch (err) {
    throw new LedgerWriteError(file, reasonOf(err, 'fsync'), offset);
  }
}

/**
 * Writes a whole file once, whoever else tries at the same time: the bytes go to a private temporary file
 * (0600), fsynced, then linked to `file`. A file already there wins (EEXIST is no error), so no reader ever
 * sees half a file and two writers never mix their bytes.
 */
export async function createOnce(fs: LedgerFs, file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`;
  const handle = await fs.open(tmp, 'a', 0o600);
  try {
    await writeFully(handle, bytes, tmp);
  } finally {
    await handle.close();
  }
  try {
    await fs.link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/**
 * Every line of a file, read in bounded chunks (memory does not grow with the file). `onLine` returns
 * false to stop early. Lines are given without their line break.
 */
export async function scanLines(
  fs: LedgerFs,
  file: string,
  onLine: (line: string) => boolean | void,
): Promise<{ ino?: number; size?: number }> {
  let handle: LedgerFileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const { ino, size } = await handle.stat();
    const chunk = new Uint8Array(1 << 20);
    const decoder = new TextDecoder();
    let rest = '';
    // Bounded by the size seen at open: lines appended meanwhile are read next time.
    for (let position = 0; position < size;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, size - position), position);
      if (bytesRead <= 0) break;
      position += bytesRead;
      const parts = (rest + decoder.decode(chunk.subarray(0, bytesRead), { stream: position < size })).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) if (onLine(part) === false) return { ino, size };
    }
    if (rest !== '') onLine(rest);
    return { ino, size };
  } finally {
    await handle.close();
  }
}

/** The whole lines in the last `bytes` of a file (the first, partial one skipped), trimmed, non-empty. */
export async function scanTail(fs: LedgerFs, file: string, bytes: number, onLine: (line: string) => void): Promise<void> {
  let handle: LedgerFileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = new Uint8Array(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const lines = new TextDecoder().decode(buffer.subarray(0, bytesRead)).split('\n');
    // Starting mid-file, the first piece may be the end of a line: not judged.
    if (start > 0) lines.shift();
    for (const l of lines) if (l.trim() !== '') onLine(l.trim());
    // Bytes but not one line: cut inside its first line.
    if (size > 0 && start === 0 && lines.every((l) => l.trim() === '')) onLine('');
  } finally {
    await handle.close();
  }
}

/** Lines of a file from its end backwards, in bounded chunks; `onLine` returns false to stop. */
export async function scanLinesBackwards(fs: LedgerFs, file: string, onLine: (line: string) => boolean): Promise<boolean> {
  let handle: LedgerFileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return true;
  }
  try {
    const { size } = await handle.stat();
    const chunk = new Uint8Array(1 << 20);
    let rest = Buffer.alloc(0);
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await handle.read(chunk, 0, end - start, start);
      end = start;
      const joined = Buffer.concat([Buffer.from(chunk.subarray(0, bytesRead)), rest]);
      // Split on bytes, so a character cut by the chunk boundary stays whole in `rest`.
      let cut = joined.length;
      for (let i = joined.length - 1; i >= 0; i--) {
        if (joined[i] !== 0x0a) continue;
        if (onLine(joined.subarray(i + 1, cut).toString('utf8')) === false) return false;
        cut = i;
      }
      rest = joined.subarray(0, cut);
    }
    return rest.length === 0 || onLine(rest.toString('utf8')) !== false;
  } finally {
    await handle.close();
  }
}
