import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, writeReadmeSection } from './report';
import { atMost, targetLines } from './table';

// `paygate query` on a 1,000,000-row transactions report (group by two columns, sum an amount), as a
// whole process from start to exit, against Python's csv module doing the same group-by with exact
// Decimal sums (test/bench/query_groupby.py) in the same run; both answers are checked to agree. The
// peak RSS at 250,000 and 1,000,000 rows, and with a group per row, shows memory follows the groups,
// not the rows. Nothing here asserts a time.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PY = join(__dirname, 'query_groupby.py');
const WORK = join(ROOT, 'out', 'bench', 'query');
const RUNS = Number(process.env.PAYGATE_BENCH_RUNS ?? 3);
const CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY'];
const TYPES = ['sale', 'refund', 'declined', 'chargeback', 'reversal'];

/** A row shaped like the gateway's transactions report, amounts with three decimals (some with two). */
function row(i: number): string {
  const day = String((i % 28) + 1).padStart(2, '0');
  const cents = (i * 7919) % 1_000_000;
  const amount =
    i % 10 === 0
      ? `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
      : `${Math.floor(cents / 1000)}.${String(cents % 1000).padStart(3, '0')}`;
  return `"Demo Shop","${10_000_000 + i}","ORD-${String(i).padStart(7, '0')}","2027-02-${day} 10:${String(i % 60).padStart(2, '0')}:00","${amount}","${CURRENCIES[i % 4]}","${TYPES[i % 5]}","Gym membership, month ${i % 12}","24.11.2026"`;
}

async function writeReport(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  out.write(
    '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"\r\n',
  );
  for (let i = 0; i < rows; i += 10_000) {
    const piece: string[] = [];
    for (let j = i; j < Math.min(rows, i + 10_000); j++) piece.push(`${row(j)}\r\n`);
    if (!out.write(piece.join(''))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

// Loaded into the measured node process: its peak RSS, written where the bench reads it when it exits.
const PRELOAD = `process.on('exit', () => require('node:fs').writeFileSync(process.env.PAYGATE_BENCH_RSS, String(process.resourceUsage().maxRSS * 1024)));\n`;

interface Measure {
  ms: number;
  peak: number;
  out: string;
}

async function measure(command: string, args: string[], rssFromStderr: boolean): Promise<Measure> {
  const rssFile = join(WORK, 'rss');
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const child = spawn(command, args, { env: { ...process.env, PAYGATE_BENCH_RSS: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${err}`);
  const peak = rssFromStderr ? Number(err.trim().split('\n').pop()) : Number(readFileSync(rssFile, 'utf8'));
  return { ms, peak, out };
}

const node = (file: string, query: string[]) =>
  measure(process.execPath, ['--require', join(WORK, 'preload.js'), CLI, 'query', file, ...query], false);
const python = (file: string) => measure('python3', [PY, file, 'Currency,Transaction_type', 'Amount'], true);

/** Both answers' sums, as "Currency|Transaction_type" → three-decimal string, must be the same. */
function checkAgree(nodeJson: string, pythonJson: string): void {
  const ours = JSON.parse(nodeJson) as { groups: { key: Record<string, string>; sum: { Amount: string } }[] };
  const theirs = JSON.parse(pythonJson) as Record<string, string>;
  const three = (s: string) => (s.includes('.') ? `${s.split('.')[0]}.${s.split('.')[1].padEnd(3, '0')}` : `${s}.000`);
  for (const g of ours.groups) {
    const key = `${g.key.Currency}|${g.key.Transaction_type}`;
    if (three(theirs[key]) !== g.sum.Amount) throw new Error(`${key}: paygate ${g.sum.Amount}, Python ${theirs[key]}`);
  }
  if (ours.groups.length !== Object.keys(theirs).length) throw new Error('the two answers have different groups');
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);

async function run(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'preload.js'), PRELOAD);
  const big = join(WORK, 'report-1m.csv');
  const small = join(WORK, 'report-250k.csv');
  const bytes = await writeReport(big, 1_000_000);
  await writeReport(small, 250_000);
  const groupBy = ['--group-by', 'Currency,Transaction_type', '--sum', 'Amount', '--format', 'json'];
  const ours: Measure[] = [];
  const theirs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternated, so a burst of load elsewhere falls on both.
    ours.push(await node(big, groupBy));
    theirs.push(await python(big));
  }
  checkAgree(ours[0].out, theirs[0].out);
  const quarter = await node(small, groupBy);
  const perRow = await node(big, ['--group-by', 'Transaction_id', '--sum', 'Amount', '--max-groups', '1000000', '--format', 'csv']);
  const oursMs = median(ours.map((m) => m.ms));
  const theirsMs = median(theirs.map((m) => m.ms));
  const lines = [
    `\`paygate query\` of a 1,000,000-row report (${mb(bytes)} MB), \`--group-by Currency,Transaction_type --sum Amount\` (20 groups), as a whole process from start to exit, median of ${RUNS}; reference: Python ${pythonVersion()} with its \`csv\` module and \`Decimal\` sums doing the same group-by (\`test/bench/query_groupby.py\`), same run, alternating; the two answers agree. \`npm run bench:query\` rewrites this table.`,
    '',
    '| run | rows | groups | time ms | peak RSS MB | time ÷ Python |',
    '|---|---:|---:|---:|---:|---:|',
    `| Python \`csv\` + \`Decimal\` | 1,000,000 | 20 | ${theirsMs.toFixed(0)} | ${mb(median(theirs.map((m) => m.peak)))} | 1.00× |`,
    `| \`paygate query\` | 1,000,000 | 20 | ${oursMs.toFixed(0)} | ${mb(median(ours.map((m) => m.peak)))} | ${(oursMs / theirsMs).toFixed(2)}× |`,
    `| \`paygate query\` | 250,000 | 20 | ${quarter.ms.toFixed(0)} | ${mb(quarter.peak)} | |`,
    `| \`paygate query\`, a group per row (\`--group-by Transaction_id\`) | 1,000,000 | 1,000,000 | ${perRow.ms.toFixed(0)} | ${mb(perRow.peak)} | |`,
    '',
    ...targetLines([
      atMost("`paygate query` ÷ Python's csv + Decimal, 1,000,000 rows", oursMs / theirsMs, 1),
      // Memory by the groups, not the rows: four times the rows, the same 20 groups.
      atMost('peak RSS at 1,000,000 rows ÷ at 250,000 (20 groups each)', median(ours.map((m) => m.peak)) / quarter.peak, 1.25),
    ]),
  ];
  console.log(lines.join('\n'));
  rmSync(WORK, { recursive: true, force: true });
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('query', lines.join('\n'));
}

function pythonVersion(): string {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.version.split()[0])']).toString().trim();
  } catch {
    return '3';
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
