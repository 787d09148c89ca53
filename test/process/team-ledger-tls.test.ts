import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ledgerPool } from '../../src/core/ledger/team/connect';
import { writeNewTeamKey, type TeamKey } from '../../src/core/ledger/team/key';
import { TeamLedger } from '../../src/core/ledger/team/teamLedger';
import { runLedger } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { PROCESS_MS } from '../fixtures/deadlines';
import { startCluster, type Cluster } from '../fixtures/postgres/cluster';

// The team ledger over TLS, against a throwaway cluster with ssl=on and a self-signed certificate for
// 127.0.0.1 made at test time (test/fixtures/postgres/cluster.ts). TLS is as the URL says, read by
// node-postgres 8 (pg-connection-string 2, its parse of sslmode: "prefer, require and verify-ca are
// treated as aliases for verify-full" unless uselibpqcompat=true; sslrootcert is read as the CA; no
// PGSSLROOTCERT is read). Each case connects the way the ledger does (connect.ts's ledgerPool, the same
// pool TeamLedger opens) and asks the server, in pg_stat_ssl, whether that very connection is encrypted.

const PASSWORD = 'alice tls:1';
let dir: string;
let cluster: Cluster;
let key: TeamKey;

const url = (query: string) => `${cluster.url('alice', PASSWORD, 'team')}${query}`;

/** Whether the server sees the ledger's own connection as encrypted (pg_stat_ssl of its backend), and its TLS version. */
async function encrypted(query: string): Promise<{ ssl: boolean; version: string | null }> {
  const pool = ledgerPool(new URL(url(query)), { PAYGATE_LEDGER_TIMEOUT_MS: '60000' }, dir);
  // As TeamLedger does: an idle connection the server ends is dropped, not thrown (one such ending once
  // surfaced as an uncaught error when the cluster stopped after the last test).
  pool.on('error', () => undefined);
  try {
    const rows = await pool.query<{ ssl: boolean; version: string | null }>(
      'SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
    );
    return rows.rows[0];
  } finally {
    await pool.end();
  }
}

function ledger(query: string): TeamLedger {
  return new TeamLedger({ url: new URL(url(query)), env: { PAYGATE_LEDGER_TIMEOUT_MS: '60000' }, home: dir, key });
}

before(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-team-tls-'));
    cluster = await startCluster({ tls: true });
    await cluster.createRole('alice', PASSWORD);
    await cluster.createDatabase('team', ['alice']);
    key = writeNewTeamKey(join(dir, 'team.key'));
  },
  { timeout: PROCESS_MS },
);

after(
  async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
  { timeout: PROCESS_MS },
);

test(
  'sslmode=verify-full with sslrootcert: encrypted and verified; the ledger is made and used over it',
  { timeout: PROCESS_MS },
  async () => {
    const verified = `?sslmode=verify-full&sslrootcert=${encodeURIComponent(cluster.caFile!)}`;
    const seen = await encrypted(verified);
    assert.equal(seen.ssl, true, 'pg_stat_ssl: the connection is encrypted');
    assert.match(seen.version ?? '', /^TLSv1\.[23]$/);

    const store = ledger(verified);
    try {
      const init = await store.init(key, []);
      assert.equal(init.keyRecorded, true);
      const status = await store.status();
      assert.equal(status.role, 'alice');
      assert.equal(status.schemaVersion, 3);
      assert.equal(status.keyMatches, true);
    } finally {
      await store.close();
    }

    // The CLI, as a member runs it: $PAYGATE_LEDGER_URL with TLS.
    let out = '';
    let err = '';
    const ctx = testContext({
      cwd: dir,
      env: { HOME: dir, PAYGATE_LEDGER_URL: url(verified), PAYGATE_LEDGER_KEY_FILE: key.file, PAYGATE_LEDGER_TIMEOUT_MS: '60000' },
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    });
    assert.equal(await runLedger(['status'], ctx), 0, err);
    assert.match(out, /store: the team ledger postgres:\/\/alice@127\.0\.0\.1:\d+\/team\n/);
    assert.match(out, /team key: matches/);
    assert.ok(!out.includes(PASSWORD) && !err.includes(PASSWORD), 'no password printed');
  },
);

test(
  'sslmode=require without the CA: node-postgres verifies it as verify-full, so a self-signed server is refused; nothing falls back',
  { timeout: PROCESS_MS },
  async () => {
    const store = ledger('?sslmode=require');
    try {
      await assert.rejects(store.status(), (e: Error) => {
        assert.match(
          e.message,
          /^the team ledger postgres:\/\/alice@127\.0\.0\.1:\d+\/team could not be used: .*self[- ]signed certificate/i,
        );
        assert.ok(!e.message.includes(PASSWORD), 'no password in the message');
        return true;
      });
    } finally {
      await store.close();
    }
  },
);

test(
  "sslmode=require&uselibpqcompat=true: libpq's require, encrypted without checking the certificate",
  { timeout: PROCESS_MS },
  async () => {
    const seen = await encrypted('?sslmode=require&uselibpqcompat=true');
    assert.equal(seen.ssl, true);
  },
);

test('no sslmode: the same server, not encrypted (the check above can tell)', { timeout: PROCESS_MS }, async () => {
  const seen = await encrypted('');
  assert.equal(seen.ssl, false);
});
