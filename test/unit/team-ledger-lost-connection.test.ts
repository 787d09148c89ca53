// A team ledger connection the server ends while a transaction holds it, between two queries (PostgreSQL
// stopping: "terminating connection due to administrator command"). pg emits that as an 'error' event on
// the client, and the pool listens only on the connections it holds idle: without a listener of ours the
// event was thrown in the process (the editor's integration suite saw it when its cluster stopped). It must
// end the transaction as a TeamLedgerError instead, the connection dropped from the pool. A stand-in
// connection replaces the pool's (pg.Pool's connect), so no server is needed.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import pg from 'pg';
import { TeamLedger } from '../../src/core/ledger/team/teamLedger';
import { TeamLedgerError } from '../../src/core/ledger/team/rows';

/** A connection that answers BEGIN, is ended by the server during SET, then fails every query as pg does. */
class EndedConnection extends EventEmitter {
  ended = false;
  released: unknown[] = [];
  query(text: string): Promise<{ rows: unknown[] }> {
    if (this.ended) return Promise.reject(new Error('Client has encountered a connection error and is not queryable'));
    if (!text.startsWith('SET')) return Promise.resolve({ rows: [] });
    // The server's message arrives on the socket in a later turn, as the connection's 'error' event.
    return new Promise((resolve) =>
      setImmediate(() => {
        this.ended = true;
        this.emit('error', new Error('terminating connection due to administrator command'));
        resolve({ rows: [] });
      }),
    );
  }
  release(broken: unknown): void {
    this.released.push(broken);
  }
}

test('a connection the server ends in the middle of a transaction fails that transaction, never the process', async (t) => {
  const connection = new EndedConnection();
  t.mock.method(pg.Pool.prototype, 'connect', () => Promise.resolve(connection));
  const ledger = new TeamLedger({ url: new URL('postgres://bob@127.0.0.1:1/team'), env: {}, home: '/nonexistent' });
  try {
    await assert.rejects(ledger.allApprovals(), (err: unknown) => err instanceof TeamLedgerError && /not queryable/.test(String(err)));
    assert.deepEqual(connection.released, [true], 'the ended connection is dropped from the pool, not reused');
    assert.equal(connection.listenerCount('error'), 0, 'and nothing of ours is left listening on it');
  } finally {
    await ledger.close();
  }
});
