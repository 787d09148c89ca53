import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { prepareSubmission, type Environment } from '../../src/core/gateway';
import { createRecurringPaymentsUrl } from '../../src/core/gateway/environments';
import { batchRowKeys, type NewSubmission } from '../../src/core/ledger';
import { targetKey, targetOf } from '../../src/core/ledger/target';
import { writeNewTeamKey, type TeamKey } from '../../src/core/ledger/team/key';
import { TeamLedger } from '../../src/core/ledger/team/teamLedger';
import { newSubmission, sendThrough } from '../fixtures/ledger/entry';
import { PROCESS_MS } from '../fixtures/deadlines';
import { ownCard } from '../fixtures/ledger/payers';
import { createTeam, startCluster, type Cluster } from '../fixtures/postgres/cluster';

// The identity of a target in the team ledger (issue 37, item 5), against a real PostgreSQL (a throwaway
// cluster): two environments whose base URL and endpoint id are the same (as URLs read them) are one target,
// as they are for the file ledger (test/process/ledger-target.test.ts). The database's claims decide a race,
// so they are keyed on that identity (target.ts `targetKey`), not on the environment's name: alice, asked to
// confirm her production send of a batch under "prod", answers after bob sent the same batch under "prod-eu"
// (the same gateway, written another way), and her send is refused. Keyed on the name (schema version 2),
// both claims committed and the batch went twice. Claims made before (version 2, keyed on the name) are
// re-keyed by `paygate ledger init` (schema version 3), so they are still found.

const HEADER = readFileSync(join(__dirname, '..', '..', 'examples', 'valid.rpcsv'), 'utf8').split('\r\n')[0];
const PASSWORDS = { alice: 'alice-pw-1', bob: 'bob-pw-2' } as const;
let dir: string;
let cluster: Cluster;
let key: TeamKey;

const environment = (name: string, baseUrl: string): Environment => ({
  name,
  baseUrl,
  reportBaseUrl: baseUrl,
  endpointId: '1001',
  consumerKey: 'merchant',
  production: true,
});
const PROD = environment('prod', 'https://gw.example.com/paygate');
/** The same gateway and endpoint under another name, its URL written another way. */
const PROD_EU = environment('prod-eu', 'HTTPS://GW.Example.COM:443/paygate/');
const OTHER = environment('prod-us', 'https://gw-us.example.com/paygate');

/** A card of its own per id: the same card under another id would be same-payer. */
function batchOf(ids: readonly string[], amount = '10.00'): string {
  const rows = ids.map((id) => `${id};DST;x;;;;;;;;;;;;;;;${amount};;;;EUR;P;${ownCard(id)};05;2030;;;`);
  return [HEADER, ...rows].join('\r\n') + '\r\n';
}

const to = (env: Environment): Partial<NewSubmission> => ({
  environment: env.name,
  endpointId: env.endpointId,
  endpoint: createRecurringPaymentsUrl(env),
  production: true,
});

function store(who: keyof typeof PASSWORDS | 'admin', database: string): TeamLedger {
  const url = who === 'admin' ? cluster.adminUrl(database) : cluster.url(who, PASSWORDS[who], database);
  return new TeamLedger({ url: new URL(url), env: { PAYGATE_LEDGER_TIMEOUT_MS: '60000' }, home: dir, key });
}

async function initLedger(database: string): Promise<void> {
  const admin = store('admin', database);
  try {
    await admin.init(key, ['paygate_team']);
  } finally {
    await admin.close();
  }
}

