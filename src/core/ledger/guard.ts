import type { Batch } from '../rules/batch';
import { alreadySentOf, findAlreadySent, type AlreadySentRow } from './alreadySent';
import type { Ledger } from './ledger';
import { batchRowKeys, type BatchRowKeys, type RowKey } from './rowKeys';
import { findSamePayers, type SamePayerRow } from './samePayer';
import type { LedgerStore, TeamStore } from './store';
import {
  keyHashes,
  mayHaveCreated,
  realDir,
  sameTarget,
  targetKey,
  targetOf,
  type Completion,
  type DamageMark,
  type GuardKey,
  type NewSubmission,
  type SubmissionRecord,
} from './records';
import { errorMessage } from '../errorMessage';

// One create, sent at most once, as every face does it: refuse content already in flight in this process,
// refuse (or ask about) content the ledger says may already be at the target (the file-level guard), then
// rows already sent there in other batches (the row-level guard: an edited, reordered or extended file),
// record the rows' keys and "sending" on disk, check no other process recorded the same send first, send,
// record how it ended. Both faces call this one function with their own questions; what they decide is
// here, how they ask is theirs.
// Damage errs on "may have been sent": a batch whose hash was read in a damaged line is held back like a
// possibly sent one, and damage that names no batch holds back every batch until an explicit resend
// acknowledges it.

/** What holds a batch back: an earlier record, or damage that may have hidden one. */
export type ResendBlocker = { record: SubmissionRecord } | { damage: DamageMark };

export interface GuardedSendOptions<T> {
  /** Either store (store.ts): the file ledger's guard below, or the team ledger's database deciding (claim). */
  ledger: LedgerStore;
  entry: NewSubmission;
  /** Hashes versions up to 0.1 may have recorded for this same content (PreparedSubmission.legacyHashes). */
  legacyHashes?: readonly string[];
  /** Send whatever the ledger says (the CLI's --allow-resend). Earlier records are then acknowledged. */
  allowResend?: boolean;
  /**
   * A run of parts: a content the ledger records as accepted at the target is never sent again, whatever
   * `allowResend` says (told as a duplicate, which the run skips).
   */
  keepAccepted?: boolean;
  /** Asked when the ledger says the content may be at the target; true sends anyway. Absent: refuse. */
  confirmResend?: (earlier: ResendBlocker) => Promise<boolean>;
  /**
   * The batch being sent: its rows' keys are checked against earlier sends and recorded before this one.
   * Absent: the file-level guard only (and no row keys recorded).
   */
  batch?: Batch;
  /**
   * Asked when rows of the batch were in earlier submissions to the target that may have created payments
   * (every one, in file order); true sends anyway. Absent: refuse. Not asked after a file-level resend was
   * allowed (the same content: its rows are the ones just allowed).
   */
  confirmRowResend?: (rows: readonly AlreadySentRow[]) => Promise<boolean>;
  /** Send rows whose card and schedule went to the target under another id (the CLI's --allow-same-payer). */
  allowSamePayer?: boolean;
  /**
   * Asked when rows of the batch have the card and schedule of rows sent to the target under another
   * client-orderid (samePayer.ts; every one, in file order); true sends anyway. Absent: refuse.
   */
  confirmSamePayer?: (rows: readonly SamePayerRow<RowKey>[]) => Promise<boolean>;
  /** Asked after the guard, before anything is recorded (a production confirmation); false: not sent. */
  confirmSend?: () => Promise<boolean>;
  send: () => Promise<T>;
  completion: (outcome: T) => Completion;
  /** The batch's card numbers and CVVs, scrubbed from every text recorded. */
  sensitive?: readonly string[];
}

export type GuardedSendResult<T> =
  | { status: 'in-flight' }
  /** Damage may hide an earlier send of this batch (or of any batch): not sent. `found`: found by this read. */
  | { status: 'damaged'; damage: DamageMark; found: boolean }
  | { status: 'duplicate'; earlier: SubmissionRecord }
  /** Rows of the batch were already sent to the target (every one, in file order): not sent. */
  | { status: 'already-sent'; rows: AlreadySentRow[] }
  /** Rows of the batch have the card and schedule of rows sent to the target under another id: not sent. */
  | { status: 'same-payer'; rows: SamePayerRow<RowKey>[] }
  | { status: 'not-confirmed' }
  /** Another process recorded the same send first: this one withdrew without sending. */
  | { status: 'raced'; earlier: SubmissionRecord }
  | { status: 'sent'; record: SubmissionRecord; outcome: T; completed?: SubmissionRecord; recordError?: string };

