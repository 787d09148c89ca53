import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LineIndex, type Position } from '../core/text';
import type { CliContext } from './context';

// Reading inputs for the CLI: errors are values that name the file (and line and column for bad bytes).

export type Input = { ok: true; name: string; text: string } | { ok: false; name: string; message: string };

/**
 * Reads a file (or `-` for standard input) as UTF-8; invalid bytes are reported with their line and column.
 * A relative path is read from the context's folder and named as given.
 */
export async function readInput(path: string, from: Pick<CliContext, 'cwd' | 'stdin'>): Promise<Input> {
  const name = path === '-' ? '<stdin>' : path;
  let bytes: Buffer;
  try {
    bytes = path === '-' ? await from.stdin() : await readFile(resolve(from.cwd, path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    return { ok: false, name, message: `${name}: cannot read: ${why}` };
  }
  try {
    return { ok: true, name, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, at));
    const p = new LineIndex(before).positionAt(before.length);
    return { ok: false, name, message: `${name}:${p.line + 1}:${p.character + 1}: not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, '0')} at offset ${at}); save the file as UTF-8` };
  }
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

/** Writes through a temporary file and a rename, so a failure never leaves half a file. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.paygate-${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
}
