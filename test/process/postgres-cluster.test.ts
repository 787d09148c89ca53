import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Client } from 'pg';
import { PROCESS_MS } from '../fixtures/deadlines';
import { startCluster, type Cluster } from '../fixtures/postgres/cluster';

// The throwaway cluster the team ledger's tests use: on loopback, roles with passwords, stopped and removed.

let cluster: Cluster;
before(
  async () => {
    cluster = await startCluster();
  },
  { timeout: PROCESS_MS },
);
after(() => cluster?.stop(), { timeout: PROCESS_MS });

test('a role signs in with its password over 127.0.0.1 and a wrong password is refused', { timeout: PROCESS_MS }, async () => {
  await cluster.createRole('alice', 'alice-pw');
  await cluster.createDatabase('team', ['alice']);
  const client = new Client({ connectionString: cluster.url('alice', 'alice-pw', 'team'), connectionTimeoutMillis: 30_000 });
  await client.connect();
  try {
    const rows = (await client.query('SELECT current_user AS who, host(inet_server_addr()) AS addr')).rows;
    assert.deepEqual(rows, [{ who: 'alice', addr: '127.0.0.1' }]);
  } finally {
    await client.end();
  }
  const wrong = new Client({ connectionString: cluster.url('alice', 'not-it', 'team'), connectionTimeoutMillis: 30_000 });
  await assert.rejects(wrong.connect(), /password authentication failed/);
});

test('the server stops and starts again on its port; stop() removes the folder', { timeout: PROCESS_MS }, async () => {
  await cluster.stopServer();
  await assert.rejects(cluster.sql('postgres', 'SELECT 1'), /ECONNREFUSED/);
  await cluster.startServer();
  assert.deepEqual(await cluster.sql('postgres', 'SELECT 1 AS one'), [{ one: 1 }]);
  const folder = cluster.folder;
  assert.ok(existsSync(folder));
  await cluster.stop();
  assert.equal(existsSync(folder), false);
});
