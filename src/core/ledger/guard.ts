import type { Ledger } from './ledger';
import {
  mayHaveCreated,
  sameTarget,
  type Completion,
  type DamageMark,
  type GuardKey,
  type NewSubmission,
  type SubmissionRecord,
} from './records';

// One create, sent at most once, as every face does it: refuse content already in flight in this process,
// refuse (or ask about) content the ledger says may already be at the target, record "sending" on disk,
// check no other process recorded the same send first, send, record how it ended.
// Damage errs on "may have been sent": a batch whose hash was read in a damaged line is held back like a
// possibly sent one, and damage that names no batch holds back every batch until an explicit resend
// acknowledges it.

/** What holds a batch back: an earlier record, or damage that may have hidden one. */
export type ResendBlocker = { record: SubmissionRecord } | { damage: DamageMark };

export interface GuardedSendOptions<T> {
  ledger: Ledger;
  entry: NewSubmission;
  /** Send whatever the ledger says (the CLI's --allow-resend). Earlier records are then acknowledged. */
  allowResend?: boolean;
  /** Asked when the ledger says the content may be at the target; true sends anyway. Absent: refuse. */
  confirmResend?: (earlier: ResendBlocker) => Promise<boolean>;
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
  | { status: 'not-confirmed' }
  /** Another process recorded the same send first: this one withdrew without sending. */
  | { status: 'raced'; earlier: SubmissionRecord }
  | { status: 'sent'; record: SubmissionRecord; outcome: T; completed?: SubmissionRecord; recordError?: string };

const inFlight = new Set<string>();

function flightKey(ledger: Ledger, k: GuardKey): string {
  return JSON.stringify([ledger.directory, k.contentHash, k.environment, k.endpointId, k.localStateDir ?? null]);
}

export function guardKey(entry: NewSubmission): GuardKey {
  const key: GuardKey = { contentHash: entry.contentHash, environment: entry.environment, endpointId: entry.endpointId };
  if (entry.localGateway) key.localStateDir = entry.localGateway.stateDir;
  return key;
}

/** Ledger errors (a full disk, no permission, a short write, fsync) are thrown before anything is sent. */
export async function guardedSend<T>(o: GuardedSendOptions<T>): Promise<GuardedSendResult<T>> {
  const key = guardKey(o.entry);
  const flight = flightKey(o.ledger, key);
  // Refused at once, before any question: the same content is on its way from this process.
  if (inFlight.has(flight)) return { status: 'in-flight' };
  inFlight.add(flight);
  try {
    const reading = await o.ledger.guardView(key);
    const acknowledged = new Set<string>();
    const allowed = async (b: ResendBlocker) => o.allowResend === true || (o.confirmResend !== undefined && (await o.confirmResend(b)));
    // Damage first: the record it may have hidden cannot be shown, only the damage.
    const unattributed = reading.damages.filter((d) => d.unidentified > 0 && !reading.acknowledged.has(d.id));
    const mine = reading.damages.find((d) => d.contentHashes.includes(key.contentHash));
    const damage = mine ?? unattributed[unattributed.length - 1];
    if (damage && !(await allowed({ damage }))) return { status: 'damaged', damage, found: reading.damage?.id === damage.id };
    const earlier = reading.records.find((r) => sameTarget(r, key) && mayHaveCreated(r));
    if (earlier) {
      if (!(await allowed({ record: earlier }))) return { status: 'duplicate', earlier };
      for (const r of reading.records) acknowledged.add(r.id);
    }
    if (o.confirmSend && !(await o.confirmSend())) return { status: 'not-confirmed' };

    if (damage) await o.ledger.acknowledge(unattributed.map((d) => d.id));
    const record = await o.ledger.begin(o.entry);
    // Two processes may pass the guard at the same moment: append order decides, the first one sends.
    // Every process reads that order from the same place (the content's index shard, which every writer
    // appends to whether or not the index was complete), so they all agree on the first.
    const records = (await o.ledger.guardView(key, true)).records;
    const own = records.find((r) => r.id === record.id);
    const first =
      own &&
      records.find((r) => r.id !== record.id && !acknowledged.has(r.id) && r.seq < own.seq && sameTarget(r, key) && mayHaveCreated(r));
    if (first) {
      await o.ledger.complete(
        record.id,
        { outcome: 'withdrawn', message: 'Not sent: the same content was being sent by another process or window.' },
        [],
        record,
      );
      return { status: 'raced', earlier: first };
    }

    const outcome = await o.send();
    try {
      const completed = await o.ledger.complete(record.id, o.completion(outcome), o.sensitive, record);
      return { status: 'sent', record, outcome, ...(completed ? { completed } : {}) };
    } catch (err) {
      // The answer could not be recorded: the record stays "sending", which the guard treats as possibly sent.
      return { status: 'sent', record, outcome, recordError: err instanceof Error ? err.message : String(err) };
    }
  } finally {
    inFlight.delete(flight);
  }
}
