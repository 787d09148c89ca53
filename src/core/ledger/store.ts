import type { Ledger } from './ledger';
import type { Completion, GuardKey, LedgerReading, NewSubmission, SubmissionRecord } from './records';
import type { BatchRowKeys } from './rowKeys';
import type { PayerRecord } from './samePayer';
import type { LedgerSecret } from './secret';

// The ledger's two stores behind one interface: the file ledger (ledger.ts, the default: one person, one
// machine) and the team ledger (team/: PostgreSQL, shared by a team). Lint, submit, diff, reconcile and
// history read either through the same methods; the one difference is who decides a send: the file
// ledger's guard orders racing sends by its append order (guard.ts), the team ledger's database decides
// with unique constraints in the transaction that records "sending" (claim).

/** One member's approval of a content for an environment (approvals.ts: maker-checker). */
export interface Approval {
  role: string;
  host: string;
  /** ISO time. */
  at: string;
  /** Whether it is the asking member's own (current_user): it never counts for their send. */
  mine: boolean;
}

/** What claiming a send's content and rows in the team ledger came to. */
export type Claim =
  | { status: 'claimed'; record: SubmissionRecord }
  /** The same content is held at the target by a submission that may have created payments. */
  | { status: 'content-held'; holder: SubmissionRecord }
  /** Rows (their keys) are held at the target by submissions that may have created payments. */
  | { status: 'rows-held'; holders: Map<string, SubmissionRecord> };

export interface TeamStore {
  readonly kind: 'team';
  /** The store for people: "the team ledger postgres://ROLE@HOST:PORT/DB" (never the password). */
  readonly place: string;
  secret(create: boolean): Promise<LedgerSecret | undefined>;
  guardView(key: GuardKey, shardOnly?: boolean): Promise<LedgerReading>;
  recordsOfRows(keys: ReadonlySet<string>): Promise<Map<string, SubmissionRecord[]>>;
  /** The earlier sent rows with each fingerprint (card and schedule), every target and outcome (samePayer.ts). */
  recordsOfPayers(fingerprints: ReadonlySet<string>): Promise<Map<string, PayerRecord[]>>;
  batchRows(contentHash: string): Promise<BatchRowKeys | undefined>;
  recent(limit: number): Promise<SubmissionRecord[]>;
  newest(wanted: (r: SubmissionRecord) => boolean): Promise<SubmissionRecord | undefined>;
  /** One record by its id. */
  get(id: string): Promise<SubmissionRecord | undefined>;
  read(): Promise<LedgerReading>;
  /**
   * In one transaction: the submission as "sending", its content's claim and every row's claim at its
   * target, or nothing. `takeOver`: holders a person chose to send again ('all': --allow-resend).
   */
  claim(entry: NewSubmission, rows: BatchRowKeys | undefined, takeOver: 'all' | ReadonlySet<string>): Promise<Claim>;
  /** Records how the send ended; an outcome that created nothing frees its claims in the same transaction. */
  complete(
    id: string,
    completion: Completion,
    sensitive?: readonly string[],
    begun?: SubmissionRecord,
  ): Promise<SubmissionRecord | undefined>;
  /** Records this member's approval of a content for an environment (once per role). */
  approve(environment: string, contentHash: string, host: string): Promise<{ added: boolean; role: string }>;
  /** The approvals of a content for an environment (approvals.ts); `mine` marks the asking role's own. */
  approvals(environment: string, contentHash: string): Promise<Approval[]>;
  /** Every approval, keyed `environment\0contentHash` (history). */
  allApprovals(): Promise<Map<string, Approval[]>>;
  close(): Promise<void>;
}

/** Either store. */
export type LedgerStore = Ledger | TeamStore;

/** Where a store is, for a message: the file ledger's file, or the team ledger's URL without its password. */
export function storePlace(store: LedgerStore): string {
  return store.kind === 'team' ? store.place : `the submission ledger ${store.filePath}`;
}
