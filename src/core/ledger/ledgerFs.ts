import * as nodeFs from 'node:fs/promises';

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
}

export const nodeLedgerFs: LedgerFs = {
  open: (p, flags, mode) => nodeFs.open(p, flags, mode),
  stat: (p) => nodeFs.stat(p),
  rename: (a, b) => nodeFs.rename(a, b),
  readdir: (p) => nodeFs.readdir(p),
  mkdir: (p, o) => nodeFs.mkdir(p, o),
};

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
  return `${step} failed (${code ?? (err instanceof Error ? err.message : String(err))})`;
}

/**
 * Writes every byte (continuing after short writes) and fsyncs. Bounded: each round writes at least one
 * byte or stops, so at most `bytes.length` rounds.
 */
export async function writeFully(handle: LedgerFileHandle, bytes: Uint8Array, file: string): Promise<void> {
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
  try {
    await handle.sync();
  } catch (err) {
    throw new LedgerWriteError(file, reasonOf(err, 'fsync'), offset);
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
