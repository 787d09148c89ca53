import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { maskText } from '../mask';
import {
  cleanCompletion,
  foldLines,
  mayHaveCreated,
  parseLine,
  sameTarget,
  type Completion,
  type GuardKey,
  type LedgerLine,
  type NewSubmission,
  type SubmissionRecord,
} from './records';

// The submission ledger every face writes: append-only JSON lines, one per event ("begin" before a create
// is sent, "complete" after), each appended with one write to a file opened O_APPEND and fsynced before
// the request leaves. No process ever rewrites the file, so concurrent writers (CLI processes, editor
// windows) all land and a kill -9 at any moment leaves at most one torn last line, which readers skip:
// a torn begin was never followed by a request, a torn completion leaves the record "sending" (possibly
// sent). Every line starts with a line break, so a torn line never swallows the next writer's line.
// Archives (ledger-<time>.jsonl, when the file grows past a size) are read with it; nothing is dropped.
// A file that holds other unreadable lines is damaged: it is moved aside whole (ledger.damaged-<time>),
// its readable lines are appended to a fresh ledger, and the reader is told.

export const LEDGER_FILE = 'ledger.jsonl';
const ARCHIVE = /^ledger-[\dTZ-]+\.jsonl$/;
export const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;

export interface Damage {
  /** Where the damaged file was moved (kept whole). */
  movedTo: string;
  /** Unreadable lines found in it. */
  unreadableLines: number;
  /** Readable lines carried over to the ledger. */
  keptLines: number;
}

export interface LedgerReading {
  /** Newest first. */
  records: SubmissionRecord[];
  /** Set when this read found damage (and moved it aside). */
  damage?: Damage;
  /** Lines cut short by a process killed mid-write (skipped: they recorded nothing that happened). */
  tornLines: number;
}

export interface LedgerOptions {
  /** Size at which the ledger is archived and a new file started (default 64 MiB). */
  rotateBytes?: number;
  now?: () => Date;
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

/** A line cut off by a kill mid-write: one of ours that never reached its closing brace. */
function isTorn(text: string): boolean {
  return text.startsWith('{"ledger":1') && !text.trimEnd().endsWith('}');
}

export class Ledger {
  private readonly file: string;
  private readonly rotateBytes: number;
  private readonly now: () => Date;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly directory: string,
    options: LedgerOptions = {},
  ) {
    this.file = path.join(directory, LEDGER_FILE);
    this.rotateBytes = options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    this.now = options.now ?? (() => new Date());
  }

  /** The current ledger file (archives sit next to it). */
  get filePath(): string {
    return this.file;
  }

  /** In-process change notifications (other processes' writes are seen on the next read). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Records the create before it is sent: when this resolves, the line is on disk. */
  async begin(entry: NewSubmission, at: Date = this.now()): Promise<SubmissionRecord> {
    const record: Omit<SubmissionRecord, 'seq'> = {
      ...entry,
      file: maskText(entry.file),
      message: entry.message === undefined ? undefined : maskText(entry.message),
      id: randomUUID(),
      time: at.toISOString(),
      state: 'sending',
      recurringPaymentIds: [],
      serialNumbers: [],
      statuses: [],
    };
    if (record.message === undefined) delete record.message;
    await this.append({ ledger: 1, op: 'begin', record });
    return { ...record, seq: -1 };
  }

  /**
   * Records how a create ended; `sensitive` values (the batch's card numbers and CVVs) are scrubbed from
   * texts. With the begun record at hand the completed one is folded in memory, else read back.
   */
  async complete(
    id: string,
    completion: Completion,
    sensitive: readonly string[] = [],
    begun?: SubmissionRecord,
  ): Promise<SubmissionRecord | undefined> {
    const line: LedgerLine = {
      ledger: 1,
      op: 'complete',
      id,
      completedAt: this.now().toISOString(),
      completion: cleanCompletion(completion, sensitive),
    };
    await this.append(line);
    if (begun?.id === id) return foldLines([{ ledger: 1, op: 'begin', record: begun }, line])[0];
    return this.get(id);
  }

  async read(): Promise<LedgerReading> {
    const files = await this.files();
    const lines: LedgerLine[] = [];
    let tornLines = 0;
    let damage: Damage | undefined;
    for (const file of files) {
      const read = await this.readFile(file);
      tornLines += read.torn;
      if (read.unreadable > 0) damage = (await this.moveAside(file, read.lines, read.unreadable, read.ino)) ?? damage;
      lines.push(...read.lines);
    }
    return { records: foldLines(lines), tornLines, ...(damage ? { damage } : {}) };
  }

