import * as path from 'node:path';
import type { Batch } from '../rules/batch';
import type { LedgerStore } from './store';
import { mayHaveCreated, type SubmissionRecord } from './records';
import { batchRowKeys, type BatchRowKeys, type RowKey } from './rowKeys';
import type { LedgerSecret } from './secret';
import type { BatchDiff } from './diffShape';
import { diffAgainstSend } from './sentDiff';
import { SentTable } from './sentTable';

// `paygate diff` and the editor's Compare with Last Sent: a batch against another (the last send of a file
// of that name, a send by its serial-number, or another file), rows keyed by client-orderid: added,
// removed, changed (the names of the columns whose values differ; cvv2 is never compared) and how many are
// unchanged. A send is read back from the ledger's own row keys (rowKeys.ts), so no value, card number or
// CVV is kept to make the comparison: the two sides are compared by keyed hashes under the ledger's key.

export * from './diffShape';

/** A row's key made unique within its batch: a client-orderid used twice is matched in order of use. */
export function rowsByKey(rows: readonly RowKey[]): Map<string, RowKey> {
  const seen = new Map<string, number>();
  const out = new Map<string, RowKey>();
  for (const r of rows) {
    const n = seen.get(r.key) ?? 0;
    seen.set(r.key, n + 1);
    out.set(n === 0 ? r.key : `${r.key}#${n}`, r);
  }
  return out;
}

/** What a batch is compared against in the ledger: the last send of its file name, or a serial-number. */
export type LedgerSide = { last: string } | { serial: string };

export type LedgerDiff =
  { ok: true; record: SubmissionRecord; sent: BatchRowKeys; now: BatchRowKeys; diff: BatchDiff } | { ok: false; message: string };

/** The newest submission of a file named `name` (any folder) that may have created payments. */
export function lastSendOf(name: string): (r: SubmissionRecord) => boolean {
  return (r) => path.basename(r.file.replace(/\\/g, '/')) === name && mayHaveCreated(r);
}

/** The send the ledger recorded (the last of a file name, or by serial-number), with the ledger's key. */
async function sendOf(
  ledger: LedgerStore,
  side: LedgerSide,
): Promise<{ ok: true; record: SubmissionRecord; secret: LedgerSecret | undefined } | { ok: false; message: string }> {
  const record =
    'last' in side ? await ledger.newest(lastSendOf(side.last)) : await ledger.newest((r) => r.serialNumbers.includes(side.serial));
  const what = 'last' in side ? `no send of a file named ${side.last}` : `no submission with serial-number ${side.serial}`;
  const place = ledger.kind === 'team' ? ledger.place : `the submission ledger ${ledger.directory}`;
  if (!record) return { ok: false, message: `${place} records ${what}` };
  return { ok: true, record, secret: await ledger.secret(false) };
}

const keptNone = (record: SubmissionRecord) => ({
  ok: false as const,
  message: `the submission ledger keeps no rows of the send of ${record.time} (it was sent before rows were kept)`,
});

/**
 * The send the ledger recorded, read back as its row keys in a compact table (sentTable.ts: the file
 * ledger's read byte by byte, the team ledger's made from its rows), for `paygate diff`.
 */
export async function sendRowsOf(
  ledger: LedgerStore,
  side: LedgerSide,
): Promise<{ ok: true; record: SubmissionRecord; sent: SentTable; secret: LedgerSecret } | { ok: false; message: string }> {
  const found = await sendOf(ledger, side);
  if (!found.ok) return found;
  const { record, secret } = found;
  const hash = record.contentHash;
  const sent =
    secret && (ledger.kind === 'team' ? await ledger.batchRows(hash).then((r) => r && SentTable.of(r)) : await ledger.rows.sentTable(hash));
  return secret && sent ? { ok: true, record, sent, secret } : keptNone(record);
}

/**
 * `batch` against a send the ledger recorded, with both sides' row keys (the editor lists them side by
 * side). The diff is walked as `paygate diff` walks it (sentDiff.ts), which keeps no row keys of `batch`.
 */
export async function diffAgainstLedger(ledger: LedgerStore, batch: Batch, side: LedgerSide): Promise<LedgerDiff> {
  const found = await sendOf(ledger, side);
  if (!found.ok) return found;
  const { record, secret } = found;
  const sent = secret && (await ledger.batchRows(record.contentHash));
  if (!secret || !sent) return keptNone(record);
  return { ok: true, record, sent, now: batchRowKeys(batch, secret), diff: diffAgainstSend(secret, sent, batch) };
}
