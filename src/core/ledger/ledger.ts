import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { maskText } from '../output';
import { errorMessage } from '../errorMessage';
import { nodeLedgerFs, scanTail, type LedgerFs } from './ledgerFs';
import { GUARD_DIR, LedgerIndex, OLD_INDEX_DIR, type IndexOptions } from './ledgerIndex';
import { readWholeLedger, type LedgerWriter } from './ledgerRepair';
import { batchHashes, BATCHES_DIR } from './batchRows';
import { guardView, recordsOfRows, type GuardSources } from './guardView';
import type { Keys } from './rowIndex';
import { newestRecord, recentRecords } from './recent';
import type { BatchRowKeys } from './rowKeys';
import { RowRecords } from './rowRecords';
import type { PayerRecord } from './samePayer';
import type { LedgerSecret } from './secret';
import { Appender, LEDGER_FILE, ledgerFiles, stamp } from './files';
import {
  cleanCompletion,
  foldLines,
  mayHaveCreated,
  parseLine,
  sameTarget,
  type Completion,
  type GuardKey,
  type LedgerLine,
  type LedgerOptions,
  type LedgerReading,
  type NewSubmission,
  type SubmissionRecord,
} from './records';

// The submission ledger every face writes: append-only JSON lines, one per event ("begin" before a create
// is sent, "complete" after), each appended to a file opened O_APPEND, every byte counted (a short write is
// continued) and fsynced before the request leaves; any failure is thrown, and nothing is sent. No process
// rewrites the file, so concurrent writers (CLI processes, editor windows) all land. Every line starts
// with a line break, so a torn line never swallows the next writer's line.
// A torn or unreadable line anywhere is damage, moved aside by the whole read (ledgerRepair.ts), and the
// guard errs on "may have been sent" (see guard.ts).
// Archives (ledger-<time>.jsonl, when the file grows past a size) are read with it; nothing is dropped.
// Beside it: each sent batch's row keys (batches/: batchRows.ts), the key those are made with (ledger.key:
// secret.ts), and the guard's index (guard/: ledgerIndex.ts, rowIndex.ts), a cache derived from the two
// and checked against them before every use: nothing on the way to a send writes it.

export const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;

export class Ledger {
  /** The file store (store.ts: the team ledger is the other). */
  readonly kind = 'file' as const;
  private readonly file: string;
  private readonly rotateBytes: number;
  private readonly now: () => Date;
  private readonly fs: LedgerFs;
  private readonly listeners = new Set<() => void>();
  private readonly index: LedgerIndex;
  /** Its batches' row records (rowRecords.ts): `paygate diff` reads a send's as a compact table there. */
  readonly rows: RowRecords;
  private readonly appender: Appender;
  private readonly writer: LedgerWriter;
  private readonly sources: GuardSources;

  constructor(
    readonly directory: string,
    options: LedgerOptions & IndexOptions = {},
  ) {
    this.file = path.join(directory, LEDGER_FILE);
    this.rotateBytes = options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    this.now = options.now ?? (() => new Date());
    this.fs = options.fs ?? nodeLedgerFs;
    this.rows = new RowRecords(this.fs, directory);
    this.index = new LedgerIndex(
      directory,
      this.fs,
      {
        files: () => this.files(),
        readAll: () => this.readAll(),
        rowsOf: (hash) => this.rows.indexed(hash),
        batchHashes: () => batchHashes(this.fs, this.directory),
      },
      options,
    );
    this.appender = new Appender(this.fs, directory, this.file, this.rotateBytes, this.now);
    this.writer = {
      fs: this.fs,
      directory,
      now: () => this.now(),
      appendText: (t) => this.appender.appendText(t),
      changed: () => this.changed(),
    };
    this.sources = {
      index: this.index,
      readAll: () => this.readAll(),
      tailIsDamaged: () => this.tailIsDamaged(),
    };
  }

