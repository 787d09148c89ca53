import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { maskText } from '../../output';
import {
  cleanCompletion,
  keyHashes,
  mayHaveCreated,
  type Completion,
  type GuardKey,
  type LedgerReading,
  type NewSubmission,
  type SubmissionRecord,
  type Target,
} from '../records';
import type { Approval } from '../store';
import type { BatchRowKeys } from '../rowKeys';
import type { PayerRecord } from '../samePayer';
import { payerRecords, PAYERS_QUERY, type PayerRow } from './payers';
import { COLUMNS, recordOf, type Row } from './rows';
import type { LedgerSecret } from '../secret';
import type { Claim, TeamStore } from '../store';
import { ledgerPool, ledgerTimeoutMs, redactedUrl, type Env } from './connect';
import type { TeamKey } from './key';
import { MIGRATIONS, SCHEMA_VERSION, TABLES } from './schema';

// The team ledger: the submission ledger in a PostgreSQL database a team shares (store.ts). The database
// decides: a send's "sending" record and the claims of its content and of each of its row keys at its
// target are written in one transaction under the tables' primary keys, before the request leaves, so of
// two members racing with files that share rows exactly one commits; the other finds the rows held and is
// refused, naming who holds them. Its answer is recorded in a second transaction, which frees the claims
// when nothing was created. A crash between the two leaves "sending": everyone sees an unknown outcome.
// Nothing outlives a transaction (no session state, no advisory lock), so a transaction pool works.

/** A team ledger that could not be used: the message names the ledger (never its password) and what to do. */
export class TeamLedgerError extends Error {
  constructor(
    readonly place: string,
    readonly reason: string,
  ) {
    super(`${place} could not be used: ${reason}`);
  }
}

/** A target as one text: the claims' key beside the content hash or the row key. */
export function targetText(t: Target): string {
  return JSON.stringify([t.environment, t.endpointId, t.localStateDir ?? null]);
}

/** What a pg error means for a person: the server, the password, a permission, a timeout. */
function why(err: unknown, timeoutMs: number): string {
  const e = err as { code?: string; message?: string };
  const message = String(e.message ?? err);
  if (e.code === 'ECONNREFUSED') return `connection refused (${maskText(message)}): is the server up, and the URL right?`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `no such host (${maskText(message)})`;
  if (/timeout|timed out/i.test(message)) return `no answer within ${timeoutMs} ms (${maskText(message)})`;
  if (e.code === '28P01' || e.code === '28000') return `${maskText(message)} (the password comes from the URL, PGPASSWORD or ~/.pgpass)`;
  if (e.code === '42501') return `${maskText(message)} (ask the team's database owner to run 'paygate ledger init --grant ROLE')`;
  if (e.code === '3D000') return maskText(message);
  return maskText(message);
}

/** A claim refused inside its transaction: thrown to roll it back, then returned. */
class ClaimRefused extends Error {
  constructor(readonly claim: Claim) {
    super(claim.status);
  }
}

const RETRY_CODES = new Set(['40P01', '40001']);

export interface TeamLedgerOptions {
  url: URL;
  env: Env;
  home: string;
  /** The team key; absent, the store reads nothing that needs it and refuses to send. */
  key?: TeamKey;
  /** Why there is no key (no PAYGATE_LEDGER_KEY_FILE, an unreadable file), said when one is needed. */
  keyProblem?: string;
}

export interface LedgerStatus {
  place: string;
  role: string;
  schemaVersion: number | undefined;
  records: number;
  sending: number;
  keyMatches: boolean | undefined;
}

export class TeamLedger implements TeamStore {
  readonly kind = 'team' as const;
  readonly place: string;
  private readonly pool: pg.Pool;
  private readonly timeoutMs: number;
  private checked?: Promise<void>;

  constructor(private readonly o: TeamLedgerOptions) {
    this.place = `the team ledger ${redactedUrl(o.url)}`;
    this.pool = ledgerPool(o.url, o.env, o.home);
    this.timeoutMs = ledgerTimeoutMs(o.env);
    // An idle connection the server ended (a restart) is dropped from the pool, not thrown.
    this.pool.on('error', () => undefined);
  }

