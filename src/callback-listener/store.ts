// The received calls, at least the newest MAX_STORED_CALLBACKS, in two JSON-lines files in the state
// directory (mode 0600): callbacks.jsonl, appended to, and callbacks.1.jsonl, the one before it. Appends
// never rewrite: once the current file holds the bound (or half of MAX_STORE_BYTES), it is renamed over
// the previous one and appending starts a new file. That is what makes several listeners on one state
// directory (the editor's and `paygate listen`s) safe: an append that opened the file just before the
// rename lands in the renamed file, which is still read, so no call is lost between them; a rewrite would
// drop it. Only one process rotates at a time (a lock directory), and it counts the lines again under the
// lock, so a file is never rotated twice.
//
// The bound holds with several writers: each counts the lines actually in the file after its own append
// (every writer's, read incrementally from where it last counted), not only its own appends; and a writer
// that finds the file full while another process is rotating it waits for that rotation before it appends
// again. So the file rotated out holds at most the bound plus one line per other writer.
//
// Nothing unmasked is kept: every entry passes the output boundary at this door (safeEntry) and again when
// read (readEntry). A store written by an earlier version, which kept ids that are card numbers and CVVs
// outside a form, is rewritten masked by the first process that appends to it (see scrub()).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repeatKey } from '../core/callbacks';
import { readEntry, safeEntry, type CallbackEntry } from './entry';
import { countLineEnds, entries, lineIsClean, readLines, readText } from './storeFiles';

export const CALLBACKS_FILE = 'callbacks.jsonl';
const PREVIOUS_CALLBACKS_FILE = 'callbacks.1.jsonl';
const ROTATING = 'callbacks.rotating';
const SCRUBBED = 'callbacks.scrubbed.jsonl';
export const MAX_STORED_CALLBACKS = 10_000;
/** The current file is rotated past half this size even below the count (bodies are at most MAX_CALLBACK_BODY each). */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;
/** A rotation takes milliseconds: a lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;
/** A writer that finds the file full while another process rotates waits this long at most for it to finish. */
const LOCK_WAIT_MS = 500;

/** Where this process last counted the current file to: which file (inode), how many bytes, how many lines. */
interface Counted {
  /** Inode and birth time: an inode number alone may be reused by a later file once its file is gone. */
  file: string;
  bytes: number;
  lines: number;
}

export class CallbackStore {
  readonly file: string;
  readonly previousFile: string;
  private readonly lock: string;
  private counted: Counted | undefined;
  private scrubbed = false;
  /** Per repeat key, the id of the first call kept with it; read from the files at the first append, then bounded by `max`. */
  private firsts: Map<string, string> | undefined;

  constructor(
    stateDir: string,
    private readonly max = MAX_STORED_CALLBACKS,
  ) {
    this.file = path.join(stateDir, CALLBACKS_FILE);
    this.previousFile = path.join(stateDir, PREVIOUS_CALLBACKS_FILE);
    this.lock = path.join(stateDir, ROTATING);
  }

  /**
   * Appends one entry (masked at the door), marked as a repeat (`repeatOf`) when it repeats a kept call;
   * rotates when the current file holds the bound.
   */
  append(entry: CallbackEntry): void {
    if (!this.scrubbed) {
      this.scrubbed = true;
      this.scrub();
    }
    this.markRepeat(entry);
    const { lines, bytes } = this.write(`${JSON.stringify(safeEntry(entry))}\n`);
    if (lines >= this.max || bytes >= MAX_STORE_BYTES / 2) this.rotate();
  }

  /** The newest entries (at most the bound), oldest first, masked; damaged lines and repeated ids are skipped. */
  list(): CallbackEntry[] {
    const seen = new Set<string>();
    const out: CallbackEntry[] = [];
    for (const e of [...entries(this.previousFile), ...entries(this.file)]) {
      if (seen.has(e.id)) continue; // written twice only when a scrub met an append (see write())
      seen.add(e.id);
      out.push(e);
    }
    return out.length > this.max ? out.slice(out.length - this.max) : out;
  }

  /**
   * Sets `repeatOf` when a call with the same status, type, orderid and client_orderid was kept before (the
   * calls this process appended, and those in the files when it first appended). At most `max` keys are
   * remembered, the oldest forgotten first, as the files forget the oldest calls.
   */
  private markRepeat(entry: CallbackEntry): void {
    const key = repeatKey(entry.fields);
    if (key === undefined) return;
    if (this.firsts === undefined) {
      this.firsts = new Map();
      for (const e of this.list()) {
        const k = repeatKey(e.fields);
        if (k !== undefined && !this.firsts.has(k)) this.firsts.set(k, e.repeatOf ?? e.id);
      }
    }
    const first = this.firsts.get(key);
    if (first !== undefined) {
      if (first !== entry.id) entry.repeatOf = first;
      return;
    }
    this.firsts.set(key, entry.id);
    if (this.firsts.size > this.max) this.firsts.delete(this.firsts.keys().next().value as string);
  }

