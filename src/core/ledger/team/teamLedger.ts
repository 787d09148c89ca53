import { homedir } from 'node:os';
import type pg from 'pg';
import {
  cleanCompletion,
  keyHashes,
  type Completion,
  type GuardKey,
  type LedgerReading,
  type NewSubmission,
  type SubmissionRecord,
} from '../records';
import type { BatchRowKeys } from '../rowKeys';
import type { PayerRecord } from '../samePayer';
import { payerRecords, PAYERS_QUERY, type PayerRow } from './payers';
import type { LedgerSecret } from '../secret';
import type { Approval, Claim, TeamStore } from '../store';
import { initIn, metaIn, pushIn, statusIn, type LedgerStatus } from './admin';
import { claimIn, ClaimRefused, completeIn } from './claim';
import { ledgerPool, ledgerTimeoutMs, type Env } from './connect';
import { redactedUrl } from './url';
import type { TeamKey } from './key';
import { COLUMNS, reading, recordOf, TeamLedgerError, why, type Row } from './rows';
import { SCHEMA_VERSION } from './schema';
import { allApprovalsIn, approvalsIn, approveIn } from './teamApprovals';

export type { LedgerStatus } from './admin';

// The team ledger: the submission ledger in a PostgreSQL database a team shares (store.ts). The database
// decides: a send's "sending" record and the claims of its content and of each of its row keys at its
// target are written in one transaction under the tables' primary keys, before the request leaves, so of
// two members racing with files that share rows exactly one commits; the other finds the rows held and is
// refused, naming who holds them (claim.ts). Its answer is recorded in a second transaction, which frees
// the claims when nothing was created. A crash between the two leaves "sending": everyone sees an unknown
// outcome. Nothing outlives a transaction (no session state, no advisory lock), so a transaction pool works.
// This file holds the connection, the transactions and the reads; claim.ts the send, admin.ts init, status
// and push, teamApprovals.ts maker-checker's rows.

const RETRY_CODES = new Set(['40P01', '40001']);

export interface TeamLedgerOptions {
  url: URL;
  env: Env;
  /** Where ~/.pgpass is looked for (libpq's rule); the user's home directory when not given. */
  home?: string;
  /** The team key; absent, the store reads nothing that needs it and refuses to send. */
  key?: TeamKey;
  /** Why there is no key (no PAYGATE_LEDGER_KEY_FILE, an unreadable file), said when one is needed. */
  keyProblem?: string;
  /** What a wrong key should do, said after the key check value differs (default: the CLI's PAYGATE_LEDGER_KEY_FILE). */
  keyRemedy?: string;
}

export class TeamLedger implements TeamStore {
  readonly kind = 'team' as const;
  readonly place: string;
  private readonly pool: pg.Pool;
  private readonly timeoutMs: number;
  private checked?: Promise<void>;