  /** One transaction; the pg error becomes a TeamLedgerError naming the ledger. Deadlocks are retried (3×). */
  private async tx<T>(body: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        throw new TeamLedgerError(this.place, why(err, this.timeoutMs));
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        // Transaction-scoped: a claim waiting on a racing one waits this long at most.
        await client.query(`SET LOCAL lock_timeout = ${this.timeoutMs}`);
        const out = await body(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        if (err instanceof TeamLedgerError || err instanceof ClaimRefused) throw err;
        const code = (err as { code?: string }).code;
        if (code && RETRY_CODES.has(code) && attempt < 2) continue;
        broken = true;
        throw new TeamLedgerError(this.place, why(err, this.timeoutMs));
      } finally {
        client.release(broken);
      }
    }
  }

  /** The schema's version and the key check, once per store: a wrong key or an old schema writes nothing. */
  private ready(needKey: boolean): Promise<void> {
    this.checked ??= this.tx(async (c) => {
      const meta = await this.meta(c);
      const version = meta.get('schema_version');
      if (version === undefined)
        throw new TeamLedgerError(this.place, "it holds no PayGate ledger yet: run 'paygate ledger init' once for the team");
      if (Number(version) !== SCHEMA_VERSION)
        throw new TeamLedgerError(
          this.place,
          Number(version) > SCHEMA_VERSION
            ? `its schema is version ${version}, newer than this PayGate's ${SCHEMA_VERSION}: update PayGate`
            : `its schema is version ${version}: run 'paygate ledger init' to bring it to version ${SCHEMA_VERSION}`,
        );
      const check = meta.get('key_check');
      if (this.o.key && check !== this.o.key.check)
        throw new TeamLedgerError(
          this.place,
          `the team key ${this.o.key.file} is not this ledger's (its key check value differs): get the team key from whoever ran 'paygate ledger init' and set PAYGATE_LEDGER_KEY_FILE to it; nothing was written`,
        );
    });
    const checked = this.checked;
    // A failure is not remembered: the next call tries again (the server may be back).
    checked.catch(() => {
      if (this.checked === checked) this.checked = undefined;
    });
    return checked.then(() => {
      if (needKey && !this.o.key) throw new TeamLedgerError(this.place, this.o.keyProblem ?? 'no team key (set PAYGATE_LEDGER_KEY_FILE)');
    });
  }

  private async meta(c: pg.PoolClient): Promise<Map<string, string>> {
    try {
      const rows = (await c.query<{ key: string; value: string }>('SELECT key, value FROM paygate_meta')).rows;
      return new Map(rows.map((r) => [r.key, r.value]));
    } catch (err) {
      if ((err as { code?: string }).code === '42P01') return new Map();
      throw err;
    }
  }

  async secret(_create: boolean): Promise<LedgerSecret | undefined> {
    await this.ready(true);
    return this.o.key!.secret;
  }

  async guardView(key: GuardKey): Promise<LedgerReading> {
    await this.ready(false);
    const rows = await this.tx(
      async (c) =>
        (
          await c.query<Row>(`SELECT ${COLUMNS} FROM paygate_submissions s WHERE s.content_hash = ANY($1) ORDER BY s.seq DESC`, [
            keyHashes(key),
          ])
        ).rows,
    );
    return reading(rows.map(recordOf));
  }

  async recordsOfRows(keys: ReadonlySet<string>): Promise<Map<string, SubmissionRecord[]>> {
    const out = new Map<string, SubmissionRecord[]>();
    if (keys.size === 0) return out;
    await this.ready(true);
    const rows = await this.tx(
      async (c) =>
        (
          await c.query<Row & { row_key: string }>(
            `SELECT r.row_key, ${COLUMNS} FROM paygate_claimed_rows r JOIN paygate_submissions s ON s.id = r.submission_id WHERE r.row_key = ANY($1)`,
            [[...keys]],
          )
        ).rows,
    );
    for (const r of rows) {
      const list = out.get(r.row_key) ?? [];
      list.push(recordOf(r));
      out.set(r.row_key, list);
    }
    return out;
  }

  /** The earlier sent rows with each fingerprint (samePayer.ts; payers.ts says how and at what cost). */
  async recordsOfPayers(fingerprints: ReadonlySet<string>): Promise<Map<string, PayerRecord[]>> {
    if (fingerprints.size === 0) return new Map();
    await this.ready(true);
    const rows = await this.tx(async (c) => (await c.query<PayerRow>(PAYERS_QUERY, [[...fingerprints]])).rows);
    return payerRecords(rows);
  }

  async batchRows(contentHash: string): Promise<BatchRowKeys | undefined> {
    await this.ready(true);
    const rows = await this.tx(
      async (c) =>
        (await c.query<{ batch: BatchRowKeys }>('SELECT batch FROM paygate_batch_rows WHERE content_hash = $1', [contentHash])).rows,
    );
    return rows[0]?.batch;
  }

  async recent(limit: number): Promise<SubmissionRecord[]> {
    await this.ready(false);
    const rows = await this.tx(
      async (c) => (await c.query<Row>(`SELECT ${COLUMNS} FROM paygate_submissions s ORDER BY s.seq DESC LIMIT $1`, [limit])).rows,
    );
    return rows.map(recordOf);
  }

  async newest(wanted: (r: SubmissionRecord) => boolean): Promise<SubmissionRecord | undefined> {
    await this.ready(false);
    let before = Number.MAX_SAFE_INTEGER;
    // Pages of 500, newest first, until one is wanted or none are left.
    for (;;) {
      const rows = await this.tx(
        async (c) =>
          (await c.query<Row>(`SELECT ${COLUMNS} FROM paygate_submissions s WHERE s.seq < $1 ORDER BY s.seq DESC LIMIT 500`, [before]))
            .rows,
      );
      if (rows.length === 0) return undefined;
      const found = rows.map(recordOf).find(wanted);
      if (found) return found;
      before = Number(rows[rows.length - 1].seq);
    }
  }

  async read(): Promise<LedgerReading> {
    await this.ready(false);
    const rows = await this.tx(async (c) => (await c.query<Row>(`SELECT ${COLUMNS} FROM paygate_submissions s ORDER BY s.seq DESC`)).rows);
    return reading(rows.map(recordOf));
  }

  async claim(entry: NewSubmission, batch: BatchRowKeys | undefined, takeOver: 'all' | ReadonlySet<string>): Promise<Claim> {
    await this.ready(true);
    const record: Omit<SubmissionRecord, 'seq' | 'state' | 'role'> = {
      ...entry,
      file: maskText(entry.file),
      ...(entry.message === undefined ? {} : { message: maskText(entry.message) }),
      id: randomUUID(),
      time: new Date().toISOString(),
      recurringPaymentIds: [],
      serialNumbers: [],
      statuses: [],
    };
    const target = targetText({
      environment: entry.environment,
      endpointId: entry.endpointId,
      ...(entry.localGateway ? { localStateDir: entry.localGateway.stateDir } : {}),
    });
    const all = takeOver === 'all';
    const allowed = all ? [] : [...takeOver];
    // The first row of each key, in key order: racing claims take the keys' locks in the same order.
    const byKey = new Map<string, { line: number; orderId: string }>();
    for (const r of batch?.rows ?? []) if (!byKey.has(r.key)) byKey.set(r.key, { line: r.line, orderId: r.orderId });
    const keys = [...byKey.keys()].sort();
    return this.tx<Claim>(async (c) => {
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
    }).catch((err: unknown) => {
      if (err instanceof ClaimRefused) return err.claim;
      throw err;
    });
  }

  async complete(id: string, completion: Completion, sensitive: readonly string[] = []): Promise<SubmissionRecord | undefined> {
    const clean = cleanCompletion(completion, sensitive);
    return this.tx(async (c) => {
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
    });
  }

  /** Creates or brings forward the schema and, the first time, records the key check of `key`. */
  async init(
    key: TeamKey | undefined,
    grant: readonly string[],
  ): Promise<{ created: boolean; from: number; keyRecorded: boolean; keyCheck?: string }> {
    return this.tx(async (c) => {
      // Two members running init at once: the second waits here for the first's transaction.
      await c.query('CREATE TABLE IF NOT EXISTS paygate_meta (key text PRIMARY KEY, value text NOT NULL)');
      await c.query('LOCK TABLE paygate_meta IN EXCLUSIVE MODE');
      const meta = await this.meta(c);
      const from = Number(meta.get('schema_version') ?? 0);
      if (from > SCHEMA_VERSION)
        throw new TeamLedgerError(this.place, `its schema is version ${from}, newer than this PayGate's: update PayGate`);
      for (let v = from; v < SCHEMA_VERSION; v++) await c.query(MIGRATIONS[v]);
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
    });
  }

  /** Which store, its schema version, how many records, and whether the key matches (undefined: no key given). */
  async status(): Promise<LedgerStatus> {
    return this.tx(async (c) => {
      const meta = await this.meta(c);
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
        place: this.place,
        role,
        schemaVersion: version === undefined ? undefined : Number(version),
        records,
        sending,
        keyMatches: this.o.key && check !== undefined ? check === this.o.key.check : undefined,
      };
    });
  }

  /**
   * One record of a file ledger, copied once (by its id; again, nothing changes). A record that may have
   * created payments claims its content at its target, and its rows when given (made with the team key);
   * a claim someone else holds stays theirs.
   */
  async pushRecord(r: SubmissionRecord, rows: BatchRowKeys | undefined): Promise<'added' | 'present'> {
    await this.ready(true);
    const { seq: _seq, state, role: _role, ...record } = r;
    const target = targetText({
      environment: r.environment,
      endpointId: r.endpointId,
      ...(r.localGateway ? { localStateDir: r.localGateway.stateDir } : {}),
    });
    return this.tx(async (c) => {
      const inserted = await c.query(
        `INSERT INTO paygate_submissions (id, target, content_hash, state, host, face, created_at, completed_at, record)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [r.id, target, r.contentHash, state, r.host, r.face, r.time, r.completedAt ?? null, JSON.stringify(record)],
      );
      if (inserted.rowCount === 0) return 'present';
      if (!mayHaveCreated(r)) return 'added';
      await c.query(
        'INSERT INTO paygate_claimed_contents (target, content_hash, submission_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [target, r.contentHash, r.id],
      );
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
    });
  }

  /** Records this member's approval of a content for an environment (once per role). */
  async approve(environment: string, contentHash: string, host: string): Promise<{ added: boolean; role: string }> {
    await this.ready(false);
    return this.tx(async (c) => {
      const inserted = await c.query<{ role: string }>(
        `INSERT INTO paygate_approvals (environment, content_hash, host) VALUES ($1, $2, $3)
         ON CONFLICT (environment, content_hash, role) DO NOTHING RETURNING role`,
        [environment, contentHash, host],
      );
      const role = inserted.rows[0]?.role ?? (await c.query<{ r: string }>('SELECT current_user AS r')).rows[0].r;
      return { added: inserted.rowCount === 1, role };
    });
  }

  /** The approvals of a content for an environment, oldest first; `mine` marks the asking role's own. */
  async approvals(environment: string, contentHash: string): Promise<Approval[]> {
    await this.ready(false);
    const rows = await this.tx(
      async (c) =>
        (
          await c.query<{ role: string; host: string; at: Date; mine: boolean }>(
            `SELECT role, host, at, role = current_user AS mine FROM paygate_approvals WHERE environment = $1 AND content_hash = $2 ORDER BY at, role`,
            [environment, contentHash],
          )
        ).rows,
    );
    return rows.map((r) => ({ role: r.role, host: r.host, at: r.at.toISOString(), mine: r.mine }));
  }

  /** Every approval, by environment and content hash (`paygate history`). */
  async allApprovals(): Promise<Map<string, Approval[]>> {
    await this.ready(false);
    const rows = await this.tx(
      async (c) =>
        (
          await c.query<{ environment: string; content_hash: string; role: string; host: string; at: Date; mine: boolean }>(
            'SELECT environment, content_hash, role, host, at, role = current_user AS mine FROM paygate_approvals ORDER BY at, role',
          )
        ).rows,
    );
    const out = new Map<string, Approval[]>();
    for (const r of rows) {
      const key = `${r.environment}\0${r.content_hash}`;
      out.set(key, [...(out.get(key) ?? []), { role: r.role, host: r.host, at: r.at.toISOString(), mine: r.mine }]);
    }
    return out;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

function reading(records: SubmissionRecord[]): LedgerReading {
  return { records, damages: [], acknowledged: new Set(), tornLines: 0 };
}
