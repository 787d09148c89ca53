import { batchRowKeys, rowsByKey, type BatchRowKeys, type LedgerStore, type RowKey, type SubmissionRecord } from '../ledger';
import type { LedgerSecret } from '../ledger/secret';
import type { Batch } from '../rules/batch';
import { acceptedSendOf, readSentBatch, sentOnOf, stillAsSent, toOtherLocalGateway } from './batches';
import type { BatchRowInput } from './types';

// Which rows of a batch file were sent, and when, row by row. The content hash names a send only while the
// file holds its very bytes, but merchants edit files after a send: they empty cvv2 (cvv-after-send asks
// them to), re-export the rows in another order, fix a description, add next month's customers. The
// reconciliation needs each row's charge schedule and the day it started, so a row still is a sent row when
// the send held its client-orderid with the same fingerprint: the same card and schedule (rowKeys.ts; a
// description or cvv2 is no part of it). A row added since was not sent; a row whose card or schedule
// changed is not what was sent; both are left out and named. The ledger's row keys say all this without
// keeping a value.

export type SentRowsLedger = Pick<LedgerStore, 'secret' | 'batchRows' | 'recordsOfRows' | 'guardView'>;

/** How many sends holding a batch's rows are read to date them, newest first. */
const MAX_SENDS = 50;

/** Where a batch was sent: the environment, and for `local` the local gateway's state directory. */
export interface SentTarget {
  environment: string;
  localStateDir?: string;
}

/** How a file's rows stand against one send: the lines still as sent, and the rows that are not (added, changed) or gone (removed). */
export interface RowsAgainstSend {
  sameLines: Set<number>;
  added: RowKey[];
  changed: RowKey[];
  /** The send's rows the file does not hold, by their key as rowsByKey gives it. */
  removed: Map<string, RowKey>;
}

export function compareRows(now: BatchRowKeys, sent: BatchRowKeys): RowsAgainstSend {
  // Keyed as paygate diff keys them (a client-orderid used twice is matched in order of use).
  const a = rowsByKey(now.rows);
  const b = rowsByKey(sent.rows);
  const out: RowsAgainstSend = { sameLines: new Set(), added: [], changed: [], removed: new Map() };
  for (const [key, row] of a) {
    const old = b.get(key);
    if (!old) out.added.push(row);
    else if (old.fingerprint !== row.fingerprint) out.changed.push(row);
    else out.sameLines.add(row.line);
  }
  for (const [key, row] of b) if (!a.has(key)) out.removed.set(key, row);
  return out;
}

/** What reconciliation takes of one accepted send's file, as the file holds it now. */
export type SentFile =
  | { kind: 'as-sent'; rows: BatchRowInput[] }
  | { kind: 'rows'; rows: BatchRowInput[]; against: RowsAgainstSend; sent: BatchRowKeys; secret: LedgerSecret }
  | { kind: 'changed' };

/**
 * The rows of a send's file that still are the send's: every row when the file holds the content sent;
 * else, when the ledger keeps the send's row keys, those whose card and schedule are unchanged (maybe none:
 * the send's rows may have moved to another file); else none.
 */
export async function sentFile(ledger: SentRowsLedger, text: string, record: SubmissionRecord): Promise<SentFile> {
  const sentOn = sentOnOf(record);
  const read = readSentBatch(record.file, text, sentOn);
  if (stillAsSent(text, record, read.contentHash)) return { kind: 'as-sent', rows: read.rows };
  try {
    const secret = await ledger.secret(false);
    const sent = secret && (await ledger.batchRows(record.contentHash));
    if (!secret || !sent) return { kind: 'changed' };
    const against = compareRows(batchRowKeys(read.batch, secret), sent);
    const rows = read.rows.filter((r) => against.sameLines.has(r.line));
    const whole = rows.length > 0 && against.added.length + against.changed.length + against.removed.size === 0;
    return whole ? { kind: 'as-sent', rows } : { kind: 'rows', rows, against, sent, secret };
  } catch {
    return { kind: 'changed' };
  }
}

/** The accepted sends to the target that held any of these rows, newest first (the row index, not the whole ledger). */
async function sendsHolding(ledger: SentRowsLedger, keys: BatchRowKeys, to: SentTarget): Promise<SubmissionRecord[]> {
  const held = await ledger.recordsOfRows(new Set(keys.rows.map((r) => r.key)));
  const sends = new Map<string, SubmissionRecord>();
  for (const records of held.values())
    for (const r of records)
      if (r.outcome === 'accepted' && r.environment === to.environment && !toOtherLocalGateway(r, to.localStateDir)) sends.set(r.id, r);
  // The newest few: a row sent in many batches must not make one reconciliation read every one of them.
  return [...sends.values()].sort((a, b) => b.seq - a.seq).slice(0, MAX_SENDS);
}

/** Each row's line mapped to the day of the newest accepted send that held it with the same card and schedule. */
async function sendDays(
  ledger: SentRowsLedger,
  secret: LedgerSecret,
  batch: Batch,
  to: SentTarget,
): Promise<Map<number, SubmissionRecord>> {
  const keys = batchRowKeys(batch, secret);
  const out = new Map<number, SubmissionRecord>();
  for (const send of await sendsHolding(ledger, keys, to)) {
    const sent = await ledger.batchRows(send.contentHash);
    if (!sent) continue;
    for (const line of compareRows(keys, sent).sameLines) if (!out.has(line)) out.set(line, send);
  }
  return out;
}

/**
 * A named batch's rows, each dated by the send that holds it: the newest accepted send of this very content
 * to the target, or else, row by row, the newest that held the row with the same card and schedule. A row
 * no send holds keeps no date (it starts on the reconciliation's today); so does every row when the
 * ledger cannot be read (it then says nothing about the batch).
 */
export async function datedRows(ledger: SentRowsLedger, name: string, text: string, to: SentTarget): Promise<BatchRowInput[]> {
  const read = readSentBatch(name, text);
  try {
    const records = (await ledger.guardView({ contentHash: read.contentHash, environment: to.environment, endpointId: '' })).records;
    const byContent = acceptedSendOf(records, read.contentHash, to.environment, to.localStateDir);
    if (byContent) return read.rows.map((r) => ({ ...r, sentOn: sentOnOf(byContent) }));
    const secret = await ledger.secret(false);
    if (!secret) return read.rows;
    const days = await sendDays(ledger, secret, read.batch, to);
    return read.rows.map((r) => {
      const send = days.get(r.line);
      return send ? { ...r, sentOn: sentOnOf(send) } : r;
    });
  } catch {
    return read.rows;
  }
}
