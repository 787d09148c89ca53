import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintOf } from '../../src/core/ledger/rowKeys';
import type { LedgerSecret } from '../../src/core/ledger/secret';
import { readBatch } from '../../src/core/rules/batch';
import { generateBatch } from './generate';
import { writeHistory, type HistoryRow } from './ledgerHistory';
import { median } from './report';
import { atMost, targetLines } from './table';

// `paygate lint` with the row guard, as a user with a ledger runs it: a 100,000-row batch (the lint
// bench's, each row a card of its own) against a history of 1,000,000 rows (10,000 accepted submissions of
// 100 rows, with their row records and payer entries: every tenth row of the batch among them under its
// own id, already-sent; every hundredth, fifth after, under another id with its card and schedule,
// same-payer), each run a cold process of the production CLI with its default flags (the file is outside
// any git work tree). References in the same run, taken in turn: the same command with --no-ledger (what
// CI without a ledger runs), and node parsing the file with uDSV. Each process's CPU time (user + system,
// its own threads included: process.cpuUsage at exit) is taken beside its wall time: on a machine others
// load, the CPU ratio is the one that holds. Target (decided here, the issue names none): the guard costs
// at most half of lint's own time, as the ledger's submit at 1M.

const ROOT = join(__dirname, '..', '..');
const RUNS = 5;
const SCALE = Math.max(1, Number(process.env.PAYGATE_BENCH_LEDGER_SCALE ?? 1) || 1);
const BATCH_ROWS = 100_000 / SCALE;
const RECORDS = 10_000 / SCALE;
const ROWS_PER_RECORD = 100;
const UDSV = `const { inferSchema, initParser } = require(${JSON.stringify(join(ROOT, 'node_modules', 'udsv'))});
const text = require('fs').readFileSync(process.argv[1], 'utf8');
process.stdout.write(String(initParser(inferSchema(text, { col: ';' })).stringArrs(text).length));`;
/** Preloaded in every measured process: its CPU time, written where PAYGATE_BENCH_CPU says as it exits. */
const CPU = `process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeFileSync(process.env.PAYGATE_BENCH_CPU, String((u.user + u.system) / 1000)); });`;

/** History row g: a batch row already sent (every tenth), the same payer under another id (every hundredth, fifth after), else a row of its own. */
function historyRow(g: number, fingerprint: (g: number) => string): string | HistoryRow {
  if (g >= BATCH_ROWS) return `HIST-${g}`;
  if (g % 10 === 0) return { id: `ORD-${String(g).padStart(7, '0')}`, fingerprint: fingerprint(g) };
  if (g % 100 === 5) return { id: `PREV-${g}`, fingerprint: fingerprint(g) };
  return `HIST-${g}`;
}

interface Run {
  ms: number;
  cpu: number;
  out: string;
}

function timed(args: string[], env: Record<string, string>, cwd: string, preload: string): Run {
  const cpuFile = join(cwd, 'cpu.txt');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', preload, ...args], {
    cwd,
    env: { ...process.env, ...env, PAYGATE_BENCH_CPU: cpuFile },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 300_000,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: Number(readFileSync(cpuFile, 'utf8')), out: r.stdout };
}

type Listed = { files: { diagnostics: { code: string }[]; omitted?: { errors: number; warnings: number } }[] };

