import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { lint } from '../../src/core/rules/lint';
import { generateBatch } from './generate';
import { median, writeReadmeSection } from './report';

// lint against papaparse's parse alone of the same text, in the same process. Target (issue 23): lint ≤ 1.0× parse
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

/**
 * `paygate lint` of many small files holding card numbers in a git work tree (card-data-in-git), against
 * the same run with `--no-git`, cold processes; a `git` in front of the real one counts git's calls.
 */
export function benchLintGit(files = 10_000, runs = 3): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-git-'));
  try {
    const bin = join(dir, 'bin');
    const repo = join(dir, 'repo');
    mkdirSync(bin);
    mkdirSync(repo);
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho x >> "${join(dir, 'calls')}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
    spawnSync(real, ['init', '-q'], { cwd: repo });
    // Luhn-valid and not a published test number: what the check looks for.
    const batch = generateBatch(3).replaceAll(/4111111111111111|5555555555554444|4000056655665556|6011111111111117/g, '4539578763621486');
    const names = Array.from({ length: files }, (_, i) => `b${String(i).padStart(5, '0')}.rpcsv`);
    for (const n of names) writeFileSync(join(repo, n), batch);
    const cli = join(ROOT, 'dist', 'cli.js');
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    const time = (args: string[]): number => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [cli, 'lint', '--format', 'json', ...args, ...names], {
        cwd: repo,
        env,
        stdio: 'ignore',
        timeout: 600_000,
      });
      if (r.status !== 0) throw new Error(`paygate lint exited ${r.status}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    const noGit: number[] = [];
    const git: number[] = [];
    for (let i = 0; i < runs; i++) {
      noGit.push(time(['--no-git']));
      rmSync(join(dir, 'calls'), { force: true });
      git.push(time([]));
    }
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n').length;
    const [a, b] = [median(noGit), median(git)];
    return [
      `| ${files.toLocaleString('en-US')} files with card numbers, git work tree | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}× | ${calls} |`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  console.log(`lint vs papaparse parse, median of ${RUNS} runs, node ${process.version}`);
  const lines = benchLint();
  const whole = ['| | papaparse process ms | `paygate lint` process ms | ratio |', '|---|---:|---:|---:|', ...benchLintProcess()];
  console.log(whole.join('\n'));
  const gitTable = ['| | `--no-git` ms | with git ms | ratio | git calls |', '|---|---:|---:|---:|---:|', ...benchLintGit()];
  console.log(gitTable.join('\n'));
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
      '',
      'card-data-in-git over many files: `paygate lint --format json FILE…` with the git check and with `--no-git`, cold processes; git calls counted per run.',
      '',
      ...gitTable,
    ].join('\n'),
  );
}
