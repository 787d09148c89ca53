import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { lintCommand } from '../../src/cli/commands/lint';
import type { CliContext } from '../../src/cli/context';
import { runCommand } from '../../src/cli/parser';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { runApprove, runHistory, runLedger, runSubmit } from '../fixtures/cli/commands';
import { loadOrCreateDemoMerchant } from '../../src/local-gateway/merchant';
import { testContext } from '../fixtures/cli/context';
import { PROCESS_MS } from '../fixtures/deadlines';
import { createTeam, startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { Client } from 'pg';
import { PAYERS_QUERY } from '../../src/core/ledger/team/payers';
import { ownPayers } from '../fixtures/ledger/payers';

// The team ledger against a real PostgreSQL server (a throwaway cluster): `paygate ledger init` and
// `status`, two members (two HOMEs, two database roles) sending the same and edited files through one
// local gateway, races of files sharing rows (exactly one send per row, counted at the gateway), an
// outcome that created nothing freeing its rows, a wrong team key, and failing closed when the ledger is
// unreachable, silent, or stopped and started again mid-run.

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
let dir: string;
let cluster: Cluster;
let gw: LocalGateway;
let keyFile: string;
const PASSWORDS = { alice: 'alice secret:1', bob: 'bob-secret-2', carol: 'carol-3' } as const;
type Member = keyof typeof PASSWORDS;

interface Run {
  code: number;
  out: string;
  err: string;
}

/** A member's own machine: HOME, data and config folders; the shared team ledger and the local gateway's state. */
function member(who: Member, extra: Record<string, string> = {}): Record<string, string> {
  const home = join(dir, who);
  return {
    HOME: home,
    PAYGATE_DATA_DIR: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    PAYGATE_STATE_DIR: join(dir, 'state'),
    PAYGATE_LEDGER_URL: cluster.url(who, PASSWORDS[who], 'team'),
    PAYGATE_LEDGER_KEY_FILE: keyFile,
    PAYGATE_LEDGER_TIMEOUT_MS: '20000',
    ...extra,
  };
}

async function run(fn: (args: string[], ctx: CliContext) => Promise<number>, args: string[], env: Record<string, string>): Promise<Run> {
  let out = '';
  let err = '';
  const ctx = testContext({ stdout: (t) => void (out += t), stderr: (t) => void (err += t), env, cwd: dir });
  return { code: await fn(args, ctx), out, err };
}

const runLint = (args: string[], ctx: CliContext) => runCommand(lintCommand, args, ctx);

/** The example's data rows (each ending with CRLF) with their client-orderids tagged and cards of the tag's own (not same-payer). */
function rows(tag: string): { head: string; rows: string[] } {
  const [head, ...data] = ownPayers(validCsv.replace(/[A-Z]{3}-2027-/g, `${tag}-`), tag).split(/(?<=\r\n)(?=[A-Z])/);
  return { head, rows: data };
}

/** Writes a batch of the tagged rows picked by index; its name. */
function batch(name: string, tag: string, pick: number[] = [0, 1, 2, 3], edit: (row: string) => string = (r) => r): string {
  const b = rows(tag);
  writeFileSync(join(dir, name), b.head + pick.map((i) => edit(b.rows[i])).join(''));
  return name;
}

const local = () => ['--base-url', gw.baseUrl];

/** Payments at the local gateway per client-orderid (what a double send would show). */
function paymentsPerOrder(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of gw.payments()) counts.set(p['client-orderid'], (counts.get(p['client-orderid']) ?? 0) + 1);
  return counts;
}

function assertNoDoubles(): void {
  const doubles = [...paymentsPerOrder()].filter(([, n]) => n > 1);
  assert.deepEqual(doubles, [], 'no client-orderid was created twice');
}

before(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-team-ledger-'));
    for (const m of Object.keys(PASSWORDS)) mkdirSync(join(dir, m), { recursive: true });
    keyFile = join(dir, 'team.key');
    cluster = await startCluster();
    await createTeam(cluster, PASSWORDS);
    gw = await startLocalGateway({ stateDir: join(dir, 'state'), port: 0 });
  },
  { timeout: PROCESS_MS },
);

