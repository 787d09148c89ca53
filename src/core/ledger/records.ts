import { maskText } from '../output';
import { recordedFacts, type LedgerOutcomeName } from '../gateway/outcomes';
import type { LedgerFs } from './ledgerFs';

// What the submission ledger holds and how its lines fold into records. A record names a create by its
// content hash, environment and endpoint id; it holds no card number, CVV or secret (free texts are masked
// again here, whoever wrote them), so the ledger can be shown and copied as it is.

export type SubmissionState = 'sending' | 'done';

/** Which face sent it. */
export type LedgerFace = 'cli' | 'editor';

/**
 * Which local gateway a submission went to (environment `local`), so two local gateways are never taken
 * for one: its state directory (where its payments live, across its restarts), the run that answered,
 * and its simulated date when the batch was sent (a row without start-date starts on that day).
 */
export interface LocalGatewayRef {
  stateDir: string;
  /** The run's id ('' when a gateway of an older version answered, which names none). */
  startId: string;
  /** DD.MM.YYYY: the local gateway's (simulated) date just before the batch was sent. */
  today?: string;
}

export interface SubmissionRecord {
  id: string;
  /** ISO time the request was started. */
  time: string;
  face: LedgerFace;
  /** The process that sent it, so "still sending" can tell a live process from an interrupted one. */
  pid: number;
  host: string;
  environment: string;
  production: boolean;
  /** The endpoint id the payments were created under: with the environment, the guard's target. */
  endpointId: string;
  /** The create operation's full URL, for people (a local gateway's port changes; the guard ignores it). */
  endpoint: string;
  /** Set when it went to a local gateway (records of older versions lack it). */
  localGateway?: LocalGatewayRef;
  /** The submitted file (a path, or a URI for non-file documents). */
  file: string;
  rowCount: number;
  /** SHA-256 (hex) of the text as sent: CRLF record separators, no BOM. */
  contentHash: string;
  signatureMethod: string;
  state: SubmissionState;
  completedAt?: string;
  /** An outcome of the core's table, `withdrawn` when never sent (`cancelled` only in old records). */
  outcome?: LedgerOutcomeName;
  /** For unknown outcomes: timeout, connection-lost, truncated, cancelled, gateway-unavailable. */
  kind?: string;
  httpStatus?: number;
  message?: string;
  errorCode?: string;
  errorId?: string;
  recurringPaymentIds: string[];
  serialNumbers: string[];
  statuses: string[];
  /** Position of its first line in the ledger (append order): the earlier of two racing sends wins. */
  seq: number;
  /** The database role that recorded it (the team ledger's current_user: who the team's database vouches for). */
  role?: string;
}

export type NewSubmission = Omit<
  SubmissionRecord,
  'id' | 'time' | 'state' | 'recurringPaymentIds' | 'serialNumbers' | 'statuses' | 'seq' | 'role'
>;
export type Completion = Pick<SubmissionRecord, 'outcome'> &
  Partial<
    Pick<
      SubmissionRecord,
      'kind' | 'httpStatus' | 'message' | 'errorCode' | 'errorId' | 'recurringPaymentIds' | 'serialNumbers' | 'statuses'
    >
  >;

/**
 * Damage found in the ledger and moved aside, kept as a line of its own so the guard remembers it after
 * the file was repaired: a batch whose content hash was read in a damaged line may have been sent, and
 * damage nobody can attribute (`unidentified`) holds back every send until someone acknowledges it.
 */
export interface DamageMark {
  id: string;
  at: string;
  /** Where the damaged file was moved (kept whole). */
  movedTo: string;
  unreadableLines: number;
  keptLines: number;
  /** Content hashes read in the damaged lines: these batches may have been sent. */
  contentHashes: string[];
  /** Damaged lines that name no content hash and no readable record. */
  unidentified: number;
}

/** One line of the ledger file. `ledger: 1` is the format version and the mark of our own lines. */
export type LedgerLine =
  | { ledger: 1; op: 'begin'; id?: string; record: Omit<SubmissionRecord, 'seq'> }
  /** `contentHash` (written since the guard's index) names the record's index shard. */
  | { ledger: 1; op: 'complete'; id: string; contentHash?: string; completedAt: string; completion: Completion }
  | { ledger: 1; op: 'damage'; damage: DamageMark }
  /** Unidentified damage acknowledged by an explicit resend (--allow-resend, the editor's "Send Anyway"). */
  | { ledger: 1; op: 'ack'; ids: string[] };

/** Ids and serial numbers come back comma-separated when one request creates several payments. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Every free text masked; lists kept as lists of text. */
export function cleanCompletion(c: Completion, sensitive: readonly string[] = []): Completion {
  const out: Completion = { outcome: c.outcome };
  if (c.kind !== undefined) out.kind = c.kind;
  if (c.httpStatus !== undefined) out.httpStatus = c.httpStatus;
  if (c.message !== undefined) out.message = maskText(c.message, sensitive);
  if (c.errorCode !== undefined) out.errorCode = maskText(c.errorCode, sensitive);
  if (c.errorId !== undefined) out.errorId = maskText(c.errorId, sensitive);
  for (const key of ['recurringPaymentIds', 'serialNumbers', 'statuses'] as const) {
    if (c[key] !== undefined) out[key] = c[key]!.map((v) => maskText(String(v), sensitive));
  }
  return out;
}

