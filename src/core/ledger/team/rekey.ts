import type pg from 'pg';
import { targetKey, targetOf, type SentTo } from '../target';

// Schema version 3 (issue 37, item 5): the team ledger's claims keyed on the target's identity (target.ts:
// `targetKey`, what the file ledger's guards compare), no longer on the environment's name. Up to version 2 a
// claim's target was [environment, endpoint id, local state directory], so two environments with the same
// base URL and endpoint under two names claimed the same rows twice. Every claim is re-keyed from its
// submission's record, in the transaction of `paygate ledger init` (admin.ts), so the rows and contents
// claimed before are still held and found: a merchant's history is not forgotten. Two old claims that meet
// under one key (the same rows sent under both names) keep the newest submission's, as a resend that took
// them over would have left them. A PayGate of version 2 refuses a ledger of version 3 (teamLedger.ts
// `ready`), so nothing writes an old key afterwards.

/** Each submission's target key, as `claim` now writes it; then the claims moved to it. */
export async function rekeyClaims(c: pg.PoolClient): Promise<void> {
  const rows = (await c.query<{ id: string; record: SentTo }>('SELECT id, record FROM paygate_submissions')).rows;
  const ids = rows.map((r) => r.id);
  const keys = rows.map((r) => targetKey(targetOf(r.record)));
  const rekeyed = `SELECT * FROM unnest($1::text[], $2::text[]) AS k(id, target)`;
  await c.query(`UPDATE paygate_submissions s SET target = k.target FROM (${rekeyed}) k WHERE k.id = s.id`, [ids, keys]);
  for (const [table, column] of [
    ['paygate_claimed_contents', 'content_hash'],
    ['paygate_claimed_rows', 'row_key'],
  ] as const) {
    // The new keys first (the newest holder where two meet), then the old ones removed.
    await c.query(
      `INSERT INTO ${table} (target, ${column}, submission_id)
       SELECT DISTINCT ON (s.target, h.${column}) s.target, h.${column}, h.submission_id
       FROM ${table} h JOIN paygate_submissions s ON s.id = h.submission_id
       ORDER BY s.target, h.${column}, s.seq DESC
       ON CONFLICT (target, ${column}) DO NOTHING`,
    );
    await c.query(`DELETE FROM ${table} h USING paygate_submissions s WHERE s.id = h.submission_id AND h.target <> s.target`);
  }
}