after(
  async () => {
    await gw?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
  { timeout: PROCESS_MS },
);

test(
  'ledger init makes the schema and a team key (0600, not in the database); again changes nothing; status',
  { timeout: PROCESS_MS },
  async () => {
    const admin = { HOME: join(dir, 'admin'), XDG_CONFIG_HOME: join(dir, 'admin', 'config') };
    const before = await run(runSubmit, [batch('early.rpcsv', 'EARLY'), ...local()], member('alice'));
    assert.equal(before.code, 2, before.err);
    assert.match(before.err, /holds no PayGate ledger yet: run 'paygate ledger init'/);

    const init = await run(
      runLedger,
      ['init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile, '--grant', 'paygate_team'],
      admin,
    );
    assert.equal(init.code, 0, init.err);
    assert.match(init.out, /schema created at version 3/);
    assert.match(init.out, /Team key written to .*team\.key \(mode 0600\)/);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    assert.match(key, /^[0-9a-f]{64}$/);
    const dump = JSON.stringify(await cluster.sql('team', 'SELECT * FROM paygate_meta'));
    assert.ok(!dump.includes(key), 'the key is not in the database');
    assert.match(dump, /key_check/);
    assert.ok(!init.out.includes(PASSWORDS.alice) && !init.out.includes('pw-'), 'no password printed');

    const again = await run(runLedger, ['init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile], admin);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /at version 3 already/);
    assert.match(again.out, /was made before; .* is it/);
    assert.equal(readFileSync(keyFile, 'utf8').trim(), key, 'the key file is kept as it was');

    // A second key made elsewhere is refused and not kept.
    const other = join(dir, 'other.key');
    const second = await run(runLedger, ['init', '--ledger', cluster.adminUrl('team'), '--key-out', other], admin);
    assert.equal(second.code, 1);
    assert.match(second.err, /was made before/);
    assert.throws(() => statSync(other), /ENOENT/);

    const status = await run(runLedger, ['status'], member('alice'));
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, /store: the team ledger postgres:\/\/alice@127\.0\.0\.1:\d+\/team/);
    assert.match(status.out, /role: alice\nschema version: 3\nrecords: 0\nteam key: matches/);
    assert.ok(!status.out.includes(PASSWORDS.alice));

    // Version 2: the same-payer lookup reaches the batches holding a fingerprint through the index, not by
    // reading every sent batch (the planner told to avoid a scan where it can: with a handful of rows it
    // would rather scan, and the point is that the query can use the index at all).
    const client = new Client({ connectionString: cluster.adminUrl('team'), connectionTimeoutMillis: 30_000 });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${PAYERS_QUERY}`, [['0'.repeat(32)]])).rows.map(
        (r) => r['QUERY PLAN'],
      );
      assert.match(plan.join('\n'), /Index Scan on paygate_batch_rows_fingerprints/);
    } finally {
      await client.end();
    }
  },
);

test(
  'two members: the same file, then an edited one sharing rows, are refused naming who sent them; history says the store and who',
  { timeout: PROCESS_MS },
  async () => {
    const sent = await run(runSubmit, [batch('march.rpcsv', 'MAR'), ...local()], member('alice'));
    assert.equal(sent.code, 0, sent.err);
    const count = gw.payments().length;

    const same = await run(runSubmit, [batch('march.rpcsv', 'MAR'), ...local()], member('bob'));
    assert.equal(same.code, 2);
    assert.match(same.err, /the same content was already sent to local, endpoint \w+: \S+ by alice from the CLI on /);
    const edited = await run(
      runSubmit,
      [batch('march-2.rpcsv', 'MAR', [3, 1], (r) => r.replace('Gym', 'Gym club')), ...local()],
      member('bob'),
    );
    assert.equal(edited.code, 2, edited.err);
    assert.match(edited.err, /march-2\.rpcsv:\d+: client-orderid "MAR-0004" was already sent by alice from the CLI on \S+ on /);
    assert.match(edited.err, /2 rows were already sent/);
    assert.equal(gw.payments().length, count, 'nothing was sent');

    const history = await run(runHistory, [], member('bob'));
    assert.equal(history.code, 0, history.err);
    assert.match(history.out, /accepted.*\(by alice from the CLI on /);
    assert.match(history.out, /submission\(s\) in the team ledger postgres:\/\/bob@127\.0\.0\.1:\d+\/team\n$/);
    const json = JSON.parse((await run(runHistory, ['--format', 'json'], member('bob'))).out) as {
      store: string;
      records: { role: string; host: string }[];
    };
    assert.equal(json.store, 'team');
    assert.equal(json.records[0].role, 'alice');
    assert.equal(json.records[0].host, hostname());

    // lint reads the team ledger too: already-sent on bob's machine, which never sent anything.
    const lint = await run(runLint, ['march-2.rpcsv'], member('bob'));
    assert.equal(lint.code, 1, lint.err);
    assert.match(lint.out, /already-sent/);
    assertNoDoubles();
  },
);

test('an outcome that created nothing frees its rows in the same transaction', { timeout: PROCESS_MS }, async () => {
  const closed = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
  const refused = await run(runSubmit, [batch('free.rpcsv', 'FREE'), '--base-url', `http://127.0.0.1:${closed}`], member('alice'));
  assert.equal(refused.code, 4, refused.err);
  const held = await cluster.sql(
    'team',
    "SELECT count(*)::int AS n FROM paygate_claimed_rows r JOIN paygate_submissions s ON s.id = r.submission_id WHERE s.record->>'file' LIKE '%free.rpcsv'",
  );
  assert.deepEqual(held, [{ n: 0 }]);
  const resent = await run(runSubmit, [batch('free.rpcsv', 'FREE'), ...local()], member('bob'));
  assert.equal(resent.code, 0, resent.err);
});

test(
  '22 races of two members with files sharing a row: exactly one sends each time, no payment twice',
  { timeout: PROCESS_MS },
  async () => {
    for (let i = 0; i < 22; i++) {
      const tag = `RACE${i}`;
      const a = batch(`race-${i}-a.rpcsv`, tag, [0, 1]);
      const b = batch(`race-${i}-b.rpcsv`, tag, [1, 2]);
      const [ra, rb] = await Promise.all([
        run(runSubmit, [a, ...local()], member('alice')),
        run(runSubmit, [b, ...local()], member('bob')),
      ]);
      const codes = [ra.code, rb.code].sort();
      assert.deepEqual(codes, [0, 2], `race ${i}: ${ra.err} ${rb.err}`);
      const loser = ra.code === 2 ? ra : rb;
      assert.match(loser.err, /already sent by (alice|bob) from the CLI/);
      const counts = paymentsPerOrder();
      assert.equal(counts.get(`${tag}-0002`), 1, `race ${i}: the shared row was created once`);
    }
    assertNoDoubles();
  },
);

test('a wrong team key is refused before anything is written', { timeout: PROCESS_MS }, async () => {
  const wrong = join(dir, 'wrong.key');
  writeFileSync(wrong, `${'ab'.repeat(32)}\n`, { mode: 0o600 });
  const count = (await cluster.sql('team', 'SELECT count(*)::int AS n FROM paygate_submissions'))[0].n;
  const r = await run(runSubmit, [batch('carol.rpcsv', 'CAROL'), ...local()], member('carol', { PAYGATE_LEDGER_KEY_FILE: wrong }));
  assert.equal(r.code, 2);
  assert.match(
    r.err,
    /nothing was sent: the team ledger postgres:\/\/carol@127\.0\.0\.1:\d+\/team could not be used: the team key .*wrong\.key is not this ledger's/,
  );
  assert.deepEqual(await cluster.sql('team', 'SELECT count(*)::int AS n FROM paygate_submissions'), [{ n: count }]);
  const status = await run(runLedger, ['status'], member('carol', { PAYGATE_LEDGER_KEY_FILE: wrong }));
  assert.equal(status.code, 1);
  assert.match(status.out, /team key: does NOT match/);
  const none = await run(runSubmit, [batch('carol.rpcsv', 'CAROL'), ...local()], member('carol', { PAYGATE_LEDGER_KEY_FILE: '' }));
  assert.equal(none.code, 2);
  assert.match(none.err, /no team key: set PAYGATE_LEDGER_KEY_FILE/);
});

test(
  'fails closed: an unreachable ledger, a silent one (bounded), a wrong password; lint says the guard was not checked',
  { timeout: PROCESS_MS },
  async () => {
    const count = gw.payments().length;
    const closedPort = cluster.port + 1;
    const unreachable = await run(
      runSubmit,
      [batch('closed.rpcsv', 'CLOSED'), ...local()],
      member('alice', {
        PAYGATE_LEDGER_URL: `postgres://alice:${encodeURIComponent(PASSWORDS.alice)}@127.0.0.1:${closedPort}/team`,
      }),
    );
    assert.equal(unreachable.code, 2);
    assert.match(
      unreachable.err,
      /nothing was sent: the team ledger postgres:\/\/alice@127\.0\.0\.1:\d+\/team could not be used: connection refused/,
    );
    assert.ok(!unreachable.err.includes(PASSWORDS.alice) && !unreachable.err.includes(encodeURIComponent(PASSWORDS.alice)));

    // A server that takes the connection and never answers: refused after the timeout, not hung.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const slow = await run(
        runSubmit,
        [batch('closed.rpcsv', 'CLOSED'), ...local()],
        member('alice', {
          PAYGATE_LEDGER_URL: `postgres://alice@127.0.0.1:${port}/team`,
          PAYGATE_LEDGER_TIMEOUT_MS: '1500',
        }),
      );
      assert.equal(slow.code, 2);
      assert.match(slow.err, /the team ledger postgres:\/\/alice@127\.0\.0\.1:\d+\/team could not be used: no answer within 1500 ms/);
      const lint = await run(
        runLint,
        ['closed.rpcsv'],
        member('alice', { PAYGATE_LEDGER_URL: `postgres://alice@127.0.0.1:${port}/team`, PAYGATE_LEDGER_TIMEOUT_MS: '1500' }),
      );
      assert.match(lint.err, /the resend guard could not be checked/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }

    const badPassword = await run(
      runSubmit,
      [batch('closed.rpcsv', 'CLOSED'), ...local()],
      member('alice', {
        PAYGATE_LEDGER_URL: cluster.url('alice', 'not-it', 'team'),
      }),
    );
    assert.equal(badPassword.code, 2);
    assert.match(badPassword.err, /password authentication failed for user "alice"/);
    assert.ok(!badPassword.err.includes('not-it'));
    assert.equal(gw.payments().length, count, 'nothing was sent');
  },
);

test('the password from PGPASSWORD or ~/.pgpass when the URL has none', { timeout: PROCESS_MS }, async () => {
  const noPw = `postgres://bob@127.0.0.1:${cluster.port}/team`;
  const env = member('bob', { PAYGATE_LEDGER_URL: noPw, PGPASSWORD: PASSWORDS.bob });
  const viaEnv = await run(runLedger, ['status'], env);
  assert.equal(viaEnv.code, 0, viaEnv.err);
  const pass = join(dir, 'bob', '.pgpass');
  writeFileSync(pass, `# team\n127.0.0.1:${cluster.port}:team:bob:${PASSWORDS.bob.replace(/:/g, '\\:')}\n`, { mode: 0o600 });
  const viaFile = await run(runLedger, ['status'], member('bob', { PAYGATE_LEDGER_URL: noPw }));
  assert.equal(viaFile.code, 0, viaFile.err);
  assert.match(viaFile.out, /role: bob/);
});

test(
  'the database stopped and started mid-run: refused while down, nothing sent; sends again once back',
  { timeout: PROCESS_MS },
  async () => {
    assert.equal((await run(runSubmit, [batch('before.rpcsv', 'BEFORE'), ...local()], member('alice'))).code, 0);
    await cluster.stopServer();
    const count = gw.payments().length;
    try {
      const down = await run(runSubmit, [batch('down.rpcsv', 'DOWN'), ...local()], member('bob'));
      assert.equal(down.code, 2);
      assert.match(down.err, /nothing was sent: the team ledger .* could not be used: connection refused/);
      assert.equal(gw.payments().length, count);
    } finally {
      await cluster.startServer();
    }
    const back = await run(runSubmit, [batch('down.rpcsv', 'DOWN'), ...local()], member('bob'));
    assert.equal(back.code, 0, back.err);
    const again = await run(runSubmit, [batch('before.rpcsv', 'BEFORE'), ...local()], member('bob'));
    assert.equal(again.code, 2);
    assert.match(again.err, /by alice from the CLI/);
    assertNoDoubles();
  },
);

test(
  'ledger push copies a file ledger in once; rows kept when the sent file is on disk, else file-level and listed',
  { timeout: PROCESS_MS },
  async () => {
    const fileOnly = { PAYGATE_LEDGER_URL: '' };
    assert.equal((await run(runSubmit, [batch('kept.rpcsv', 'KEPT'), ...local()], member('alice', fileOnly))).code, 0);
    assert.equal((await run(runSubmit, [batch('gone.rpcsv', 'GONE'), ...local()], member('alice', fileOnly))).code, 0);
    rmSync(join(dir, 'gone.rpcsv'));
    const first = await run(runLedger, ['push'], member('alice'));
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /^\d+ record\(s\) of .*ledger\.jsonl pushed into the team ledger postgres:\/\/alice@/);
    assert.match(first.out, /1 send\(s\) with their rows under the team key/);
    assert.match(first.out, /1 send\(s\) pushed file-level only .*\n.*gone\.rpcsv/);
    const count = await cluster.sql('team', 'SELECT count(*)::int AS n FROM paygate_submissions');
    const again = await run(runLedger, ['push'], member('alice'));
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /^0 record\(s\) of .* pushed into .*, \d+ were there already; 0 send\(s\)/);
    assert.deepEqual(await cluster.sql('team', 'SELECT count(*)::int AS n FROM paygate_submissions'), count, 'nothing doubled');

    // The pushed sends guard the team: the same file, and an edit sharing its rows, from bob's machine.
    const same = await run(runSubmit, [batch('kept.rpcsv', 'KEPT'), ...local()], member('bob'));
    assert.equal(same.code, 2);
    assert.match(same.err, /already sent .* by alice from the CLI/);
    const edited = await run(
      runSubmit,
      [batch('kept-2.rpcsv', 'KEPT', [0, 2], (r) => r.replace('Gym', 'Gym club')), ...local()],
      member('bob'),
    );
    assert.equal(edited.code, 2);
    assert.match(edited.err, /client-orderid "KEPT-0001" was already sent by alice/);
    const gone = await run(runSubmit, [batch('gone.rpcsv', 'GONE'), ...local()], member('bob'));
    assert.equal(gone.code, 2, 'the file-level send still holds its content');
    assertNoDoubles();
  },
);