const inFlight = new Set<string>();

/**
 * The same send in this process: one ledger (a file ledger's directory by its real path: a link to it is
 * the same ledger), one content, one target (targetKey: a local gateway's state directory by its real path;
 * another environment by its create URL, so two names for one gateway are one).
 */
function flightKey(ledger: LedgerStore, k: GuardKey): string {
  return JSON.stringify([ledger.kind === 'team' ? ledger.place : realDir(ledger.directory), k.contentHash, targetKey(k)]);
}

export function guardKey(entry: NewSubmission, legacyHashes: readonly string[] = []): GuardKey {
  return { ...targetOf(entry), contentHash: entry.contentHash, legacyHashes };
}

/** Ledger errors (a full disk, no permission, a short write, fsync) are thrown before anything is sent. */
export async function guardedSend<T>(o: GuardedSendOptions<T>): Promise<GuardedSendResult<T>> {
  const key = guardKey(o.entry, o.legacyHashes);
  const flight = flightKey(o.ledger, key);
  // Refused at once, before any question: the same content is on its way from this process.
  if (inFlight.has(flight)) return { status: 'in-flight' };
  inFlight.add(flight);
  try {
    const checked = await checkBeforeSending(o, key);
    if ('status' in checked) return checked;
    if (o.confirmSend && !(await o.confirmSend())) return { status: 'not-confirmed' };

    let record: SubmissionRecord;
    if (o.ledger.kind === 'team') {
      const claimed = await claimInTeam(o.ledger, o, checked);
      if (!('record' in claimed)) return claimed;
      record = claimed.record;
    } else {
      const ledger = o.ledger;
      if (checked.damage) await ledger.acknowledge(checked.unattributed);
      // The rows' keys before the "sending" line: a send that is on its way is always found by its rows.
      if (checked.rows) await ledger.recordRows(o.entry.contentHash, checked.rows);
      record = await ledger.begin(o.entry);
      const first = await raceWinner({ ...o, ledger }, key, record, checked);
      if (first) {
        await ledger.complete(
          record.id,
          { outcome: 'withdrawn', message: 'Not sent: the same content or rows were being sent by another process or window.' },
          [],
          record,
        );
        return { status: 'raced', earlier: first };
      }
    }

    const outcome = await o.send();
    let result: GuardedSendResult<T>;
    try {
      const completed = await o.ledger.complete(record.id, o.completion(outcome), o.sensitive, record);
      result = { status: 'sent', record, outcome, ...(completed ? { completed } : {}) };
    } catch (err) {
      // The answer could not be recorded: the record stays "sending", which the guard treats as possibly sent.
      return { status: 'sent', record, outcome, recordError: errorMessage(err) };
    }
    // Housekeeping after the answer is recorded; a failure leaves the entries pending, where they are read too.
    if (o.ledger.kind === 'file') await o.ledger.tidyRows().catch(() => undefined);
    return result;
  } finally {
    inFlight.delete(flight);
  }
}

interface Checked {
  /** Earlier records a person chose to send again (not counted by the race check). */
  acknowledged: Set<string>;
  damage?: DamageMark;
  unattributed: string[];
  rows?: BatchRowKeys;
  /** Whether the row-level guard asked (and was answered yes), so the race check counts rows too. */
  rowsChecked: boolean;
}

/** The file-level guard (damage, the same content), then the row-level one; a refusal, or what was allowed. */
async function checkBeforeSending<T>(o: GuardedSendOptions<T>, key: GuardKey): Promise<Checked | GuardedSendResult<T>> {
  const reading = await o.ledger.guardView(key);
  if (o.keepAccepted) {
    const accepted = reading.records.find((r) => sameTarget(r, key) && r.outcome === 'accepted');
    if (accepted) return { status: 'duplicate', earlier: accepted };
  }
  const acknowledged = new Set<string>();
  const allowed = async (b: ResendBlocker) => o.allowResend === true || (o.confirmResend !== undefined && (await o.confirmResend(b)));
  // Damage first: the record it may have hidden cannot be shown, only the damage.
  const unattributed = reading.damages.filter((d) => d.unidentified > 0 && !reading.acknowledged.has(d.id));
  const mine = reading.damages.find((d) => keyHashes(key).some((h) => d.contentHashes.includes(h)));
  const damage = mine ?? unattributed[unattributed.length - 1];
  if (damage && !(await allowed({ damage }))) return { status: 'damaged', damage, found: reading.damage?.id === damage.id };
  const earlier = reading.records.find((r) => sameTarget(r, key) && mayHaveCreated(r));
  if (earlier) {
    if (!(await allowed({ record: earlier }))) return { status: 'duplicate', earlier };
    for (const r of reading.records) acknowledged.add(r.id);
  }
  const checked: Checked = { acknowledged, unattributed: unattributed.map((d) => d.id), rowsChecked: false, ...(damage ? { damage } : {}) };
  if (!o.batch) return checked;
  checked.rows = batchRowKeys(o.batch, (await o.ledger.secret(true))!);
  // A resend of the same content, once allowed, is not asked about again row by row.
  const told = new Set<string>();
  if (!earlier && o.allowResend !== true) {
    const sent = await findAlreadySent(o.ledger, checked.rows.rows, key);
    checked.rowsChecked = true;
    if (sent.length > 0) {
      if (!(o.confirmRowResend && (await o.confirmRowResend(sent)))) return { status: 'already-sent', rows: sent };
      for (const row of sent) {
        acknowledged.add(row.earlier.id);
        told.add(row.key);
      }
    }
  }
  return (await samePayerRefusal(o, checked.rows, key, told, acknowledged)) ?? checked;
}

