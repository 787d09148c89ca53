import * as path from 'node:path';
import type { Batch } from '../rules/batch';
import type { LedgerStore } from './store';
import { mayHaveCreated, type SubmissionRecord } from './records';
import { batchRowKeys, CVV, NOT_KEPT, valueHash, type BatchRowKeys, type RowKey } from './rowKeys';
import type { LedgerSecret } from './secret';

// `paygate diff` and the editor's Compare with Last Sent: a batch against another (the last send of a file
// of that name, a send by its serial-number, or another file), rows keyed by client-orderid: added,
// removed, changed (the names of the columns whose values differ; cvv2 is never compared) and how many are
// unchanged. A send is read back from the ledger's own row keys (rowKeys.ts), so no value, card number or
// CVV is kept to make the comparison: the two sides are compared by keyed hashes under the ledger's key.

export interface DiffRow {
  'client-orderid': string;
  line: number;
}

export interface ChangedRow extends DiffRow {
  columns: string[];
}

export interface BatchDiff {
  added: DiffRow[];
  removed: DiffRow[];
  changed: ChangedRow[];
  unchanged: number;
}

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

function valuesOf(keys: BatchRowKeys, row: RowKey): Map<string, string> {
  const hashes = row.values.split(' ');
  return new Map(keys.columns.map((c, i) => [c, hashes[i] ?? '']));
}

/** The columns whose values differ between two rows (a column one side lacks counts as empty there). */
function changedColumns(secret: LedgerSecret, now: BatchRowKeys, a: RowKey, before: BatchRowKeys, b: RowKey): string[] {
  const x = valuesOf(now, a);
  const y = valuesOf(before, b);
  const columns = [...now.columns, ...before.columns.filter((c) => !now.columns.includes(c))];
  const empty = (c: string) => valueHash(secret, c, '');
  return columns.filter((c) => c !== CVV && x.get(c) !== NOT_KEPT && (x.get(c) ?? empty(c)) !== (y.get(c) ?? empty(c)));
}

/** `now` against `before` (both made under `secret`). */
export function diffRowKeys(secret: LedgerSecret, now: BatchRowKeys, before: BatchRowKeys): BatchDiff {
  const a = rowsByKey(now.rows);
  const b = rowsByKey(before.rows);
  const diff: BatchDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [key, row] of a) {
    const old = b.get(key);
    if (!old) diff.added.push({ 'client-orderid': row.orderId, line: row.line });
    else {
      const columns = changedColumns(secret, now, row, before, old);
      if (columns.length > 0) diff.changed.push({ 'client-orderid': row.orderId, line: row.line, columns });
      else diff.unchanged++;
    }
  }
  for (const [key, row] of b) if (!a.has(key)) diff.removed.push({ 'client-orderid': row.orderId, line: row.line });
  return diff;
}

export function differs(d: BatchDiff): boolean {
  return d.added.length + d.removed.length + d.changed.length > 0;
}

/** What a batch is compared against in the ledger: the last send of its file name, or a serial-number. */
export type LedgerSide = { last: string } | { serial: string };

export type LedgerDiff =
  { ok: true; record: SubmissionRecord; sent: BatchRowKeys; now: BatchRowKeys; diff: BatchDiff } | { ok: false; message: string };

/** The newest submission of a file named `name` (any folder) that may have created payments. */
export function lastSendOf(name: string): (r: SubmissionRecord) => boolean {
  return (r) => path.basename(r.file.replace(/\\/g, '/')) === name && mayHaveCreated(r);
}

/** `batch` against a send the ledger recorded, read back from the ledger's row keys. */
export async function diffAgainstLedger(ledger: LedgerStore, batch: Batch, side: LedgerSide): Promise<LedgerDiff> {
  const record =
    'last' in side ? await ledger.newest(lastSendOf(side.last)) : await ledger.newest((r) => r.serialNumbers.includes(side.serial));
  const what = 'last' in side ? `no send of a file named ${side.last}` : `no submission with serial-number ${side.serial}`;
  const place = ledger.kind === 'team' ? ledger.place : `the submission ledger ${ledger.directory}`;
  if (!record) return { ok: false, message: `${place} records ${what}` };
  const secret = await ledger.secret(false);
  const sent = secret && (await ledger.batchRows(record.contentHash));
  if (!secret || !sent)
    return { ok: false, message: `the submission ledger keeps no rows of the send of ${record.time} (it was sent before rows were kept)` };
  const now = batchRowKeys(batch, secret);
  return { ok: true, record, sent, now, diff: diffRowKeys(secret, now, sent) };
}
