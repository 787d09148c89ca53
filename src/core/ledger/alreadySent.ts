import { atTarget, mayHaveCreated, type SubmissionRecord, type Target } from './records';
import type { RowKey } from './rowKeys';
import type { LedgerStore } from './store';

// Already sent: a row whose client-orderid was in a submission to the same environment and endpoint that
// may have created payments (the outcome table's word: accepted, unknown, unrecognised, still sending or
// interrupted, or any answer that named created payments). The one question the submit's row guard, the
// `already-sent` diagnostic of `paygate lint` and of the language server all ask.

export type RowRef = Pick<RowKey, 'key' | 'orderId' | 'line'>;

export interface AlreadySentRow extends RowRef {
  /** The newest such submission. */
  earlier: SubmissionRecord;
}

function newest(records: readonly SubmissionRecord[]): SubmissionRecord {
  let best = records[0];
  for (const r of records) if (r.time > best.time || (r.time === best.time && r.seq > best.seq)) best = r;
  return best;
}

/**
 * The rows of `rows` already sent to `target`, in the order given. `except`: submissions not to count
 * (the send's own record, earlier ones a person already chose to send again).
 */
export async function findAlreadySent<R extends RowRef>(
  ledger: Pick<LedgerStore, 'recordsOfRows'>,
  rows: readonly R[],
  target: Target,
  except?: ReadonlySet<string>,
): Promise<(AlreadySentRow & { ref: R })[]> {
  return alreadySentOf(await ledger.recordsOfRows(new Set(rows.map((r) => r.key))), rows, target, except);
}

/** findAlreadySent from what the ledger told of the rows' keys (Ledger.recordsOfRows). */
export function alreadySentOf<R extends RowRef>(
  byKey: ReadonlyMap<string, readonly SubmissionRecord[]>,
  rows: readonly R[],
  target: Target,
  except?: ReadonlySet<string>,
): (AlreadySentRow & { ref: R })[] {
  const out: (AlreadySentRow & { ref: R })[] = [];
  if (byKey.size === 0) return out;
  for (const row of rows) {
    const records = byKey.get(row.key)?.filter((r) => atTarget(r, target) && mayHaveCreated(r) && !except?.has(r.id));
    if (records && records.length > 0) out.push({ key: row.key, orderId: row.orderId, line: row.line, earlier: newest(records), ref: row });
  }
  return out;
}