  /** Whether any send was ever recorded here (a reader writes nothing where there is no ledger). */
  exists(): Promise<boolean> {
    return this.fs.stat(this.file).then(
      () => true,
      () => false,
    );
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

  /**
   * Records the create before it is sent: when this resolves, the line is on disk. When it throws, the
   * request must not be sent; the ledger is told so (best effort) with a "withdrawn" completion.
   */
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
    // The id first, so even a line cut short names its record.
    try {
      await this.append({ ledger: 1, op: 'begin', id: record.id, record });
    } catch (err) {
      const why = errorMessage(err);
      await this.complete(record.id, { outcome: 'withdrawn', message: `Not sent: ${why}` }, [], { ...record, seq: -1 }).catch(
        () => undefined,
      );
      throw err;
    }
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
      ...(begun?.id === id ? { contentHash: begun.contentHash } : {}),
      completedAt: this.now().toISOString(),
      completion: cleanCompletion(completion, sensitive),
    };
    await this.append(line);
    if (begun?.id === id) return foldLines([{ ledger: 1, op: 'begin', record: begun }, line])[0];
    return this.get(id);
  }

  /** Acknowledges damage nobody can attribute (an explicit resend); it holds back sends no more. */
  async acknowledge(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.append({ ledger: 1, op: 'ack', ids: [...ids] });
  }

  async read(): Promise<LedgerReading> {
    return (await this.readAll()).reading;
  }

  private async readAll(): Promise<{ reading: LedgerReading; lines: LedgerLine[] }> {
    return readWholeLedger(this.writer, await this.files());
  }

  /** What the file-level guard needs to know of one content (guardView.ts). */
  guardView(key: GuardKey, shardOnly = false): Promise<LedgerReading> {
    return guardView(this.sources, key, shardOnly);
  }

  /** The submissions (every target and outcome) that held each row key (guardView.ts); `seal` false writes nothing. */
  recordsOfRows(keys: Keys, seal = true): Promise<Map<string, SubmissionRecord[]>> {
    return recordsOfRows(this.sources, keys, seal);
  }

  /**
   * The earlier sent rows with each of `fingerprints` (card and schedule: rowRecords.ts, samePayer.ts).
   * `looked`: what a recordsOfRows whose keys held the fingerprints' payer keys answered (lint looks the
   * rows' keys and the payers' up in one pass): its answer for those keys is taken, no lookup made again.
   */
  recordsOfPayers(
    fingerprints: ReadonlySet<string>,
    looked?: ReadonlyMap<string, SubmissionRecord[]>,
  ): Promise<Map<string, PayerRecord[]>> {
    const lookup = looked
      ? (keys: ReadonlySet<string>) => Promise.resolve(answerFor(looked, keys))
      : (keys: ReadonlySet<string>) => this.recordsOfRows(keys);
    return this.rows.payers(fingerprints, lookup);
  }

  /** The ledger's key for row keys; `create` makes it when missing (a send), else undefined (a reader). */
  secret(create: boolean): Promise<LedgerSecret | undefined> {
    return this.rows.secret(create);
  }

  /** Records a batch's row keys before it is sent (batchRows.ts); a ledger error is thrown before anything is sent. */
  recordRows(contentHash: string, keys: BatchRowKeys): Promise<void> {
    return this.rows.record(contentHash, keys);
  }

  /** A sent batch's row keys, or undefined when the ledger keeps none (sent before row keys). */
  batchRows(contentHash: string): Promise<BatchRowKeys | undefined> {
    return this.rows.batchRows(contentHash);
  }

  /** Seals the ledger's newest lines (a send's) into the guard's index (after a send; best effort). */
  async tidyRows(): Promise<void> {
    await this.index.tidy();
  }

  /** The newest `limit` records (append order), reading the files backwards: bounded by what is shown. */
  async recent(limit: number): Promise<SubmissionRecord[]> {
    const files = await this.files();
    return recentRecords(this.fs, files.reverse(), limit);
  }

  /** The newest record `wanted` accepts, reading backwards (`paygate diff --against last`). */
  async newest(wanted: (r: SubmissionRecord) => boolean): Promise<SubmissionRecord | undefined> {
    const files = await this.files();
    return newestRecord(this.fs, files.reverse(), wanted);
  }

  /** Whether the last 64 KiB of the live file hold a line that is neither whole nor ours. */
  private async tailIsDamaged(): Promise<boolean> {
    let broken = false;
    await scanTail(this.fs, this.file, 64 * 1024, (t) => {
      if (parseLine(t) === undefined) broken = true;
    });
    return broken;
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
    await this.fs.mkdir(dir, { recursive: true, mode: 0o700 });
    for (const f of files) await this.fs.rename(f, path.join(dir, path.basename(f)));
    for (const sub of [GUARD_DIR, BATCHES_DIR, OLD_INDEX_DIR])
      await this.fs.rename(path.join(this.directory, sub), path.join(dir, sub)).catch(() => undefined);
    this.changed();
    return dir;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Archives in name (time) order, then the current file. */
  private files(): Promise<string[]> {
    return ledgerFiles(this.fs, this.directory);
  }

  /** A failure is thrown before anything is sent. The index follows the ledger when next read. */
  private async append(line: LedgerLine): Promise<void> {
    await this.appender.appendText(`\n${JSON.stringify(line)}\n`);
    this.changed();
  }
}

/** A lookup's answer for `keys` alone, from the answer of one whose keys held them. */
function answerFor(looked: ReadonlyMap<string, SubmissionRecord[]>, keys: ReadonlySet<string>): Map<string, SubmissionRecord[]> {
  const out = new Map<string, SubmissionRecord[]>();
  for (const key of keys) {
    const records = looked.get(key);
    if (records) out.set(key, records);
  }
  return out;
}
