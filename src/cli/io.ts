import { readFile, rename, writeFile } from 'node:fs/promises';
import { LineIndex, type Position } from '../core/text';

// Reading inputs for the CLI: errors are values that name the file (and line and column for bad bytes).

export type Input = { ok: true; name: string; text: string } | { ok: false; name: string; message: string };

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads a file (or `-` for stdin) as UTF-8; invalid bytes are reported with their line and column. */
export async function readInput(path: string): Promise<Input> {
  const name = path === '-' ? '<stdin>' : path;
  let bytes: Buffer;
  try {
    bytes = path === '-' ? await readStdin() : await readFile(path);
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
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Binary search on the longest valid prefix: decoding a prefix that cuts a sequence also fails, so
  // allow up to 3 bytes of slack by checking the prefix that ends before the next lead byte.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    let end = mid;
    while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    try {
      decoder.decode(bytes.subarray(0, end));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  let i = lo;
  while (i > 0 && (bytes[i] & 0xc0) === 0x80) i--;
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