export function benchLedgerLint(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-ledger-lint-'));
  try {
    const preload = join(dir, 'cpu.cjs');
    writeFileSync(preload, CPU);
    const text = generateBatch(BATCH_ROWS, { ownCards: true });
    const file = join(dir, 'batch.rpcsv');
    writeFileSync(file, text);
    const batch = readBatch(text);
    let fingerprints: string[] | undefined;
    const fingerprintAt = (secret: LedgerSecret) => (g: number) => {
      const of = fingerprintOf(secret, batch.columnIndex);
      fingerprints ??= batch.rows.map((row) => of(row.record.values));
      return fingerprints[g];
    };
    const ledger = join(dir, 'ledger');
    writeHistory(
      ledger,
      RECORDS,
      (i, secret) => Array.from({ length: ROWS_PER_RECORD }, (_, r) => historyRow(i * ROWS_PER_RECORD + r, fingerprintAt(secret))),
      { rowRecords: true },
    );
    const cli = join(ROOT, 'dist', 'cli.js');
    // No configuration, a local gateway state of its own: the target is `local`, endpoint 1001, as recorded.
    const env = { PAYGATE_DATA_DIR: ledger, PAYGATE_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') };
    // Listed, and past the 10,000 lint lists per file: the batch's own batch-too-large warning (its payload
    // is over the local gateway's maximum) takes one of those places, and every error past them is one of
    // these; the warnings past them are the same-payer rows and the warnings lint finds without a ledger.
    const found = (JSON.parse(timed([cli, 'lint', '--format', 'json', file], env, dir, preload).out) as Listed).files[0];
    const plainFound = (JSON.parse(timed([cli, 'lint', '--no-ledger', '--format', 'json', file], env, dir, preload).out) as Listed)
      .files[0];
    const count = (f: Listed['files'][0], code: string) => f.diagnostics.filter((d) => d.code === code).length;
    const sent = count(found, 'already-sent') + (found.omitted?.errors ?? 0);
    if (sent !== BATCH_ROWS / 10) throw new Error(`lint found ${sent} already-sent rows, not ${BATCH_ROWS / 10}`);
    const warnings = (f: Listed['files'][0]) => f.diagnostics.length - count(f, 'already-sent') + (f.omitted?.warnings ?? 0);
    const samePayer = warnings(found) - warnings(plainFound);
    if (samePayer !== BATCH_ROWS / 100 || count(found, 'same-payer') > samePayer)
      throw new Error(`lint found ${samePayer} same-payer rows, not ${BATCH_ROWS / 100}`);
    const udsv: Run[] = [];
    const plain: Run[] = [];
    const guarded: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      udsv.push(timed(['-e', UDSV, file], env, dir, preload));
      plain.push(timed([cli, 'lint', '--no-ledger', file], env, dir, preload));
      guarded.push(timed([cli, 'lint', file], env, dir, preload));
    }
    const ms = (runs: Run[]) => median(runs.map((r) => r.ms));
    const cpu = (runs: Run[]) => median(runs.map((r) => r.cpu));
    const [u, l, g] = [ms(udsv), ms(plain), ms(guarded)];
    const [uc, lc, gc] = [cpu(udsv), cpu(plain), cpu(guarded)];
    console.log(
      `lint with the guard: uDSV ${u.toFixed(0)} ms (CPU ${uc.toFixed(0)}), lint --no-ledger ${l.toFixed(0)} ms (CPU ${lc.toFixed(0)}), lint ${g.toFixed(0)} ms (CPU ${gc.toFixed(0)})`,
    );
    return [
      `\`paygate lint FILE\` (no flags) of a ${BATCH_ROWS.toLocaleString('en-US')}-row batch (a card of its own a row) outside any git work tree, with a ledger of ${(RECORDS * ROWS_PER_RECORD).toLocaleString('en-US')} rows (${RECORDS.toLocaleString('en-US')} accepted submissions, their row records and payer entries; ${sent.toLocaleString('en-US')} of the batch's rows among them, each reported already-sent, and ${samePayer.toLocaleString('en-US')} with the card and schedule of a row sent under another id, each reported same-payer), against the same command with \`--no-ledger\` and a Node process parsing the file with uDSV; cold processes of the production CLI taken in turn, medians of ${RUNS}: wall time, and CPU time (user + system of the process, \`process.cpuUsage\` as it exits), the figure that holds on a machine others load. \`npm run bench:ledger\` rewrites this table.`,
      '',
      '| | uDSV process | lint --no-ledger | lint with the guard | with ÷ without | with ÷ uDSV |',
      '|---|---:|---:|---:|---:|---:|',
      `| CPU ms | ${uc.toFixed(0)} | ${lc.toFixed(0)} | ${gc.toFixed(0)} | ${(gc / lc).toFixed(2)}× | ${(gc / uc).toFixed(2)}× |`,
      `| wall ms | ${u.toFixed(0)} | ${l.toFixed(0)} | ${g.toFixed(0)} | ${(g / l).toFixed(2)}× | ${(g / u).toFixed(2)}× |`,
      '',
      ...targetLines([
        atMost('lint with the guard against a 1,000,000-row history ÷ lint without a ledger, CPU time', gc / lc, 1.5),
        atMost('lint with the guard against a 1,000,000-row history ÷ lint without a ledger, wall time', g / l, 1.5),
      ]),
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
