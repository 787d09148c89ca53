import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardedSend, Ledger, type LedgerStore } from '../../src/core/ledger';
import { writeNewTeamKey } from '../../src/core/ledger/team/key';
import { targetKey, targetOf } from '../../src/core/ledger/target';
import { TeamLedger } from '../../src/core/ledger/team/teamLedger';
import { readBatch } from '../../src/core/rules/batch';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { ownCard } from '../fixtures/ledger/payers';
import { startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { benchEntry, writeHistory } from './ledgerHistory';
import { median, writeReadmeSection } from './report';
import { machineHeader } from './table';

// `npm run bench:team`: the team ledger (PostgreSQL, a throwaway cluster on this machine: test/fixtures/
// postgres/cluster.ts) against the file ledger, in one run, at an empty ledger and at 1,000,000 records of
// one row each (a million claimed rows). For each store and size: the guard check (`ledgerDiagnostics`:
// already-sent and cvv-after-send of a new 3-row batch, what lint and the language server ask) and a submit
// (both guards, then the ledger's writes: the claim transaction or the fsynced lines, the completion; the
// request left out, a stand-in send). Each round opens every store anew (a new process's first read, a
// new connection pool), the stores take turns, three rounds of 7; medians of the 21. The team ledger's
// history is written with SQL (generate_series) in the shape sends leave it (submissions, claims, each
// batch's rows); the file ledger's as the ledger bench writes it (ledgerHistory.ts). The figures are
// ratios: team ÷ file at the same size, and each store at 1M ÷ itself empty. The guard check includes the
// same-payer lookup (payers.ts: through the fingerprint index of schema version 2; before it, a read of
// every sent batch's rows made the guard check 89× its empty figure at 100,000 records).
// PAYGATE_BENCH_TEAM_SCALE=N divides the million by N (a quick run).

const SCALE = Math.max(1, Number(process.env.PAYGATE_BENCH_TEAM_SCALE ?? 1) || 1);
const BIG = Math.round(1_000_000 / SCALE);
const SIZES = [0, BIG];
const ROUNDS = 3;
const PER_ROUND = 7;
const HEADER = 'client-orderid;rp_card_type;credit-card-number;expire-month;expire-year;amount;currency;card-printed-name';
const TARGET = { environment: 'local', endpointId: '1001' };

function newBatch(i: number) {
  // A card of its own per row: the same card under another id would be same-payer, and refused.
  const rows = [0, 1, 2].map(
    (r) => `NEW-${i}-${Date.now()}-${r};DST;${ownCard(`bench-${i}-${r}-${Date.now()}`)};05;2031;10.00;EUR;PARTNER LTD`,
  );
  return readBatch([HEADER, ...rows].join('\r\n') + '\r\n');
}

/** `n` accepted one-row submissions in the team ledger's tables, as claims leave them. */
async function fillTeam(cluster: Cluster, db: string, n: number): Promise<void> {
  if (n === 0) return;
  const e = benchEntry(0, 'old', 1);
  const target = targetKey(targetOf(e));
  const record = { ...e, recurringPaymentIds: [], serialNumbers: [], statuses: [], outcome: 'accepted', httpStatus: 200 };
  await cluster.sql(
    db,
    `INSERT INTO paygate_submissions (id, target, content_hash, state, role, host, face, created_at, completed_at, record)
     SELECT 'old-' || i, $1, encode(sha256(('old-' || i)::bytea), 'hex'), 'done', current_user, 'bench', 'cli', now(), now(),
            $2::jsonb || jsonb_build_object('id', 'old-' || i, 'time', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
              'contentHash', encode(sha256(('old-' || i)::bytea), 'hex'), 'file', '/home/merchant/batches/old-' || i || '.rpcsv')
     FROM generate_series(1, $3::int) AS i`,
    [target, JSON.stringify(record), n],
  );
  await cluster.sql(
    db,
    'INSERT INTO paygate_claimed_contents (target, content_hash, submission_id) SELECT target, content_hash, id FROM paygate_submissions',
  );
  // One row key each, as the 24-hex-digit keyed hash (rowKeys.ts) of its client-orderid would be.
  await cluster.sql(
    db,
    `INSERT INTO paygate_claimed_rows (target, row_key, submission_id)
     SELECT $1, substr(encode(sha256(('row-' || i)::bytea), 'hex'), 1, 24), 'old-' || i FROM generate_series(1, $2::int) AS i`,
    [target, n],
  );
  // Each sent batch's rows (key, masked id, line, fingerprint, value hashes), as a send stores them: what
  // diff, reconcile and the same-payer check (payers.ts: a scan of these, no index) read.
  await cluster.sql(
    db,
    `INSERT INTO paygate_batch_rows (content_hash, batch)
     SELECT encode(sha256(('old-' || i)::bytea), 'hex'), jsonb_build_object(
       'columns', $2::jsonb,
       'rows', jsonb_build_array(jsonb_build_object(
         'key', substr(encode(sha256(('row-' || i)::bytea), 'hex'), 1, 24), 'orderId', 'OLD-' || i, 'line', 2,
         'fingerprint', substr(encode(sha256(('fp-' || i)::bytea), 'hex'), 1, 32), 'values', $3::text)))
     FROM generate_series(1, $1::int) AS i`,
    [
      n,
      JSON.stringify(HEADER.split(';')),
      HEADER.split(';')
        .map(() => '00000000')
        .join(' '),
    ],
  );
  await cluster.sql(db, 'ANALYZE');
}

interface Samples {
  guard: number[];
  submit: number[];
}

/** One round: PER_ROUND guard checks and submits of new batches. */
async function measure(store: LedgerStore, round: number, into: Samples): Promise<void> {
  for (let i = 0; i < PER_ROUND; i++) {
    const batch = newBatch(round * 100 + i);
    const t0 = performance.now();
    await ledgerDiagnostics(store, batch, { target: TARGET });
    into.guard.push(performance.now() - t0);
    const t1 = performance.now();
    const r = await guardedSend({
      ledger: store,
      entry: benchEntry(round * 100 + i, `new-${Date.now()}`, 3),
      batch,
      send: async () => 'sent',
      completion: () => ({ outcome: 'accepted' }),
    });
    into.submit.push(performance.now() - t1);
    if (r.status !== 'sent') throw new Error(`bench submit: ${r.status}`);
  }
}

async function main(): Promise<void> {
  console.log(machineHeader());
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-team-'));
  const cluster = await startCluster();
  try {
    const version = String((await cluster.sql('postgres', 'SHOW server_version'))[0].server_version).split(' ')[0];
    const key = writeNewTeamKey(join(dir, 'team.key'));
    const stores: { label: string; n: number; open: () => LedgerStore; samples: Samples }[] = [];
    for (const n of SIZES) {
      const db = `team_${n}`;
      await cluster.createDatabase(db, []);
      const admin = new TeamLedger({ url: new URL(cluster.adminUrl(db)), env: {}, home: dir, key });
      await admin.init(key, []);
      await admin.close();
      const t0 = performance.now();
      await fillTeam(cluster, db, n);
      const fileDir = join(dir, `file-${n}`);
      writeHistory(fileDir, n, (i) => [`OLD-${i}`]);
      console.log(`${n.toLocaleString('en-US')} records written to both stores in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      stores.push({ label: 'file', n, open: () => new Ledger(fileDir), samples: { guard: [], submit: [] } });
      stores.push({
        label: 'team',
        n,
        open: () => new TeamLedger({ url: new URL(cluster.adminUrl(db)), env: {}, home: dir, key }),
        samples: { guard: [], submit: [] },
      });
    }
    for (let round = 0; round < ROUNDS; round++)
      for (const s of stores) {
        const store = s.open();
        try {
          await measure(store, round, s.samples);
        } finally {
          if (store.kind === 'team') await store.close();
        }
        console.log(
          `round ${round + 1}, ${s.label} ledger, ${s.n} records: guard ${median(s.samples.guard).toFixed(1)} ms, submit ${median(s.samples.submit).toFixed(1)} ms`,
        );
      }
    const at = (label: string, n: number) => stores.find((s) => s.label === label && s.n === n)!.samples;
    const m = (xs: number[]) => median(xs);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const row = (what: 'guard' | 'submit', name: string) =>
      `| ${name} | ${m(at('file', 0)[what]).toFixed(1)} | ${m(at('team', 0)[what]).toFixed(1)} | ${m(at('file', BIG)[what]).toFixed(1)} | ${m(at('team', BIG)[what]).toFixed(1)} | ${ratio(m(at('team', BIG)[what]), m(at('file', BIG)[what]))} | ${ratio(m(at('team', BIG)[what]), m(at('team', 0)[what]))} | ${ratio(m(at('file', BIG)[what]), m(at('file', 0)[what]))} |`;
    const size = BIG.toLocaleString('en-US');
    const body = [
      `Team ledger (PostgreSQL ${version}, a throwaway cluster on this machine, loopback, fsync off) against the file ledger, in one run: an empty ledger and ${size} one-row records${SCALE > 1 ? ` (PAYGATE_BENCH_TEAM_SCALE=${SCALE}: 1,000,000 ÷ ${SCALE})` : ''}. "guard check" is already-sent, same-payer and cvv-after-send of a new 3-row batch (what lint and the language server ask; the team ledger finds same-payer rows through its fingerprint index, schema version 2); "submit" is both guards and the ledger's writes of that batch (the team ledger's claim transaction and completion; the file ledger's fsynced lines), the request left out. Each round opens every store anew; three rounds of 7, medians of the 21, in ms. \`npm run bench:team\` rewrites this table.`,
      '',
      `| | file, empty | team, empty | file, ${size} | team, ${size} | team ÷ file at ${size} | team ${size} ÷ empty | file ${size} ÷ empty |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('guard', 'guard check'),
      row('submit', 'submit'),
    ].join('\n');
    console.log(`\n${body}`);
    if (process.env.PAYGATE_BENCH_NO_README !== '1') writeReadmeSection('team-ledger', body);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
