import type pg from 'pg';
import { mayHaveCreated, type SubmissionRecord } from '../records';
import type { BatchRowKeys } from '../rowKeys';
import type { TeamKey } from './key';
import { targetKey, targetOf } from '../target';
import { TeamLedgerError } from './rows';
import { MIGRATIONS, SCHEMA_VERSION, TABLES } from './schema';

// The team ledger's upkeep, each in the caller's transaction (teamLedger.ts): `paygate ledger init` (the
// schema brought forward, the key check recorded once), `paygate ledger status`, and `paygate ledger
// push` (a file ledger's records copied in once).

export interface LedgerStatus {
  place: string;
  role: string;
  schemaVersion: number | undefined;
  records: number;
  sending: number;
  keyMatches: boolean | undefined;
}

/** paygate_meta as a map; empty when the table is not there yet. */
export async function metaIn(c: pg.PoolClient): Promise<Map<string, string>> {
  try {
    const rows = (await c.query<{ key: string; value: string }>('SELECT key, value FROM paygate_meta')).rows;
    return new Map(rows.map((r) => [r.key, r.value]));
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return new Map();
    throw err;
  }
}

export async function initIn(
  c: pg.PoolClient,
  place: string,
  key: TeamKey | undefined,
  grant: readonly string[],
): Promise<{ created: boolean; from: number; keyRecorded: boolean; keyCheck?: string }> {
  // Two members running init at once: the second waits here for the first's transaction.
  await c.query('CREATE TABLE IF NOT EXISTS paygate_meta (key text PRIMARY KEY, value text NOT NULL)');
  await c.query('LOCK TABLE paygate_meta IN EXCLUSIVE MODE');
  const meta = await metaIn(c);
  const from = Number(meta.get('schema_version') ?? 0);
  if (from > SCHEMA_VERSION) throw new TeamLedgerError(place, `its schema is version ${from}, newer than this PayGate's: update PayGate`);
  for (let v = from; v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (typeof step === 'string') await c.query(step);
    else await step(c);
  }
  await c.query(
    `INSERT INTO paygate_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [String(SCHEMA_VERSION)],
  );
  for (const role of grant)
    for (const table of TABLES) await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${c.escapeIdentifier(role)}`);
  const existing = meta.get('key_check');
  let keyRecorded = false;
  if (existing === undefined && key) {
    await c.query(`INSERT INTO paygate_meta (key, value) VALUES ('key_check', $1)`, [key.check]);
    keyRecorded = true;
  }
  return { created: from === 0, from, keyRecorded, ...(existing !== undefined ? { keyCheck: existing } : {}) };
}

export async function statusIn(c: pg.PoolClient, place: string, key: TeamKey | undefined): Promise<LedgerStatus> {
  const meta = await metaIn(c);
  const role = (await c.query<{ r: string }>('SELECT current_user AS r')).rows[0].r;
  const version = meta.get('schema_version');
  let records = 0;
  let sending = 0;
  if (version !== undefined) {
    const n = (
      await c.query<{ all: string; sending: string }>(
        `SELECT count(*) AS all, count(*) FILTER (WHERE state = 'sending') AS sending FROM paygate_submissions`,
      )
    ).rows[0];
    records = Number(n.all);
    sending = Number(n.sending);
  }
  const check = meta.get('key_check');
  return {
    place,
    role,
    schemaVersion: version === undefined ? undefined : Number(version),
    records,
    sending,
    keyMatches: key && check !== undefined ? check === key.check : undefined,
  };
}

export async function pushIn(c: pg.PoolClient, r: SubmissionRecord, rows: BatchRowKeys | undefined): Promise<'added' | 'present'> {
  const { seq: _seq, state, role: _role, ...record } = r;
  const target = targetKey(targetOf(r));
  const inserted = await c.query(
    `INSERT INTO paygate_submissions (id, target, content_hash, state, host, face, created_at, completed_at, record)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [r.id, target, r.contentHash, state, r.host, r.face, r.time, r.completedAt ?? null, JSON.stringify(record)],
  );
  if (inserted.rowCount === 0) return 'present';
  if (!mayHaveCreated(r)) return 'added';
  await c.query('INSERT INTO paygate_claimed_contents (target, content_hash, submission_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    target,
    r.contentHash,
    r.id,
  ]);
  if (rows && rows.rows.length > 0) {
    const keys = [...new Set(rows.rows.map((x) => x.key))].sort();
    await c.query(
      `INSERT INTO paygate_claimed_rows (target, row_key, submission_id) SELECT $1, k, $2 FROM unnest($3::text[]) AS u(k) ORDER BY k ON CONFLICT DO NOTHING`,
      [target, r.id, keys],
    );
    await c.query('INSERT INTO paygate_batch_rows (content_hash, batch) VALUES ($1, $2) ON CONFLICT (content_hash) DO NOTHING', [
      r.contentHash,
      JSON.stringify(rows),
    ]);
  }
  return 'added';
}
