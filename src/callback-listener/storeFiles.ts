// Reading the callback store's JSON-lines files (./store.ts): whole, from an offset of an open file, or
// only counting their line ends, in bounded chunks.

import * as fs from 'node:fs';
import { hideCvvs, maskText } from '../core/output';
import { readEntry, type CallbackEntry } from './entry';

const CHUNK = 64 * 1024;

/** The file's text, or '' when there is none. */
export function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** The file's non-empty lines, without their line ends. */
export function readLines(file: string): string[] {
  return readFile(file)
    .split('\n')
    .filter((l) => l !== '');
}

/** An open file's text from byte `from` to its end. */
export function readText(fd: number, from: number): string {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(CHUNK);
  for (let at = from; ;) {
    const n = fs.readSync(fd, buf, 0, CHUNK, at);
    if (n === 0) return Buffer.concat(chunks).toString('utf8');
    chunks.push(Buffer.from(buf.subarray(0, n)));
    at += n;
  }
}

/** The line ends in an open file's bytes [from, to). */
export function countLineEnds(fd: number, from: number, to: number): number {
  const buf = Buffer.alloc(CHUNK);
  let lines = 0;
  for (let at = from; at < to;) {
    const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, to - at), at);
    if (n === 0) break;
    for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    at += n;
  }
  return lines;
}

/** The entries of one file, masked again as they are read; a line cut short by a crash mid-write is skipped. */
export function entries(file: string): CallbackEntry[] {
  const out: CallbackEntry[] = [];
  for (const line of readLines(file)) {
    try {
      const e = readEntry(JSON.parse(line));
      if (e) out.push(e);
    } catch {
      // A damaged line: the others are still good.
    }
  }
  return out;
}

/** Whether a kept line is exactly as the boundary would keep it (a damaged line: whether it holds no card data). */
export function lineIsClean(line: string): boolean {
  let e: CallbackEntry | undefined;
  try {
    e = readEntry(JSON.parse(line));
  } catch {
    e = undefined;
  }
  return e === undefined ? hideCvvs(maskText(line)) === line : JSON.stringify(e) === line;
}
