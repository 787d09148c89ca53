// The received calls, newest MAX_STORED_CALLBACKS, in one JSON-lines file in the state directory (mode
// 0600). Appending is one write per call; the file is rewritten with the newest entries only when it has
// grown to twice the bound (or past MAX_STORE_BYTES), so it never grows with history. Entries are masked
// before they get here (entry.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallbackEntry } from './entry';

export const CALLBACKS_FILE = 'callbacks.jsonl';
export const MAX_STORED_CALLBACKS = 10_000;
/** A store past this size is compacted even below twice the count (bodies are at most MAX_CALLBACK_BODY each). */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;

export class CallbackStore {
  readonly file: string;
  private lines: number | undefined;
  private bytes = 0;

  constructor(
    stateDir: string,
    private readonly max = MAX_STORED_CALLBACKS,
  ) {
    this.file = path.join(stateDir, CALLBACKS_FILE);
  }

  /** Appends one entry; compacts when the file holds twice the bound. */
  append(entry: CallbackEntry): void {
    if (this.lines === undefined) this.count();
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const line = `${JSON.stringify(entry)}\n`;
    fs.appendFileSync(this.file, line, { mode: 0o600 });
    this.lines = (this.lines ?? 0) + 1;
    this.bytes += Buffer.byteLength(line);
    if (this.lines > 2 * this.max || this.bytes > MAX_STORE_BYTES) this.compact();
  }

  /** The newest entries (at most the bound), oldest first; damaged lines are skipped. */
  list(): CallbackEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: CallbackEntry[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const e = JSON.parse(line) as CallbackEntry;
        if (typeof e.id === 'string' && typeof e.body === 'string') out.push(e);
      } catch {
        // A line cut short by a crash mid-write: the others are still good.
      }
    }
    return out.length > this.max ? out.slice(out.length - this.max) : out;
  }

  get(id: string): CallbackEntry | undefined {
    return this.list().find((e) => e.id === id);
  }

  private count(): void {
    try {
      const text = fs.readFileSync(this.file, 'utf8');
      this.bytes = Buffer.byteLength(text);
      this.lines = text.split('\n').filter((l) => l !== '').length;
    } catch {
      this.lines = 0;
      this.bytes = 0;
    }
    if (this.lines > 2 * this.max || this.bytes > MAX_STORE_BYTES) this.compact();
  }

  /** Rewrites the file with the newest entries, atomically (a reader sees the old file or the new one). */
  private compact(): void {
    let keep = this.list();
    let text = keep.map((e) => JSON.stringify(e)).join('\n') + (keep.length ? '\n' : '');
    while (Buffer.byteLength(text) > MAX_STORE_BYTES / 2 && keep.length > 1) {
      keep = keep.slice(Math.ceil(keep.length / 4));
      text = keep.map((e) => JSON.stringify(e)).join('\n') + '\n';
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.lines = keep.length;
    this.bytes = Buffer.byteLength(text);
  }
}
