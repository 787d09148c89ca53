import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateBatch } from './generate';
import { writeHistory } from './ledgerHistory';
import { median } from './report';
import { atMost, targetLines } from './table';

// `paygate lint` with the row guard, as a user with a ledger runs it: a 100,000-row batch (the lint
// bench's) against a history of 1,000,000 rows (10,000 accepted submissions of 100 rows; every tenth row
// of the batch among them), each run a cold process of the production CLI with its default flags (the file
// is outside any git work tree). References in the same run, taken in turn: the same command with
// --no-ledger (what CI without a ledger runs), and node parsing the file with uDSV. Target (decided here,
// the issue names none): the guard costs at most half of lint's own time, as the ledger's submit at 1M.

const ROOT = join(__dirname, '..', '..');
const RUNS = 5;
const SCALE = Math.max(1, Number(process.env.PAYGATE_BENCH_LEDGER_SCALE ?? 1) || 1);
const BATCH_ROWS = 100_000 / SCALE;
const RECORDS = 10_000 / SCALE;
const ROWS_PER_RECORD = 100;
const UDSV = `const { inferSchema, initParser } = require(${JSON.stringify(join(ROOT, 'node_modules', 'udsv'))});
const text = require('fs').readFileSync(process.argv[1], 'utf8');
process.stdout.write(String(initParser(inferSchema(text, { col: ';' })).stringArrs(text).length));`;

/** History row g: one of the batch's ids for every tenth of its rows, else an id of its own. */
function historyRow(g: number): string {
  return g < BATCH_ROWS && g % 10 === 0 ? `ORD-${String(g).padStart(7, '0')}` : `HIST-${g}`;
}

function timed(args: string[], env: Record<string, string>, cwd: string): { ms: number; status: number | null; out: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 300_000,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, status: r.status, out: r.stdout };
}

export function benchLedgerLint(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-ledger-lint-'));
  try {
    const ledger = join(dir, 'ledger');
    writeHistory(ledger, RECORDS, (i) => Array.from({ length: ROWS_PER_RECORD }, (_, r) => historyRow(i * ROWS_PER_RECORD + r)));
    const file = join(dir, 'batch.rpcsv');
    writeFileSync(file, generateBatch(BATCH_ROWS));
    const cli = join(ROOT, 'dist', 'cli.js');
    // No configuration, a local gateway state of its own: the target is `local`, endpoint 1001, as recorded.
    const env = { PAYGATE_DATA_DIR: ledger, PAYGATE_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') };
    const found = JSON.parse(timed([cli, 'lint', '--format', 'json', file], env, dir).out) as {
      files: { diagnostics: { code: string }[]; omitted?: { errors: number } }[];
    };
    // Listed, and past the 10,000 lint lists per file: the batch's own batch-too-large warning (its payload
    // is over the local gateway's maximum) takes one of those places, and every error past them is one of these.
    const listed = found.files[0];
    const sent = listed.diagnostics.filter((d) => d.code === 'already-sent').length + (listed.omitted?.errors ?? 0);
    if (sent !== BATCH_ROWS / 10) throw new Error(`lint found ${sent} already-sent rows, not ${BATCH_ROWS / 10}`);
    const udsv: number[] = [];
    const plain: number[] = [];
    const guarded: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      udsv.push(timed(['-e', UDSV, file], env, dir).ms);
      plain.push(timed([cli, 'lint', '--no-ledger', file], env, dir).ms);
      guarded.push(timed([cli, 'lint', file], env, dir).ms);
    }
    const [u, l, g] = [median(udsv), median(plain), median(guarded)];
    console.log(`lint with the guard: uDSV ${u.toFixed(0)} ms, lint --no-ledger ${l.toFixed(0)} ms, lint ${g.toFixed(0)} ms`);
    return [
      `\`paygate lint FILE\` (no flags) of a ${BATCH_ROWS.toLocaleString('en-US')}-row batch outside any git work tree, with a ledger of ${(RECORDS * ROWS_PER_RECORD).toLocaleString('en-US')} rows (${RECORDS.toLocaleString('en-US')} accepted submissions; ${sent.toLocaleString('en-US')} of the batch's rows among them, each reported already-sent), against the same command with \`--no-ledger\` and a Node process parsing the file with uDSV; cold processes of the production CLI taken in turn, medians of ${RUNS} (wall time). \`npm run bench:ledger\` rewrites this table.`,
      '',
      '| uDSV process ms | lint --no-ledger ms | lint with the guard ms | with ÷ without | with ÷ uDSV |',
      '|---:|---:|---:|---:|---:|',
      `| ${u.toFixed(0)} | ${l.toFixed(0)} | ${g.toFixed(0)} | ${(g / l).toFixed(2)}× | ${(g / u).toFixed(2)}× |`,
      '',
      ...targetLines([atMost('lint with the guard against a 1,000,000-row history ÷ lint without a ledger', g / l, 1.5)]),
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
