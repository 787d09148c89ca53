import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { maskText } from '../../core/mask';

// The submission history: one JSON file in the extension's global storage. A record is written before the
// request leaves (state 'sending') so a crash or a hung request still leaves a trace of what may have
// been created, and completed when the answer arrives. It holds no card number, CVV or secret: callers
// pass only ids, counts and hashes, and every free text is scrubbed again here.
// No `vscode` import, so the store is unit-tested under plain Node.

export const HISTORY_FILE = 'submissions.json';
export const HISTORY_LIMIT = 500;

export type SubmissionState = 'sending' | 'done';

export interface SubmissionRecord {
  id: string;
  /** ISO time the request was started. */
  time: string;
  environment: string;
  production: boolean;
  /** The create operation's full URL. */
  endpoint: string;
  /** The submitted file (a path, or a URI for non-file documents). */
  file: string;
  rowCount: number;
  /** SHA-256 (hex) of the text as sent: CRLF record separators, no BOM. */
  contentHash: string;
  signatureMethod: string;
  state: SubmissionState;
  completedAt?: string;
  /** GatewayOutcome['outcome'], or 'cancelled' when the user stopped waiting. */
  outcome?: string;
  httpStatus?: number;
  message?: string;
  errorCode?: string;
  errorId?: string;
  recurringPaymentIds: string[];
  serialNumbers: string[];
  statuses: string[];
}

export type NewSubmission = Omit<SubmissionRecord, 'id' | 'time' | 'state' | 'recurringPaymentIds' | 'serialNumbers' | 'statuses'>;
export type Completion = Pick<SubmissionRecord, 'outcome'> &
  Partial<Pick<SubmissionRecord, 'httpStatus' | 'message' | 'errorCode' | 'errorId' | 'recurringPaymentIds' | 'serialNumbers' | 'statuses'>>;

interface HistoryFile {
  version: 1;
  records: SubmissionRecord[];
}

/** Ids and serial numbers come back comma-separated when one request creates several payments. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export class SubmissionHistory {
  private readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(storageDir: string) {
    this.file = path.join(storageDir, HISTORY_FILE);
  }

  get filePath(): string {
    return this.file;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Newest first. A missing or unreadable file reads as an empty history (the file is ours alone). */
  async list(): Promise<SubmissionRecord[]> {
    await this.queue.catch(() => undefined);
    return (await this.read()).records;
  }

  async get(id: string): Promise<SubmissionRecord | undefined> {
    return (await this.list()).find((r) => r.id === id);
  }

  /** The latest earlier submission of the same content to the same endpoint. */
  async findDuplicate(contentHash: string, endpoint: string): Promise<SubmissionRecord | undefined> {
    return (await this.list()).find((r) => r.contentHash === contentHash && r.endpoint === endpoint);
  }

  async begin(entry: NewSubmission, now = new Date()): Promise<SubmissionRecord> {
    const record: SubmissionRecord = {
      ...entry,
      message: entry.message === undefined ? undefined : maskText(entry.message),
      id: randomUUID(),
      time: now.toISOString(),
      state: 'sending',
      recurringPaymentIds: [],
      serialNumbers: [],
      statuses: [],
    };
    await this.update((records) => [record, ...records].slice(0, HISTORY_LIMIT));
    return record;
  }

  async complete(id: string, completion: Completion, sensitive: readonly string[] = [], now = new Date()): Promise<SubmissionRecord | undefined> {
    let done: SubmissionRecord | undefined;
    await this.update((records) =>
      records.map((r) => {
        if (r.id !== id) return r;
        done = {
          ...r,
          ...completion,
          message: completion.message === undefined ? undefined : maskText(completion.message, sensitive),
          state: 'done',
          completedAt: now.toISOString(),
          recurringPaymentIds: completion.recurringPaymentIds ?? r.recurringPaymentIds,
          serialNumbers: completion.serialNumbers ?? r.serialNumbers,
          statuses: completion.statuses ?? r.statuses,
        };
        return done;
      }),
    );
    return done;
  }

  async clear(): Promise<void> {
    await this.update(() => []);
  }

  private async read(): Promise<HistoryFile> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<HistoryFile>;
      return { version: 1, records: Array.isArray(parsed.records) ? parsed.records : [] };
    } catch {
      return { version: 1, records: [] };
    }
  }

  /** Read-modify-write, one at a time, written to a temporary file and renamed so a crash never truncates it. */
  private update(change: (records: SubmissionRecord[]) => SubmissionRecord[]): Promise<void> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const current = await this.read();
      const next: HistoryFile = { version: 1, records: change(current.records) };
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      await fs.rename(tmp, this.file);
    });
    this.queue = run;
    return run.then(() => {
      for (const l of this.listeners) l();
    });
  }
}
