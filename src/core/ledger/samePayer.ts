import { atTarget, mayHaveCreated, type SubmissionRecord, type Target } from './records';
import { gatewayOrderId } from '../orderId';
import type { Batch } from '../rules/batch';
import { fingerprintOf, fingerprintOfText, orderKey, ORDER_ID, type BatchRowKeys, type PayerCellsAt, type RowKey } from './rowKeys';
import type { LedgerSecret } from './secret';

// The same payer under another id: a row whose card and schedule (its fingerprint: rowKeys.ts, a keyed
// HMAC of the card number with the card type, currency, amounts and schedule) were already sent to the same
// target under another client-orderid, in a submission that may have created payments. To the gateway
// `GYM-0001-RENEW`, `gym-0001` or a look-alike letter are other ids, so the already-sent guard lets them
// through and the same customer is charged twice on the same card. The one question the `same-payer`
// diagnostic (paygate lint, the language server) and the submit's guard ask, answered by either store from
// the sent rows' records (the file ledger through its index, a cache of those records; the team ledger
// from its batch rows).

/** An earlier sent row with a given fingerprint, and a submission that held it. */
export interface PayerRecord {
  /** The earlier row's key as the gateway reads its id (an older version's raw key translated). */
  key: string;
  /** The earlier row's client-orderid, masked as the ledger keeps it. */
  orderId: string;
  record: SubmissionRecord;
}

/** What the lookup needs of a row of the batch being checked. */
export type PayerRef = Pick<RowKey, 'key' | 'fingerprint'>;

export interface SamePayerRow<R extends PayerRef = PayerRef> {
  ref: R;
  /** The earlier id (masked), under which the same card and schedule went to the target. */
  earlierOrderId: string;
  /** The newest submission that held it. */
  earlier: SubmissionRecord;
}

function newer(a: PayerRecord, b: PayerRecord): boolean {
  return a.record.time > b.record.time || (a.record.time === b.record.time && a.record.seq > b.record.seq);
}

/**
 * The rows of `rows` whose fingerprint was sent to `target` under another client-orderid, in the order
 * given, each with the newest such earlier row. `except`: submissions not to count (the send's own, those a
 * person chose to send again).
 */
export async function findSamePayers<R extends PayerRef>(
  ledger: { recordsOfPayers(fingerprints: ReadonlySet<string>): Promise<Map<string, PayerRecord[]>> },
  rows: readonly R[],
  target: Target,
  except?: ReadonlySet<string>,
): Promise<SamePayerRow<R>[]> {
  if (rows.length === 0) return [];
  return samePayersOf(await ledger.recordsOfPayers(new Set(rows.map((r) => r.fingerprint))), rows, target, except);
}

/** findSamePayers from what the store told of the fingerprints (recordsOfPayers). */
export function samePayersOf<R extends PayerRef>(
  byFingerprint: ReadonlyMap<string, readonly PayerRecord[]>,
  rows: readonly R[],
  target: Target,
  except?: ReadonlySet<string>,
): SamePayerRow<R>[] {
  const out: SamePayerRow<R>[] = [];
  if (byFingerprint.size === 0) return out;
  for (const row of rows) {
    let best: PayerRecord | undefined;
    for (const p of byFingerprint.get(row.fingerprint) ?? []) {
      if (p.key === row.key || except?.has(p.record.id) || !atTarget(p.record, target) || !mayHaveCreated(p.record)) continue;
      if (!best || newer(p, best)) best = p;
    }
    if (best) out.push({ ref: row, earlierOrderId: best.orderId, earlier: best.record });
  }
  return out;
}

/** The index key of a fingerprint (the row index keys 24 hex digits): its payer entries sit beside the rows'. */
export function payerKey(fingerprint: string): string {
  return fingerprint.slice(0, 24);
}

/**
 * A batch's rows as the index keys them, with one more entry per distinct fingerprint under its payer key
 * (the row's other fields kept), so a lookup by card and schedule reads the same few shards as one by id.
 * Fingerprints are keyed HMACs and row keys keyed hashes of another text: none is mistaken for another.
 */
export function withPayerKeys(rows: BatchRowKeys): BatchRowKeys {
  const seen = new Set<string>();
  const extra: RowKey[] = [];
  for (const r of rows.rows) {
    const key = payerKey(r.fingerprint);
    if (!/^[0-9a-f]{24}$/.test(key) || seen.has(key)) continue;
    seen.add(key);
    extra.push({ ...r, key });
  }
  return { columns: rows.columns, rows: [...rows.rows, ...extra] };
}

/** A row of a batch being checked, by its id's key and its fingerprint, with where its client-orderid cell is. */
export interface PayerRefAt extends PayerRef {
  /** Offsets of the client-orderid field (its quotes included). */
  start: number;
  end: number;
}

/**
 * Every trusted row with a client-orderid, for the same-payer lookup of a batch not yet sent (lint), in one
 * pass over the rows. `keyAt`: the row keys already made (by the offset of their client-orderid cell, asked
 * in the rows' order), so none is hashed twice; `skip`: the offsets of rows already told (already-sent),
 * neither keyed nor fingerprinted.
 */
export function payerRefs(
  batch: Batch,
  secret: LedgerSecret,
  keyAt?: (start: number) => string | undefined,
  skip?: ReadonlySet<number>,
): PayerRefAt[] {
  const idColumn = batch.columnIndex.get(ORDER_ID);
  const out: PayerRefAt[] = [];
  if (idColumn === undefined) return out;
  const fingerprintRow = fingerprintOf(secret, batch.columnIndex);
  for (const row of batch.rows) {
    if (!row.trusted) continue;
    const values = row.record.values;
    const id = values[idColumn];
    if (id === undefined || gatewayOrderId(id) === '') continue;
    const start = row.record.fieldStart(idColumn);
    if (skip?.has(start)) continue;
    out.push({
      key: keyAt?.(start) ?? orderKey(secret, id),
      fingerprint: fingerprintRow(values),
      start,
      end: row.record.fieldEnd(idColumn),
    });
  }
  return out;
}

/**
 * payerRefs from the rows lint's own pass kept (ledgerLint/lintedRows.ts: each trusted row's id cell and its
 * fingerprint's text), so the batch's rows are not read a second time: the same rows, keys and fingerprints.
 */
export function payerRefsOf(
  rows: readonly PayerCellsAt[],
  secret: LedgerSecret,
  keyAt?: (start: number) => string | undefined,
  skip?: ReadonlySet<number>,
): PayerRefAt[] {
  const out: PayerRefAt[] = [];
  for (const row of rows) {
    if (skip?.has(row.start)) continue;
    out.push({
      key: keyAt?.(row.start) ?? orderKey(secret, row.orderId),
      fingerprint: fingerprintOfText(secret, row.text),
      start: row.start,
      end: row.end,
    });
  }
  return out;
}
