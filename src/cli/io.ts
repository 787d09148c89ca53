import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from './context';
import { LineIndex, type Position } from '../core/text';
import { terminalField } from '../core/output';
import { thousands } from '../core/thousands';
import { cannotReadText, openRegularFileSync } from '../core/regularFile';

export { writeFileAtomic } from '../core/atomicFile';

// Reading inputs for the CLI: errors are values that name the file (and line and column for bad bytes).
// Writing a fixed file: the core's writeFileAtomic (a private temporary file and a rename, never weakening
// the file), which the editor's fixes on disk use too.

/**
 * `name` is the input as every output shows it: the path as given, through the output boundary (a file
 * name is input too: one holding an escape sequence or a line break is shown escaped, in every format).
 */
export type Input = { ok: true; name: string; text: string } | { ok: false; name: string; message: string };

/**
 * The most a command reads from one input unless told otherwise. A batch is text the linter holds in
 * memory (a little more than the file's size again while checking); 512 MiB is also about the longest
 * string JavaScript can hold.
 */
export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

export interface ReadOptions {
  /** The size limit in bytes; given by commands that take `--max-bytes`, whose messages then name it. */
  maxBytes?: number;
}

const plural = (n: number) => `${thousands(n)} byte${n === 1 ? '' : 's'}`;

function overLimit(name: string, what: string, max: number, flag: boolean): string {
  return `${name}: ${what} is over the limit of ${plural(max)}${flag ? '; --max-bytes N raises it' : ''}`;
}

/**
 * A regular file up to `max` bytes, opened and checked by the one check (core/regularFile.ts: a FIFO, a
 * device or a directory is refused at once).
 */
function readRegularFile(path: string, name: string, max: number, flag: boolean): Buffer | string {
  // At once: the files are read one after another anyway, and this spares every command's start the
  // promises, file handles and worker threads of node:fs/promises (issue 40).
  const opened = openRegularFileSync(path, name);
  if (!opened.ok) return opened.message;
  const fd = opened.fd;
  try {
    if (opened.size > max) return overLimit(name, `the file (${plural(opened.size)})`, max, flag);
    // Read to the end, never more than one byte past the limit: a file that grows while it is read is
    // followed up to the limit and refused past it.
    let buffer = Buffer.allocUnsafe(Math.min(opened.size, max) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, max + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > max) return overLimit(name, 'the file', max, flag);
    }
    return buffer.subarray(0, length);
  } catch (err) {
    return cannotReadText(name, err);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already read
    }
  }
}

/**
 * Reads a file (or `-` for stdin) as UTF-8; invalid bytes are reported with their line and column. Only
 * regular files are read, and only up to the size limit.
 */
export async function readInput(path: string, from: Pick<CliContext, 'cwd' | 'stdin'>, options: ReadOptions = {}): Promise<Input> {
  const name = path === '-' ? '<stdin>' : terminalField(path);
  const flag = options.maxBytes !== undefined;
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let bytes: Buffer;
  if (path === '-') {
    const read = await from.stdin(max);
    if (read === 'too-large' || read.length > max) return { ok: false, name, message: overLimit(name, 'standard input', max, flag) };
    bytes = read;
  } else {
    // A relative path is read from the context's folder and named as given.
    const read = readRegularFile(resolve(from.cwd, path), name, max, flag);
    if (typeof read === 'string') return { ok: false, name, message: read };
    bytes = read;
  }
  let text: string | undefined;
  try {
    text = decodeUtf8(bytes);
  } catch {
    // JavaScript strings stop near 512 Mi characters, whatever the limit was raised to.
    return { ok: false, name, message: `${name}: too large to check in one piece (${plural(bytes.length)})` };
  }
  if (text !== undefined) return { ok: true, name, text };
  const at = firstInvalidUtf8(bytes);
  const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, at));
  const p = new LineIndex(before).positionAt(before.length);
  return {
    ok: false,
    name,
    message: `${name}:${p.line + 1}:${p.character + 1}: not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, '0')} at offset ${at}); save the file as UTF-8`,
  };
}

/**
 * The bytes as text when they are valid UTF-8 (a byte order mark kept: lint reports it), else undefined.
 * Validated first (simdutf, a millisecond for 20 MB), then decoded: an ASCII file, the usual batch, as
 * Latin-1, which copies the bytes; this took a tenth of the time TextDecoder's fatal mode took.
 */
function decodeUtf8(bytes: Buffer): string | undefined {
  if (isAscii(bytes)) return bytes.toString('latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : undefined;
}

/** The `--max-bytes` option: undefined when absent (the default applies), null when not a byte count. */
export function maxBytesOption(value: string | boolean | string[] | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? (parseByteCount(value) ?? null) : null;
}

const UNIT_BYTES: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `--max-bytes` as given: a whole number of bytes, or with a binary suffix K, M or G (512M). */
export function parseByteCount(value: string): number | undefined {
  const m = /^(\d+)([kmg]i?b?)?$/i.exec(value.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? '').charAt(0).toLowerCase();
  const n = Number(m[1]) * (UNIT_BYTES[unit] ?? 1);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  // A prefix that decodes in streaming mode (an unfinished sequence at its end is not yet an error) stays
  // decodable when cut shorter, so the longest one is found by binary search; the byte after it fails.
  const decodes = (n: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream });
      return true;
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (decodes(mid, true)) lo = mid;
    else hi = mid - 1;
  }
  // When that prefix ends inside an unfinished sequence, the sequence's lead byte is the bad one.
  let i = lo;
  if (!decodes(lo, false)) while (i > 0 && (bytes[--i] & 0xc0) === 0x80);
  return Math.min(i, bytes.length - 1);
}

/**
 * 1-based line and column for people and problem matchers. A byte order mark is not counted: editors
 * do not show it, so columns on the first line match what the user sees.
 */
export function displayPosition(p: Position, bom: boolean): { line: number; column: number } {
  const shift = bom && p.line === 0 && p.character > 0 ? 1 : 0;
  return { line: p.line + 1, column: p.character + 1 - shift };
}