function isRecord(v: unknown): v is Omit<SubmissionRecord, 'seq'> {
  const r = v as Partial<SubmissionRecord> | null;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    typeof r.time === 'string' &&
    typeof r.contentHash === 'string' &&
    typeof r.environment === 'string'
  );
}

/** A parsed ledger line, or undefined when the text is not one of ours. */
export function parseLine(text: string): LedgerLine | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const l = v as (Partial<LedgerLine> & { record?: unknown; id?: unknown; completion?: unknown }) | null;
  if (!l || typeof l !== 'object' || l.ledger !== 1) return undefined;
  if (l.op === 'begin' && isRecord(l.record)) return l as LedgerLine;
  if (l.op === 'complete' && typeof l.id === 'string' && l.completion && typeof l.completion === 'object') return l as LedgerLine;
  const d = (l as { damage?: Partial<DamageMark> }).damage;
  if (l.op === 'damage' && d && typeof d.id === 'string' && Array.isArray(d.contentHashes) && typeof d.unidentified === 'number')
    return l as LedgerLine;
  if (l.op === 'ack' && Array.isArray((l as { ids?: unknown }).ids)) return l as LedgerLine;
  return undefined;
}

/**
 * Folds lines (in append order) into records, newest first. A completion may come before its begin (lines
 * restored from a damaged file are appended after newer ones), so completions wait for their record.
 */
export function foldLines(lines: readonly LedgerLine[]): SubmissionRecord[] {
  const records = new Map<string, SubmissionRecord>();
  const completions = new Map<string, { completedAt: string; completion: Completion }>();
  lines.forEach((line, seq) => {
    if (line.op === 'begin') {
      const r = line.record;
      if (!records.has(r.id))
        records.set(r.id, {
          ...r,
          recurringPaymentIds: r.recurringPaymentIds ?? [],
          serialNumbers: r.serialNumbers ?? [],
          statuses: r.statuses ?? [],
          seq,
        });
    } else if (line.op === 'complete' && !completions.has(line.id)) {
      completions.set(line.id, { completedAt: line.completedAt, completion: line.completion });
    }
  });
  const out: SubmissionRecord[] = [];
  for (const r of records.values()) {
    const done = completions.get(r.id);
    out.push(
      done
        ? {
            ...r,
            ...done.completion,
            state: 'done',
            completedAt: done.completedAt,
            recurringPaymentIds: done.completion.recurringPaymentIds ?? r.recurringPaymentIds,
            serialNumbers: done.completion.serialNumbers ?? r.serialNumbers,
            statuses: done.completion.statuses ?? r.statuses,
          }
        : r,
    );
  }
  return out.sort((a, b) => {
    if (a.time < b.time) return 1;
    return a.time > b.time ? -1 : b.seq - a.seq;
  });
}

// Where a create went and how two are compared (the environment and endpoint, a local gateway's real
// path, another environment's create URL): target.ts.
export { atTarget, keyHashes, realDir, sameTarget, targetKey, targetOf, type GuardKey, type Target } from './target';

/**
 * Whether a record means the content may already be at the gateway: still sending (or interrupted while
 * sending), an outcome whose row in the outcome table says it may have created payments, anything this
 * version cannot read (a done record without an outcome, an outcome a newer version wrote: nobody here can
 * vouch for it), or any answer that named created payments (a batch declined in part).
 */
export function mayHaveCreated(r: Pick<SubmissionRecord, 'state' | 'outcome' | 'recurringPaymentIds'>): boolean {
  if (r.state === 'sending' || r.outcome === undefined || r.recurringPaymentIds.length > 0) return true;
  return recordedFacts(r.outcome)?.mayHaveCreated ?? true;
}

/** The damage marks of ledger lines, and which of them were acknowledged. */
export function marksOf(lines: readonly LedgerLine[]): { damages: DamageMark[]; acknowledged: Set<string> } {
  const damages: DamageMark[] = [];
  const acknowledged = new Set<string>();
  for (const l of lines) {
    if (l.op === 'damage') damages.push(l.damage);
    else if (l.op === 'ack') for (const id of l.ids) acknowledged.add(id);
  }
  return { damages, acknowledged };
}

/** Damage found by one read (and moved aside by it). */
export type Damage = DamageMark;

export interface LedgerReading {
  /** Newest first. */
  records: SubmissionRecord[];
  /** Set when this read found damage (and moved it aside). */
  damage?: Damage;
  /** Every damage the ledger remembers, and which of them were acknowledged. */
  damages: DamageMark[];
  acknowledged: Set<string>;
  /** Begin lines cut short by their own failing writer (it recorded the send as withdrawn). */
  tornLines: number;
}

export interface LedgerOptions {
  /** Size at which the ledger is archived and a new file started (default 64 MiB). */
  rotateBytes?: number;
  now?: () => Date;
  /** The file system (tests put a failing one here). */
  fs?: LedgerFs;
}