before(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-team-target-'));
    cluster = await startCluster();
    await createTeam(cluster, PASSWORDS);
    await cluster.createDatabase('old', []);
    key = writeNewTeamKey(join(dir, 'team.key'));
    await initLedger('team');
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

/**
 * Alice sends `aliceText` to `aliceTo` and is asked to confirm (a production send: the guard has passed,
 * nothing is claimed yet); while the question is open bob sends `bobText` to `bobTo`; then she confirms.
 */
async function race(aliceTo: Environment, aliceText: string, bobTo: Environment, bobText: string) {
  const alice = store('alice', 'team');
  const bob = store('bob', 'team');
  let sends = 0;
  const send = async () => `sent ${++sends}`;
  try {
    let asked!: () => void;
    const askedNow = new Promise<void>((r) => (asked = r));
    let answer!: (yes: boolean) => void;
    const first = sendThrough(alice, aliceText, to(aliceTo), {
      send,
      confirmSend: () => {
        asked();
        return new Promise<boolean>((r) => (answer = r));
      },
    });
    await askedNow;
    const second = await sendThrough(bob, bobText, to(bobTo), { send });
    answer(true);
    return { alice: await first, bob: second, sends };
  } finally {
    await alice.close();
    await bob.close();
  }
}

test(
  'a batch sent under one name refuses the same batch, and its rows, under another name for the same base URL and endpoint',
  { timeout: PROCESS_MS },
  async () => {
    const same = await race(PROD, batchOf(['T-1', 'T-2']), PROD_EU, batchOf(['T-1', 'T-2']));
    assert.equal(same.bob.status, 'sent');
    assert.equal(same.alice.status, 'raced', 'the same content, claimed at the same target under another name');
    assert.equal(same.sends, 1, 'sent once');

    const edited = await race(PROD, batchOf(['E-1', 'E-2', 'E-3'], '11.00'), PROD_EU, batchOf(['E-1', 'E-2']));
    assert.equal(edited.bob.status, 'sent');
    assert.equal(edited.alice.status, 'already-sent', 'its rows, claimed at the same target under another name');
    assert.deepEqual(edited.alice.status === 'already-sent' && edited.alice.rows.map((r) => r.orderId), ['E-1', 'E-2']);
    assert.equal(edited.sends, 1, 'sent once');

    // Another gateway is another target; one after the other, the guard reads the same identity.
    const other = await race(OTHER, batchOf(['O-1']), PROD, batchOf(['O-1']));
    assert.deepEqual([other.bob.status, other.alice.status, other.sends], ['sent', 'sent', 2]);
    const alice = store('alice', 'team');
    try {
      assert.equal((await sendThrough(alice, batchOf(['T-1', 'T-2']), to(PROD))).status, 'duplicate');
    } finally {
      await alice.close();
    }
  },
);

/** A claim as schema version 2 keyed it: the environment's name, the endpoint id, the local gateway. */
const OLD_PROD = JSON.stringify(['prod', '1001', null]);
const OLD_PROD_EU = JSON.stringify(['prod-eu', '1001', null]);

test(
  'claims made under the environment name (schema version 2) are re-keyed by ledger init and still found under either name',
  { timeout: PROCESS_MS },
  async () => {
    await initLedger('old');
    const text = batchOf(['H-1', 'H-2']);
    const bob = store('bob', 'old');
    const sent = await sendThrough(bob, text, to(PROD));
    await bob.close();
    assert.ok(sent.status === 'sent');
    const id = sent.record.id;
    // The ledger as version 2 left it: bob's claims keyed on "prod", and a twin of his send under "prod-eu"
    // (the same rows sent twice under two names, which version 2 let through), newer, with its own claims.
    for (const sql of [
      `UPDATE paygate_submissions SET target = '${OLD_PROD}'`,
      `UPDATE paygate_claimed_contents SET target = '${OLD_PROD}'`,
      `UPDATE paygate_claimed_rows SET target = '${OLD_PROD}'`,
      `INSERT INTO paygate_submissions (id, target, content_hash, state, role, host, face, record)
       SELECT 'twin', '${OLD_PROD_EU}', content_hash, state, role, host, face,
              record || '{"id": "twin", "environment": "prod-eu"}'::jsonb FROM paygate_submissions WHERE id = '${id}'`,
      `INSERT INTO paygate_claimed_contents SELECT '${OLD_PROD_EU}', content_hash, 'twin' FROM paygate_claimed_contents`,
      `INSERT INTO paygate_claimed_rows SELECT '${OLD_PROD_EU}', row_key, 'twin' FROM paygate_claimed_rows`,
      `UPDATE paygate_meta SET value = '2' WHERE key = 'schema_version'`,
    ])
      await cluster.sql('old', sql);

    const early = store('alice', 'old');
    await assert.rejects(early.recent(1), /its schema is version 2: run 'paygate ledger init' to bring it to version 3/);
    await early.close();
    await initLedger('old');

    const identity = targetKey(targetOf({ environment: 'prod-eu', endpointId: '1001', endpoint: createRecurringPaymentsUrl(PROD_EU) }));
    assert.equal(identity, targetKey(targetOf({ environment: 'prod', endpointId: '1001', endpoint: createRecurringPaymentsUrl(PROD) })));
    const claims = await cluster.sql(
      'old',
      `SELECT 'content' AS kind, target, submission_id FROM paygate_claimed_contents
       UNION ALL SELECT 'row', target, submission_id FROM paygate_claimed_rows ORDER BY 1`,
    );
    assert.deepEqual(
      claims.map((c) => [c.kind, c.target, c.submission_id]),
      [
        ['content', identity, 'twin'],
        ['row', identity, 'twin'],
        ['row', identity, 'twin'],
      ],
      'one claim per content and row at the target, the newest holder kept',
    );

    const alice = store('alice', 'old');
    try {
      for (const env of [PROD, PROD_EU]) {
        const prepared = prepareSubmission(text);
        const entry = newSubmission({ ...to(env), contentHash: prepared.contentHash, rowCount: prepared.rowCount });
        const rows = batchRowKeys(prepared.lint.batch, (await alice.secret(false))!);
        const held = await alice.claim(entry, rows, new Set());
        assert.equal(held.status, 'content-held', `${env.name}: the content claimed before the migration is held`);
        const edited = prepareSubmission(batchOf(['H-1', 'H-2'], '12.00'));
        const editedEntry = newSubmission({ ...to(env), contentHash: edited.contentHash, rowCount: edited.rowCount });
        const editedRows = batchRowKeys(edited.lint.batch, (await alice.secret(false))!);
        const rowsHeld = await alice.claim(editedEntry, editedRows, new Set());
        assert.equal(rowsHeld.status, 'rows-held', `${env.name}: the rows claimed before the migration are held`);
      }
    } finally {
      await alice.close();
    }
  },
);
