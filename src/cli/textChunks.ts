// A report read as decoded text in pieces (a file, or standard input as it comes), for commands that
// stream it (`paygate query`): a report of any size costs a piece of memory, not its size. Files are
// opened by the one check (core/regularFile.ts: without waiting on a FIFO, regular files only); bytes that are not UTF-8
// are named by their offset.

import { resolve } from 'node:path';
import type { CliContext } from './context';
import { openRegularFile } from '../core/regularFile';

/**
 * The pieces' size. Each piece is read by the report reader and dropped, and what a piece leaves behind
 * (its text, its cells' offsets) is garbage the heap grows with: 64 KiB pieces held the peak at 78 MB
 * on a million rows, 1 MiB ones at 144 MB, in the same time.
 */
const PIECE = 1 << 16;

export class InputProblem extends Error {}

async function* fileBytes(path: string, name: string): AsyncGenerator<Uint8Array> {
  const opened = await openRegularFile(path, name);
  if (!opened.ok) throw new InputProblem(opened.message);
  const handle = opened.handle;
  try {
    const buffer = new Uint8Array(PIECE);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, PIECE, null);
      if (bytesRead === 0) break;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function* stdinBytes(ctx: CliContext): AsyncGenerator<Uint8Array> {
  if (ctx.stdinChunks) {
    yield* ctx.stdinChunks();
    return;
  }
  const all = await ctx.stdin();
  if (all !== 'too-large') yield all;
}

/** The text of FILE (`-`: standard input) in decoded pieces; an InputProblem names what went wrong. */
export async function* textChunks(file: string, ctx: CliContext): AsyncGenerator<string> {
  const name = file === '-' ? '<stdin>' : file;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let offset = 0;
  const bytes = file === '-' ? stdinBytes(ctx) : fileBytes(resolve(ctx.cwd, file), name);
  for await (const chunk of bytes) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputProblem(
        `${name}: not valid UTF-8 (in the bytes from offset ${offset} to ${offset + chunk.length}); save the report as UTF-8`,
      );
    }
    offset += chunk.length;
    if (text !== '') yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } catch {
    throw new InputProblem(`${name}: not valid UTF-8 (the last bytes end inside a character); save the report as UTF-8`);
  }
}
