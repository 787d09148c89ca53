import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { maskText } from '../../output';
import { mayHaveCreated, type NewSubmission, type SubmissionRecord } from '../records';
import type { BatchRowKeys } from '../rowKeys';
import type { Claim } from '../store';
import { targetKey, targetOf } from '../target';
import { COLUMNS, recordOf, type Row } from './rows';

// The send's two transactions in the team ledger (teamLedger.ts runs each in one): the claim, before the
// request leaves (the "sending" record, the content's claim and every row key's claim at the target, under
// the tables' primary keys: of two racing sends exactly one commits), and the completion with the answer,
// which frees the claims when nothing was created.

/** A claim refused inside its transaction: thrown to roll it back, then returned. */
export class ClaimRefused extends Error {
  constructor(readonly claim: Claim) {
    super(claim.status);
  }
}

/** The new record of a send, as the team ledger keeps it (the file and message masked). */
export function newRecord(entry: NewSubmission): Omit<SubmissionRecord, 'seq' | 'state' | 'role'> {
  return {
    ...entry,
    file: maskText(entry.file),
    ...(entry.message === undefined ? {} : { message: maskText(entry.message) }),
    id: randomUUID(),
    time: new Date().toISOString(),
    recurringPaymentIds: [],
    serialNumbers: [],
    statuses: [],
  };
}

/** In the caller's transaction: the claim, or a ClaimRefused thrown (the caller rolls back). */
export async function claimIn(
  c: pg.PoolClient,
  entry: NewSubmission,
  batch: BatchRowKeys | undefined,
  takeOver: 'all' | ReadonlySet<string>,
): Promise<Claim> {
  const record = newRecord(entry);
  // The target's identity, as the file ledger's guards read it: two names for one gateway and endpoint are one.
  const target = targetKey(targetOf(entry));
  const all = takeOver === 'all';
  const allowed = all ? [] : [...takeOver];
  // The first row of each key, in key order: racing claims take the keys' locks in the same order.
  const byKey = new Map<string, { line: number; orderId: string }>();
  for (const r of batch?.rows ?? []) if (!byKey.has(r.key)) byKey.set(r.key, { line: r.line, orderId: r.orderId });
  const keys = [...byKey.keys()].sort();
  const inserted = await c.query<Row>(
    `INSERT INTO paygate_submissions AS s (id, target, content_hash, state, host, face, record)
     VALUES ($1, $2, $3, 'sending', $4, $5, $6) RETURNING ${COLUMNS}`,
    [record.id, target, entry.contentHash, entry.host, entry.face, JSON.stringify(record)],
  );
  const content = await c.query(
    `INSERT INTO paygate_claimed_contents AS h (target, content_hash, submission_id) VALUES ($1, $2, $3)
     ON CONFLICT (target, content_hash) DO UPDATE SET submission_id = EXCLUDED.submission_id
     WHERE $4 OR h.submission_id = ANY($5) RETURNING submission_id`,
    [target, entry.contentHash, record.id, all, allowed],
  );
  if (content.rowCount === 0) {
    const holder = await c.query<Row>(
      `SELECT ${COLUMNS} FROM paygate_claimed_contents h JOIN paygate_submissions s ON s.id = h.submission_id WHERE h.target = $1 AND h.content_hash = $2`,
      [target, entry.contentHash],
    );
    throw new ClaimRefused({ status: 'content-held', holder: recordOf(holder.rows[0]) });
  }
  if (keys.length > 0) {
    const claimed = await c.query<{ row_key: string }>(
      `INSERT INTO paygate_claimed_rows AS h (target, row_key, submission_id)
       SELECT $1, k, $2 FROM unnest($3::text[]) AS u(k) ORDER BY k
       ON CONFLICT (target, row_key) DO UPDATE SET submission_id = EXCLUDED.submission_id
       WHERE $4 OR h.submission_id = ANY($5) RETURNING row_key`,
      [target, record.id, keys, all, allowed],
    );
    if ((claimed.rowCount ?? 0) < keys.length) {
      const mine = new Set(claimed.rows.map((r) => r.row_key));
      const held = keys.filter((k) => !mine.has(k));
      const holders = await c.query<Row & { row_key: string }>(
        `SELECT h.row_key, ${COLUMNS} FROM paygate_claimed_rows h JOIN paygate_submissions s ON s.id = h.submission_id
         WHERE h.target = $1 AND h.row_key = ANY($2) AND h.submission_id <> $3`,
        [target, held, record.id],
      );
      throw new ClaimRefused({ status: 'rows-held', holders: new Map(holders.rows.map((r) => [r.row_key, recordOf(r)])) });
    }
    await c.query('INSERT INTO paygate_batch_rows (content_hash, batch) VALUES ($1, $2) ON CONFLICT (content_hash) DO NOTHING', [
      entry.contentHash,
      JSON.stringify(batch),
    ]);
  }
  return { status: 'claimed', record: recordOf(inserted.rows[0]) };
}

/** In the caller's transaction: the answer recorded; an outcome that created nothing frees the claims. */
export async function completeIn(c: pg.PoolClient, id: string, clean: object): Promise<SubmissionRecord | undefined> {
  const done = await c.query<Row>(
    `UPDATE paygate_submissions s SET state = 'done', completed_at = now(), record = s.record || $2::jsonb WHERE s.id = $1 RETURNING ${COLUMNS}`,
    [id, JSON.stringify(clean)],
  );
  const row = done.rows[0];
  if (!row) return undefined;
  const record = recordOf(row);
  // Nothing was created: the rows and the content are free again, in the same transaction.
  if (!mayHaveCreated(record)) {
    await c.query('DELETE FROM paygate_claimed_rows WHERE submission_id = $1', [id]);
    await c.query('DELETE FROM paygate_claimed_contents WHERE submission_id = $1', [id]);
  }
  return record;
}