  get(id: string): CallbackEntry | undefined {
    return this.list().find((e) => e.id === id);
  }

  /**
   * Appends the text and counts the current file's lines after it, every writer's, reading only what was
   * appended since this process last counted that same file. A file a scrub replaced while this append
   * was on its way (no link left) gets the text again in the current file: a line is never lost.
   */
  private write(text: string): { lines: number; bytes: number } {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    for (let attempt = 0; ; attempt++) {
      const fd = fs.openSync(this.file, 'a+', 0o600);
      try {
        fs.writeSync(fd, text);
        const st = fs.fstatSync(fd);
        if (st.nlink === 0 && attempt < 2) continue;
        const file = `${st.ino}:${st.birthtimeMs}`;
        if (this.counted?.file !== file || this.counted.bytes > st.size) this.counted = { file, bytes: 0, lines: 0 };
        this.counted.lines += countLineEnds(fd, this.counted.bytes, st.size);
        this.counted.bytes = st.size;
        return { lines: this.counted.lines, bytes: st.size };
      } finally {
        fs.closeSync(fd);
      }
    }
  }

  /**
   * Renames the current file over the previous one, if it still holds the bound when counted under the
   * lock. When another process holds the lock it is rotating: this one waits for it, then counts again.
   */
  private rotate(): void {
    if (this.underLock(() => this.rotateIfFull())) return;
    if (this.lockReleased(LOCK_WAIT_MS)) this.underLock(() => this.rotateIfFull());
  }

  private rotateIfFull(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return; // someone else rotated and nothing was appended since
    }
    try {
      const st = fs.fstatSync(fd);
      const lines = countLineEnds(fd, 0, st.size);
      if (lines >= this.max || st.size >= MAX_STORE_BYTES / 2) fs.renameSync(this.file, this.previousFile);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * A store an earlier version wrote may hold card data: if any kept line is not as the boundary would keep
   * it, both files become one masked previous file (the newest `max` calls) and appending starts afresh.
   * The current file is renamed away first, so appends from then on go to a new one; a line another writer
   * appended to the renamed file meanwhile is carried over to the new current file, masked.
   */
  private scrub(): void {
    if ([this.previousFile, this.file].every((f) => readLines(f).every(lineIsClean))) return;
    this.underLock(() => {
      const previous = readLines(this.previousFile);
      let fd: number | undefined;
      try {
        fd = fs.openSync(this.file, 'r');
        fs.renameSync(this.file, this.previousFile);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      try {
        const current = fd === undefined ? '' : readText(fd, 0);
        const kept = [...previous, ...current.split('\n')].flatMap((l) => masked(l));
        const scrubbed = path.join(path.dirname(this.file), SCRUBBED);
        fs.writeFileSync(scrubbed, kept.slice(-this.max).join(''), { mode: 0o600 });
        fs.renameSync(scrubbed, this.previousFile);
        if (fd !== undefined) {
          const late = readText(fd, Buffer.byteLength(current))
            .split('\n')
            .flatMap((l) => masked(l));
          if (late.length > 0) fs.appendFileSync(this.file, late.join(''), { mode: 0o600 });
        }
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
      this.counted = undefined;
    });
  }

  /** Runs `f` holding the rotation lock; false (and `f` not run) when another process holds it. */
  private underLock(f: () => void): boolean {
    if (!this.takeLock()) return false;
    try {
      f();
    } finally {
      fs.rmSync(this.lock, { recursive: true, force: true });
    }
    return true;
  }

  /** Whether the lock was released within `ms` (appends are synchronous, so this waits synchronously too). */
  private lockReleased(ms: number): boolean {
    const deadline = Date.now() + ms;
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    while (fs.existsSync(this.lock)) {
      if (Date.now() >= deadline) return false;
      Atomics.wait(sleeper, 0, 0, 1);
    }
    return true;
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

/** A kept line as the boundary keeps it (with its line end), or nothing for a damaged or empty one. */
function masked(line: string): string[] {
  if (line === '') return [];
  try {
    const e = readEntry(JSON.parse(line));
    return e ? [`${JSON.stringify(e)}\n`] : [];
  } catch {
    return [];
  }
}