test(
  'approvals: the file ledger refuses; an own approval does not count; an edit voids; two others let it through',
  { timeout: PROCESS_MS },
  async () => {
    const merchant = loadOrCreateDemoMerchant(join(dir, 'state'));
    const config = join(dir, 'approvals.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        environments: [
          {
            name: 'checked',
            baseUrl: gw.baseUrl,
            reportBaseUrl: gw.baseUrl,
            endpointId: merchant.endpointId,
            consumerKey: merchant.consumerKey,
            approvals: 2,
          },
        ],
        environment: 'checked',
      }),
    );
    const as = (who: Member, extra: Record<string, string> = {}) =>
      member(who, { PAYGATE_CONSUMER_SECRET: merchant.consumerSecret, ...extra });
    const args = (file: string) => [file, '--config', config];
    const f = batch('approved.rpcsv', 'APPR');
    const count = gw.payments().length;

    const fileLedger = await run(runSubmit, args(f), as('alice', { PAYGATE_LEDGER_URL: '' }));
    assert.equal(fileLedger.code, 2);
    assert.match(fileLedger.err, /"checked" needs 2 approval\(s\) .* approvals live in the team ledger, not in this machine's file ledger/);

    assert.equal((await run(runApprove, args(f), as('alice'))).code, 0);
    const own = await run(runSubmit, args(f), as('alice'));
    assert.equal(own.code, 2);
    assert.match(own.err, /it has 0 \(your own approval does not count\)/);

    const bob = await run(runApprove, args(f), as('bob'));
    assert.equal(bob.code, 0, bob.err);
    assert.match(bob.out, /Approved: approved\.rpcsv .* for checked by bob\.\nApprovals of this content for checked: alice \(.*\), bob \(/);
    const one = await run(runSubmit, args(f), as('alice'));
    assert.equal(one.code, 2);
    assert.match(one.err, /it has 1: approved by bob \(/);

    // An edit is another content: carol's approval of it does not count for the original, nor bob's for it.
    const edited = batch('approved-edit.rpcsv', 'APPR', [0, 1, 2, 3], (r) => r.replace('Gym', 'Gym club'));
    assert.equal((await run(runApprove, args(edited), as('carol'))).code, 0);
    const voided = await run(runSubmit, args(edited), as('alice'));
    assert.equal(voided.code, 2);
    assert.match(voided.err, /it has 1: approved by carol/);
    assert.equal(gw.payments().length, count, 'nothing was sent');

    assert.equal((await run(runApprove, args(f), as('carol'))).code, 0);
    const sent = await run(runSubmit, args(f), as('alice'));
    assert.equal(sent.code, 0, sent.err);
    assert.match(sent.out, /Approved by bob \(.*\), carol \(/);
    const history = await run(runHistory, [], as('bob'));
    assert.match(history.out, /approved\.rpcsv[^\n]*\n[^\n]*\n\s+approved for checked by alice \(.*\), bob \(.*\), carol \(/);
    assertNoDoubles();
  },
);
