import type pg from 'pg';
import { rekeyClaims } from './rekey';

// The team ledger's tables, versioned: `paygate ledger init` applies every step above the database's
// version, each in one transaction with the version it reaches, so running it again (or two members at
// once) changes nothing. A store opened on a database of another version refuses to write.
// submissions: one row per create, "sending" until its answer is recorded; `role` is the database role
// that wrote it (current_user, which the team's database vouches for). claimed_contents / claimed_rows:
// the content and each row key held at a target (its identity, target.ts `targetKey`: a local gateway's
// state directory, another environment's create URL whatever its name) by the submission that may have
// created its payments; their primary keys are what lets exactly one of two
// racing sends through. batch_rows: each sent batch's row keys (columns, lines, masked client-orderids,
// fingerprints, value hashes: as the file ledger keeps them, made with the team key) for diff and
// reconcile. approvals: who approved which content for which environment.

export const SCHEMA_VERSION = 3;

/** One step: SQL, or what SQL alone cannot compute (a target's key is read as URLs read it), in the same transaction. */
type Migration = string | ((c: pg.PoolClient) => Promise<void>);

export const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE IF NOT EXISTS paygate_meta (key text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE IF NOT EXISTS paygate_submissions (
     id text PRIMARY KEY,
     seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
     target text NOT NULL,
     content_hash text NOT NULL,
     state text NOT NULL CHECK (state IN ('sending', 'done')),
     role text NOT NULL DEFAULT current_user,
     host text NOT NULL,
     face text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     completed_at timestamptz,
     record jsonb NOT NULL);
   CREATE INDEX IF NOT EXISTS paygate_submissions_content ON paygate_submissions (content_hash);
   CREATE TABLE IF NOT EXISTS paygate_claimed_contents (
     target text NOT NULL,
     content_hash text NOT NULL,
     submission_id text NOT NULL REFERENCES paygate_submissions (id),
     PRIMARY KEY (target, content_hash));
   CREATE TABLE IF NOT EXISTS paygate_claimed_rows (
     target text NOT NULL,
     row_key text NOT NULL,
     submission_id text NOT NULL REFERENCES paygate_submissions (id),
     PRIMARY KEY (target, row_key));
   CREATE INDEX IF NOT EXISTS paygate_claimed_rows_key ON paygate_claimed_rows (row_key);
   CREATE INDEX IF NOT EXISTS paygate_claimed_rows_submission ON paygate_claimed_rows (submission_id);
   CREATE TABLE IF NOT EXISTS paygate_batch_rows (content_hash text PRIMARY KEY, batch jsonb NOT NULL);
   CREATE TABLE IF NOT EXISTS paygate_approvals (
     environment text NOT NULL,
     content_hash text NOT NULL,
     role text NOT NULL DEFAULT current_user,
     host text NOT NULL,
     at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (environment, content_hash, role));`,
  // 2: the same-payer lookup (payers.ts) finds the batches holding a fingerprint through this index
  // instead of reading every sent batch's rows.
  `CREATE INDEX IF NOT EXISTS paygate_batch_rows_fingerprints ON paygate_batch_rows
     USING gin (jsonb_path_query_array(batch, '$.rows[*].fingerprint'));`,
  // 3: the claims keyed on the target's identity, not the environment's name (rekey.ts).
  rekeyClaims,
];

/** The tables a member's role needs to read and write (ledger init --grant ROLE). */
export const TABLES = [
  'paygate_meta',
  'paygate_submissions',
  'paygate_claimed_contents',
  'paygate_claimed_rows',
  'paygate_batch_rows',
  'paygate_approvals',
] as const;
