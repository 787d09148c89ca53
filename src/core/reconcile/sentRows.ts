import { batchRowKeys, rowsByKey, type BatchRowKeys, type LedgerStore, type SubmissionRecord } from '../ledger';
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

type SentRowsLedger = Pick<LedgerStore, 'secret' | 'batchRows' | 'recordsOfRows' | 'guardView'>;

/** How many sends holding a batch's rows are read to date them, newest first. */
const MAX_SENDS = 50;

/** Where a batch was sent: the environment, and for `local` the local gateway's state directory. */
export interface SentTarget {
  environment: string;
  localStateDir?: string;
}

/** How a file's rows stand against one send: the lines still as sent, and the client-orderids (masked) that are not. */
export interface RowsAgainstSend {
  sameLines: Set<number>;
  added: string[];
  changed: string[];
  removed: string[];
}

function compareRows(now: BatchRowKeys, sent: BatchRowKeys): RowsAgainstSend {
  // Keyed as paygate diff keys them (a client-orderid used twice is matched in order of use).
  const a = rowsByKey(now.rows);
  const b = rowsByKey(sent.rows);
  const out: RowsAgainstSend = { sameLines: new Set(), added: [], changed: [], removed: [] };
  for (const [key, row] of a) {
    const old = b.get(key);
    if (!old) out.added.push(row.orderId);
    else if (old.fingerprint !== row.fingerprint) out.changed.push(row.orderId);
    else out.sameLines.add(row.line);
  }
  for (const [key, row] of b) if (!a.has(key)) out.removed.push(row.orderId);
  return out;
}

/** What reconciliation takes of one accepted send's file, as the file holds it now. */
export type SentFile =
  { kind: 'as-sent'; rows: BatchRowInput[] } | { kind: 'rows'; rows: BatchRowInput[]; against: RowsAgainstSend } | { kind: 'changed' };

/**
 * The rows of a send's file that still are the send's: every row when the file holds the content sent;
 * else, when the ledger keeps the send's row keys, those whose card and schedule are unchanged; else none.
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
    if (rows.length === 0) return { kind: 'changed' };
    const whole = against.added.length + against.changed.length + against.removed.length === 0;
    return whole ? { kind: 'as-sent', rows } : { kind: 'rows', rows, against };
  } catch {
    return { kind: 'changed' };
  }
}

/** In words: the rows a send's file holds that are not the send's, and the send's rows it lost. */
export function rowsLeftOut(a: RowsAgainstSend): string {
  const list = (ids: string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
  const parts: string[] = [];
  if (a.added.length) parts.push(`left out ${a.added.length} row(s) added since (${list(a.added)})`);
  if (a.changed.length) parts.push(`left out ${a.changed.length} row(s) whose card or schedule changed since (${list(a.changed)})`);
  if (a.removed.length) parts.push(`${a.removed.length} sent row(s) no longer in the file, their charges unmatched (${list(a.removed)})`);
  return `changed since it was sent: ${a.sameLines.size} row(s) still as sent are reconciled; ${parts.join('; ')}`;
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

/** A ledger send's file as reconciliation takes it, or why it takes none or only some of its rows. */
export interface LedgerFile {
  record: SubmissionRecord;
  rows: BatchRowInput[];
  /** Set when rows were left out or the file was skipped: in words, without the file's name. */
  note?: string;
}

/**
 * The files of the ledger's accepted sends (acceptedSubmissions: one per file and content), each as it is
 * read now (`read` throws when it cannot be). Newest send first, so a row a file holds once is reconciled
 * once even when two sends of that file held it (its doubled charges are then `extra`, as they should be).
 */
export async function ledgerFiles(
  ledger: SentRowsLedger,
  records: readonly SubmissionRecord[],
  read: (file: string) => Promise<string>,
): Promise<LedgerFile[]> {
  const taken = new Set<string>();
  const out: LedgerFile[] = [];
  for (const record of [...records].sort((a, b) => b.seq - a.seq)) {
    let text: string;
    try {
      text = await read(record.file);
    } catch {
      out.push({ record, rows: [], note: 'cannot be read any more; skipped' });
      continue;
    }
    const found = await sentFile(ledger, text, record);
    if (found.kind === 'changed') {
      out.push({ record, rows: [], note: 'changed since it was sent; skipped' });
      continue;
    }
    // Rows a newer send of the file holds too are that send's (already taken).
    const rows = found.rows.filter((r) => !taken.has(`${r.file}\0${r.line}`));
    for (const r of rows) taken.add(`${r.file}\0${r.line}`);
    if (rows.length > 0) out.push({ record, rows, ...(found.kind === 'rows' ? { note: rowsLeftOut(found.against) } : {}) });
  }
  return out.reverse();
}
