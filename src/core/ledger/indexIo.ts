import * as path from 'node:path';
import { checksum, type Watermark } from './indexManifest';
import { writeFully, type LedgerFs } from './ledgerFs';
import { parseLine, type LedgerLine } from './records';

// How the guard's index (ledgerIndex.ts) reads the ledger past its watermark and writes its own files.

/** Bytes of the ledger before the watermark whose checksum the manifest keeps. */
export const TAIL_CHECK = 4096;

/** A watermark before anything: the index covers nothing, every file is read from its start. */
export const NOTHING: Watermark = { ino: 0, size: 0, tail: '' };

/** Where the ledger's lines past a watermark are: a file and the offset to read it from. */
export type Unread = { file: string; from: number }[];

/** The checksum of the TAIL_CHECK bytes of `file` before `size`. */
export async function tailSum(fs: LedgerFs, file: string, size: number): Promise<string> {
  const start = Math.max(0, size - TAIL_CHECK);
  const buf = Buffer.alloc(size - start);
  const handle = await fs.open(file, 'r');
  try {
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    return checksum(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The live file's watermark now: its inode, its size up to the last line break, and the bytes before. */
export async function watermarkOf(fs: LedgerFs, files: readonly string[]): Promise<Watermark> {
  const last = files[files.length - 1];
  const stat = last === undefined ? undefined : await fs.stat(last).catch(() => undefined);
  if (last === undefined || !stat) return NOTHING;
  // Up to the last line break: a line being written is read again past the watermark.
  const probe = Math.min(stat.size, 1 << 16);
  const handle = await fs.open(last, 'r');
  let size: number;
  try {
    const buf = Buffer.alloc(probe);
    const { bytesRead } = await handle.read(buf, 0, probe, stat.size - probe);
    const at = buf.subarray(0, bytesRead).lastIndexOf(10);
    size = at < 0 ? stat.size - probe : stat.size - probe + at + 1;
  } finally {
    await handle.close();
  }
  return { ino: stat.ino, size, tail: await tailSum(fs, last, size) };
}

/**
 * Where the ledger's lines past the watermark are: the file it names from its offset, then every later
 * one; undefined when no file is that one, or its bytes before the offset changed (an older or foreign index).
 */
export async function locate(fs: LedgerFs, files: readonly string[], w: Watermark): Promise<Unread | undefined> {
  if (w.ino === 0) return files.map((file) => ({ file, from: 0 }));
  // From the newest: the watermark is nearly always in the live file (a million records are some 20 archives).
  for (let i = files.length - 1; i >= 0; i--) {
    const stat = await fs.stat(files[i]).catch(() => undefined);
    if (stat?.ino !== w.ino) continue;
    if (stat.size < w.size || (await tailSum(fs, files[i], w.size)) !== w.tail) return undefined;
    return [{ file: files[i], from: w.size }, ...files.slice(i + 1).map((file) => ({ file, from: 0 }))];
  }
  return undefined;
}

/** A file's bytes from `start` to its end as it is now. */
async function readFrom(fs: LedgerFs, file: string, start: number): Promise<{ bytes: Buffer; ino: number } | undefined> {
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    const bytes = Buffer.alloc(Math.max(0, stat.size - start));
    let read = 0;
    // Bounded: each round reads at least one byte or stops.
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
      if (bytesRead <= 0) break;
      read += bytesRead;
    }
    return { bytes: bytes.subarray(0, read), ino: stat.ino };
  } finally {
    await handle.close();
  }
}

/** The lines of `bytes` up to its last line break; undefined when one does not parse. */
function wholeLines(bytes: Buffer, into: LedgerLine[]): boolean {
  for (const raw of bytes.toString('utf8').split('\n')) {
    const t = raw.trim();
    if (t === '') continue;
    const line = parseLine(t);
    if (!line) return false;
    into.push(line);
  }
  return true;
}

/**
 * The whole lines past the watermark and where they end (the last file's last line break: a line being
 * written stays for the next read); undefined when one does not parse (ledger damage: the whole read
 * moves it aside).
 */
export async function readUnread(
  fs: LedgerFs,
  unread: Unread,
): Promise<{ lines: LedgerLine[]; end: Watermark; bytes: number } | undefined> {
  const lines: LedgerLine[] = [];
  let end: Watermark | undefined;
  let total = 0;
  for (const { file, from } of unread) {
    const read = await readFrom(fs, file, from);
    if (!read) return undefined;
    const cut = read.bytes.lastIndexOf(10) + 1;
    if (!wholeLines(read.bytes.subarray(0, cut), lines)) return undefined;
    total += cut;
    end = { ino: read.ino, size: from + cut, tail: '' };
  }
  if (!end) return undefined;
  end.tail = await tailSum(fs, unread[unread.length - 1].file, end.size);
  return { lines, end, bytes: total };
}

/** Writes a new index file whole (0600, not fsynced: its checksum tells a lost write). */
export async function writeIndexFile(fs: LedgerFs, file: string, bytes: Uint8Array): Promise<void> {
  await appendIndexFile(fs, file, bytes);
}

/** Appends bytes to a file of the index (created 0600), every byte written, not fsynced. */
export async function appendIndexFile(fs: LedgerFs, file: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await fs.open(file, 'a', 0o600);
  try {
    await writeFully(handle, bytes, file, false);
  } finally {
    await handle.close();
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
