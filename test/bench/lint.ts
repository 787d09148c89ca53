import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { lint } from '../../src/core/rules/lint';
import { generateBatch } from './generate';
import { median, writeReadmeSection } from './report';

// lint against papaparse's parse alone of the same text, in the same process. Target: lint ≤ 1.5× parse
// at 100k rows. Figures go to stdout and to the README's table; nothing here asserts a time.

const SIZES = [10_000, 100_000];
const RUNS = 7;

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export function benchLint(): string[] {
  const lines = ['| rows | MB | parse ms | lint ms | ratio | rows/s |', '|---:|---:|---:|---:|---:|---:|'];
  for (const rows of SIZES) {
    const text = generateBatch(rows);
    const mb = Buffer.byteLength(text) / 1e6;
    // Warm up both paths so the JIT has compiled them before measuring.
    Papa.parse(text, { delimiter: ';' });
    const warm = lint(text);
    if (warm.diagnostics.some((d) => d.severity === 'error')) throw new Error('generated batch should be valid');
    const parse: number[] = [];
    const linted: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      parse.push(time(() => Papa.parse(text, { delimiter: ';' })));
      linted.push(time(() => lint(text)));
    }
    const p = median(parse);
    const l = median(linted);
    const row = `| ${rows.toLocaleString('en-US')} | ${mb.toFixed(1)} | ${p.toFixed(0)} | ${l.toFixed(0)} | ${(l / p).toFixed(2)}× | ${Math.round(rows / (l / 1000)).toLocaleString('en-US')} |`;
    console.log(row);
    lines.push(row);
  }
  return lines;
}

const ROOT = join(__dirname, '..', '..');
const PAPA_PROCESS = `const Papa = require(${JSON.stringify(join(ROOT, 'node_modules', 'papaparse'))});
const r = Papa.parse(require('fs').readFileSync(process.argv[1], 'utf8'), { delimiter: ';' });
process.stdout.write(String(r.data.length));`;

function timeProcess(args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/**
 * The same comparison as a user sees it: `paygate lint FILE` (the production CLI bundle, git check off)
 * against a Node process that reads the file and parses it with papaparse, each started cold.
 */
export function benchLintProcess(rows = 100_000): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
  try {
    const file = join(dir, 'batch.rpcsv');
    writeFileSync(file, generateBatch(rows));
    const cli = join(ROOT, 'dist', 'cli.js');
    const parse: number[] = [];
    const linted: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      parse.push(timeProcess(['-e', PAPA_PROCESS, file]));
      linted.push(timeProcess([cli, 'lint', '--no-git', file]));
    }
    const p = median(parse);
    const l = median(linted);
    return [`| whole process, ${rows.toLocaleString('en-US')} rows | ${p.toFixed(0)} | ${l.toFixed(0)} | ${(l / p).toFixed(2)}× |`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  console.log(`lint vs papaparse parse, median of ${RUNS} runs, node ${process.version}`);
  const lines = benchLint();
  const whole = ['| | papaparse process ms | `paygate lint` process ms | ratio |', '|---|---:|---:|---:|', ...benchLintProcess()];
  console.log(whole.join('\n'));
  writeReadmeSection(
    'lint',
    [
      `Median of ${RUNS} runs on ${cpus().length} cores, Node ${process.version}; \`npm run bench\` rewrites this table.`,
      '',
      ...lines,
      '',
      'Cold processes: `paygate lint FILE` (production bundle, `--no-git`) against `node` reading the file and parsing it with papaparse.',
      '',
      ...whole,
    ].join('\n'),
  );
}
