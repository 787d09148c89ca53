import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

// How the team ledger reaches its PostgreSQL server: a postgres:// URL (node-postgres reads it: host,
// port, database, user, password, sslmode and the ssl* files, so TLS is as the URL says), the password
// where libpq looks for it (the URL, then $PGPASSWORD, then $PGPASSFILE or ~/.pgpass; node-postgres's own
// ~/.pgpass support is deprecated, so the file is read here, as libpq reads it), and bounded waits: a
// ledger that does not answer in time is an error, and nothing is sent. Every statement runs in a
// transaction of its own and nothing is kept in the session between them (no SET, no advisory lock, no
// named prepared statement), so a transaction-pooling proxy (PgBouncer in transaction mode) works.

/** Milliseconds to connect (and sign in) and for each statement; PAYGATE_LEDGER_TIMEOUT_MS overrides. */
export const LEDGER_TIMEOUT_ENV = 'PAYGATE_LEDGER_TIMEOUT_MS';
const DEFAULT_TIMEOUT_MS = 15_000;

export type Env = Readonly<Record<string, string | undefined>>;

/** One ~/.pgpass field matches: `*`, or the same text. */
const matches = (pattern: string, value: string) => pattern === '*' || pattern === value;

/** The fields of a ~/.pgpass line (`\:` and `\\` escaped), or undefined for a comment or a short line. */
function passFields(line: string): string[] | undefined {
  if (line.startsWith('#') || line.trim() === '') return undefined;
  const fields: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) cur += line[++i];
    else if (c === ':' && fields.length < 4) {
      fields.push(cur);
      cur = '';
    } else cur += c;
  }
  fields.push(cur);
  return fields.length === 5 ? fields : undefined;
}

/**
 * The password for host, port, database and user from $PGPASSFILE or ~/.pgpass, as libpq reads it: the
 * first matching line; a file others may read is ignored (libpq does the same).
 */
export function pgpassPassword(env: Env, home: string, host: string, port: string, database: string, user: string): string | undefined {
  const file = env.PGPASSFILE || join(home, '.pgpass');
  let text: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split(/\r?\n/)) {
    const f = passFields(line);
    if (f && matches(f[0], host) && matches(f[1], port) && matches(f[2], database) && matches(f[3], user)) return f[4];
  }
  return undefined;
}

export function ledgerTimeoutMs(env: Env): number {
  const n = Number(env[LEDGER_TIMEOUT_ENV]);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_TIMEOUT_MS;
}

/** A small pool (a face sends one batch at a time); idle connections close, so a CLI process ends by itself. */
export function ledgerPool(url: URL, env: Env, home: string): pg.Pool {
  const timeout = ledgerTimeoutMs(env);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username);
  const user = decodeURIComponent(url.username) || env.PGUSER || env.USER || '';
  // node-postgres takes the URL's password over a `password` given beside it: the one found is put in a copy.
  const withPassword = new URL(url.href);
  if (url.password === '') {
    const found = env.PGPASSWORD ?? pgpassPassword(env, home, url.hostname, url.port || '5432', database, user);
    if (found !== undefined) withPassword.password = encodeURIComponent(found);
  }
  const config: pg.PoolConfig = {
    connectionString: withPassword.href,
    max: 4,
    idleTimeoutMillis: 1_000,
    allowExitOnIdle: true,
    connectionTimeoutMillis: timeout,
    query_timeout: timeout,
    application_name: 'paygate',
  };
  // node-postgres is loaded here, when a team ledger is opened: a lint or submit with the file ledger never
  // evaluates it (some 150 ms of a lint's guard at a million rows went to loading it).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Pool } = require('pg') as typeof pg;
  return new Pool(config);
}