  constructor(private readonly o: TeamLedgerOptions) {
    this.place = `the team ledger ${redactedUrl(o.url)}`;
    this.pool = ledgerPool(o.url, o.env, o.home ?? homedir());
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
      // While it is ours the pool does not listen on the connection: a server that ends it between two of
      // our queries (a restart, "terminating connection due to administrator command") would be thrown in
      // the process, not told. It breaks the transaction instead: the next query fails and says why.
      const lost = (): void => void (broken = true);
      client.on('error', lost);
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
        client.removeListener('error', lost);
        client.release(broken);
      }
    }
  }

  /** The schema's version and the key check, once per store: a wrong key or an old schema writes nothing. */
  private ready(needKey: boolean): Promise<void> {
    this.checked ??= this.tx(async (c) => {
      const meta = await metaIn(c);
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
          `the team key ${this.o.key.file} is not this ledger's (its key check value differs): get the team key from whoever ran 'paygate ledger init' and ${this.o.keyRemedy ?? 'set PAYGATE_LEDGER_KEY_FILE to it'}; nothing was written`,
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

  private async rows(sql: string, params: unknown[] = []): Promise<SubmissionRecord[]> {
    return (await this.tx(async (c) => (await c.query<Row>(sql, params)).rows)).map(recordOf);
  }

  async secret(_create: boolean): Promise<LedgerSecret | undefined> {
    await this.ready(true);
    return this.o.key!.secret;
  }

  async guardView(key: GuardKey): Promise<LedgerReading> {
    await this.ready(false);
    return reading(
      await this.rows(`SELECT ${COLUMNS} FROM paygate_submissions s WHERE s.content_hash = ANY($1) ORDER BY s.seq DESC`, [keyHashes(key)]),
    );
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
    return this.rows(`SELECT ${COLUMNS} FROM paygate_submissions s ORDER BY s.seq DESC LIMIT $1`, [limit]);
  }

  /** One record by its id (the editor's Submissions view opens one it does not show). */
  async get(id: string): Promise<SubmissionRecord | undefined> {
    await this.ready(false);
    return (await this.rows(`SELECT ${COLUMNS} FROM paygate_submissions s WHERE s.id = $1`, [id]))[0];
  }

  async newest(wanted: (r: SubmissionRecord) => boolean): Promise<SubmissionRecord | undefined> {
    await this.ready(false);
    let before = Number.MAX_SAFE_INTEGER;
    // Pages of 500, newest first, until one is wanted or none are left.
    for (;;) {
      const page = await this.rows(`SELECT ${COLUMNS} FROM paygate_submissions s WHERE s.seq < $1 ORDER BY s.seq DESC LIMIT 500`, [before]);
      if (page.length === 0) return undefined;
      const found = page.find(wanted);
      if (found) return found;
      before = page[page.length - 1].seq;
    }
  }

  async read(): Promise<LedgerReading> {
    await this.ready(false);
    return reading(await this.rows(`SELECT ${COLUMNS} FROM paygate_submissions s ORDER BY s.seq DESC`));
  }

  async claim(entry: NewSubmission, batch: BatchRowKeys | undefined, takeOver: 'all' | ReadonlySet<string>): Promise<Claim> {
    await this.ready(true);
    return this.tx<Claim>((c) => claimIn(c, entry, batch, takeOver)).catch((err: unknown) => {
      if (err instanceof ClaimRefused) return err.claim;
      throw err;
    });
  }

  async complete(id: string, completion: Completion, sensitive: readonly string[] = []): Promise<SubmissionRecord | undefined> {
    const clean = cleanCompletion(completion, sensitive);
    return this.tx((c) => completeIn(c, id, clean));
  }

  /** Creates or brings forward the schema and, the first time, records the key check of `key`. */
  async init(
    key: TeamKey | undefined,
    grant: readonly string[],
  ): Promise<{ created: boolean; from: number; keyRecorded: boolean; keyCheck?: string }> {
    return this.tx((c) => initIn(c, this.place, key, grant));
  }

  /** Which store, its schema version, how many records, and whether the key matches (undefined: no key given). */
  async status(): Promise<LedgerStatus> {
    return this.tx((c) => statusIn(c, this.place, this.o.key));
  }

  /**
   * One record of a file ledger, copied once (by its id; again, nothing changes). A record that may have
   * created payments claims its content at its target, and its rows when given (made with the team key);
   * a claim someone else holds stays theirs.
   */
  async pushRecord(r: SubmissionRecord, rows: BatchRowKeys | undefined): Promise<'added' | 'present'> {
    await this.ready(true);
    return this.tx((c) => pushIn(c, r, rows));
  }

  /** Records this member's approval of a content for an environment (once per role). */
  async approve(environment: string, contentHash: string, host: string): Promise<{ added: boolean; role: string }> {
    await this.ready(false);
    return this.tx((c) => approveIn(c, environment, contentHash, host));
  }

  /** The approvals of a content for an environment, oldest first; `mine` marks the asking role's own. */
  async approvals(environment: string, contentHash: string): Promise<Approval[]> {
    await this.ready(false);
    return this.tx((c) => approvalsIn(c, environment, contentHash));
  }

  /** Every approval, by environment and content hash (`paygate history`). */
  async allApprovals(): Promise<Map<string, Approval[]>> {
    await this.ready(false);
    return this.tx((c) => allApprovalsIn(c));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
