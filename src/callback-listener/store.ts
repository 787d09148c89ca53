// The received calls, at least the newest MAX_STORED_CALLBACKS, in two JSON-lines files in the state
// directory (mode 0600): callbacks.jsonl, appended to, and callbacks.1.jsonl, the one before it. Nothing is
// ever rewritten: once the current file holds the bound (or half of MAX_STORE_BYTES), it is renamed over
// the previous one and appending starts a new file. That is what makes two listeners on one state
// directory (the editor's and `paygate listen`) safe: an append that opened the file just before the
// rename lands in the renamed file, which is still read, so no call is lost between them; a rewrite would
// drop it. Only one process rotates at a time (a lock directory), and it counts the lines again under the
// lock, so a file is never rotated twice. Entries are masked before they get here (entry.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallbackEntry } from './entry';

export const CALLBACKS_FILE = 'callbacks.jsonl';
const PREVIOUS_CALLBACKS_FILE = 'callbacks.1.jsonl';
const ROTATING = 'callbacks.rotating';
export const MAX_STORED_CALLBACKS = 10_000;
/** The current file is rotated past half this size even below the count (bodies are at most MAX_CALLBACK_BODY each). */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;
/** A rotation takes milliseconds: a lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;

export class CallbackStore {
  readonly file: string;
  readonly previousFile: string;
  private readonly lock: string;
  /** Lines in the current file as this process last counted them, plus its own appends since. */
  private lines: number | undefined;

  constructor(
    stateDir: string,
    private readonly max = MAX_STORED_CALLBACKS,
  ) {
    this.file = path.join(stateDir, CALLBACKS_FILE);
    this.previousFile = path.join(stateDir, PREVIOUS_CALLBACKS_FILE);
    this.lock = path.join(stateDir, ROTATING);
  }

  /** Appends one entry; rotates when the current file holds the bound. */
  append(entry: CallbackEntry): void {
    if (this.lines === undefined) this.lines = countLines(this.file).lines;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(this.file, 'a', 0o600);
    let size: number;
    try {
      fs.writeSync(fd, `${JSON.stringify(entry)}\n`);
      // The file's size now, with every process's appends: the byte bound is exact, the count an estimate.
      size = fs.fstatSync(fd).size;
    } finally {
      fs.closeSync(fd);
    }
    this.lines += 1;
    if (this.lines >= this.max || size >= MAX_STORE_BYTES / 2) this.rotate();
  }

  /** The newest entries (at most the bound), oldest first; damaged lines are skipped. */
  list(): CallbackEntry[] {
    const out = [...entries(this.previousFile), ...entries(this.file)];
    return out.length > this.max ? out.slice(out.length - this.max) : out;
  }

  get(id: string): CallbackEntry | undefined {
    return this.list().find((e) => e.id === id);
  }

  /** Renames the current file over the previous one, if it still holds the bound when counted under the lock. */
  private rotate(): void {
    if (!this.takeLock()) return; // another process is rotating; this one counts again on its next append
    try {
      const now = countLines(this.file);
      if (now.lines >= this.max || now.bytes >= MAX_STORE_BYTES / 2) {
        fs.renameSync(this.file, this.previousFile);
        this.lines = 0;
      } else {
        this.lines = now.lines; // someone else rotated since this process counted
      }
    } finally {
      fs.rmSync(this.lock, { recursive: true, force: true });
    }
  }

  private takeLock(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.mkdirSync(this.lock, { mode: 0o700 });
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        let since: number;
        try {
          since = fs.statSync(this.lock).mtimeMs;
        } catch {
          continue; // released meanwhile: try again
        }
        if (Date.now() - since < STALE_LOCK_MS) return false;
        fs.rmSync(this.lock, { recursive: true, force: true });
      }
    }
    return false;
  }
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

function entries(file: string): CallbackEntry[] {
  const out: CallbackEntry[] = [];
  for (const line of read(file).split('\n')) {
    if (line === '') continue;
    try {
      const e = JSON.parse(line) as CallbackEntry;
      if (typeof e.id === 'string' && typeof e.body === 'string') out.push(e);
    } catch {
      // A line cut short by a crash mid-write: the others are still good.
    }
  }
  return out;
}

function countLines(file: string): { lines: number; bytes: number } {
  let text: string;
  try {
    text = read(file);
  } catch {
    return { lines: 0, bytes: 0 };
  }
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return { lines, bytes: Buffer.byteLength(text) };
}