  async list(): Promise<SubmissionRecord[]> {
    return (await this.read()).records;
  }

  async get(id: string): Promise<SubmissionRecord | undefined> {
    return (await this.list()).find((r) => r.id === id);
  }

  /** The latest record that says this content may already be at this target (the resend guard). */
  async findResendBlocker(key: GuardKey, except?: string): Promise<SubmissionRecord | undefined> {
    return (await this.list()).find((r) => r.id !== except && sameTarget(r, key) && mayHaveCreated(r));
  }

  /**
   * Archives the ledger (renamed, never deleted): the Submissions view and the guard start afresh.
   * Returns the archive's path.
   */
  async archive(prefix = 'cleared'): Promise<string | undefined> {
    const dir = path.join(this.directory, `${prefix}-${stamp(this.now())}`);
    const files = await this.files();
    if (files.length === 0) return undefined;
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    for (const f of files) await fs.rename(f, path.join(dir, path.basename(f)));
    this.changed();
    return dir;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Archives in name (time) order, then the current file. */
  private async files(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch {
      return [];
    }
    const archives = names
      .filter((n) => ARCHIVE.test(n))
      .sort()
      .map((n) => path.join(this.directory, n));
    return names.includes(LEDGER_FILE) ? [...archives, this.file] : archives;
  }

  private async readFile(file: string): Promise<{ lines: LedgerLine[]; unreadable: number; torn: number; ino?: number }> {
    let text: string;
    let ino: number | undefined;
    try {
      const handle = await fs.open(file, 'r');
      try {
        ino = (await handle.stat()).ino;
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], unreadable: 0, torn: 0 };
      throw err;
    }
    const lines: LedgerLine[] = [];
    let unreadable = 0;
    let torn = 0;
    for (const raw of text.split('\n')) {
      const t = raw.trim();
      if (t === '') continue;
      const line = parseLine(t);
      if (line) lines.push(line);
      else if (isTorn(t)) torn++;
      else unreadable++;
    }
    return { lines, unreadable, torn, ino };
  }

  /**
   * Moves a damaged ledger file (the live one or an archive) aside whole and appends its readable lines
   * to the live ledger. Another process may
   * be doing the same: only the one that renames the very file it read does it (the others find the inode
   * changed and read the repaired ledger next time). Writers that appended to the old file meanwhile notice
   * the move and append again (see append).
   */
  private async moveAside(file: string, lines: LedgerLine[], unreadable: number, ino: number | undefined): Promise<Damage | undefined> {
    const movedTo = path.join(this.directory, `ledger.damaged-${stamp(this.now())}-${randomUUID().slice(0, 8)}`);
    try {
      if ((await fs.stat(file)).ino !== ino) return undefined;
      await fs.rename(file, movedTo);
    } catch {
      return undefined;
    }
    await this.appendText(lines.map((l) => `\n${JSON.stringify(l)}\n`).join(''));
    this.changed();
    return { movedTo, unreadableLines: unreadable, keptLines: lines.length };
  }

  private async append(line: LedgerLine): Promise<void> {
    await this.appendText(`\n${JSON.stringify(line)}\n`);
    this.changed();
  }

  private async appendText(text: string): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    // Bounded: the file is moved (rotation, repair) rarely, so two attempts in a row are already unusual.
    for (let attempt = 0; attempt < 5; attempt++) {
      const handle = await fs.open(this.file, 'a', 0o600);
      let written: number | undefined;
      try {
        await handle.write(text);
        await handle.sync();
        written = (await handle.stat()).ino;
        if ((await handle.stat()).size > this.rotateBytes) await this.rotate(written);
      } finally {
        await handle.close();
      }
      // The file moved between open and write (rotated or moved aside): the line is in an archive or the
      // damaged copy; append again so the live ledger has it (a repeated line folds into the same record).
      const current = await fs.stat(this.file).catch(() => undefined);
      if (current === undefined || current.ino === written || (await this.isArchive(written))) return;
    }
    throw new Error(`cannot append to the submission ledger ${this.file}: it keeps being moved`);
  }

  private async isArchive(ino: number): Promise<boolean> {
    for (const f of await this.files()) {
      if (f !== this.file && (await fs.stat(f).catch(() => undefined))?.ino === ino) return true;
    }
    return false;
  }

  private async rotate(ino: number): Promise<void> {
    const target = path.join(this.directory, `ledger-${stamp(this.now())}.jsonl`);
    try {
      if ((await fs.stat(this.file)).ino !== ino) return;
      await fs.rename(this.file, target);
    } catch {
      /* another process rotated it first */
    }
  }
}