/**
 * The same payer under another id (samePayer.ts), after the resend guards: rows a person already chose to
 * send again under their own id, and submissions they chose to send again, are not asked about twice.
 */
async function samePayerRefusal<T>(
  o: GuardedSendOptions<T>,
  rows: BatchRowKeys,
  key: GuardKey,
  told: ReadonlySet<string>,
  acknowledged: ReadonlySet<string>,
): Promise<GuardedSendResult<T> | undefined> {
  if (o.allowSamePayer === true) return undefined;
  const found = await findSamePayers(
    o.ledger,
    rows.rows.filter((r) => !told.has(r.key)),
    key,
    acknowledged,
  );
  if (found.length === 0 || (o.confirmSamePayer && (await o.confirmSamePayer(found)))) return undefined;
  return { status: 'same-payer', rows: found };
}

/**
 * The team ledger decides: the submission, its content's claim and its rows' claims in one transaction.
 * A claim held by a submission the guard did not show (another member's send that committed meanwhile)
 * refuses this one: the same content is "raced", shared rows "already-sent", each naming the holder.
 */
async function claimInTeam<T>(
  ledger: TeamStore,
  o: GuardedSendOptions<T>,
  checked: Checked,
): Promise<{ record: SubmissionRecord } | GuardedSendResult<T>> {
  const claim = await ledger.claim(o.entry, checked.rows, o.allowResend === true ? 'all' : checked.acknowledged);
  if (claim.status === 'claimed') return { record: claim.record };
  if (claim.status === 'content-held') return { status: 'raced', earlier: claim.holder };
  const rows: AlreadySentRow[] = [];
  for (const r of checked.rows?.rows ?? []) {
    const earlier = claim.holders.get(r.key);
    if (earlier) rows.push({ key: r.key, orderId: r.orderId, line: r.line, earlier });
  }
  return { status: 'already-sent', rows };
}

/**
 * Two processes may pass the guard at the same moment. The same content: append order decides, the first
 * one sends; every process reads that order from the same place (the ledger's order, through the index's
 * sealed lines and the ledger's lines past them: ledgerIndex.ts), so they all agree on the first. Shared rows
 * of different contents have no common shard to order them by: a send that finds, after its own
 * "sending" line, another submission of one of its rows that it did not see before withdraws (both may;
 * neither sends twice). The earlier record that wins, or undefined.
 */
async function raceWinner<T>(
  o: GuardedSendOptions<T> & { ledger: Ledger },
  key: GuardKey,
  record: SubmissionRecord,
  checked: Checked,
): Promise<SubmissionRecord | undefined> {
  const records = (await o.ledger.guardView(key, true)).records;
  const own = records.find((r) => r.id === record.id);
  const first =
    own &&
    records.find(
      (r) => r.id !== record.id && !checked.acknowledged.has(r.id) && r.seq < own.seq && sameTarget(r, key) && mayHaveCreated(r),
    );
  if (first || !checked.rowsChecked || !checked.rows) return first;
  const except = new Set([...checked.acknowledged, record.id]);
  const contents = new Set(keyHashes(key));
  // Read-only, as the file-level check above: nothing is written between "sending" and the send.
  const held = await o.ledger.recordsOfRows(new Set(checked.rows.rows.map((r) => r.key)), false);
  const rows = alreadySentOf(held, checked.rows.rows, key, except);
  // A record of this very content is the file-level race's business (decided above by append order).
  return rows.find((row) => !contents.has(row.earlier.contentHash))?.earlier;
}
