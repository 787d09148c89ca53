import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { lint } from '../../src/core/rules/lint';
import { generateBatch } from './generate';
import { benchStart } from './lintStart';
import { median, writeReadmeSection } from './report';
import { atMost, targetLines, type Target } from './table';

// `paygate lint` as users run it: the production CLI with no flags, whole processes, on a 100k-row batch
// outside any git work tree, tracked by git, and untracked in a work tree; against uDSV's bare parse of
// the same file (the fastest maintained JavaScript CSV parser) and Python's C csv reader, each a whole
// process too. Targets (issue 32): lint ≤ 1.0× uDSV in each place; the git check costs nothing outside a
// work tree (no git process) and at most 10% inside one. Figures go to stdout and the README; nothing
// here asserts a time.

const ROWS = 100_000;
const RUNS = 7;
const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/**
 * A merchant's batch holds real card numbers: Luhn-valid, none of the published test numbers, so the
 * card-data-in-git check finds one and git is asked. (The generated batch has test numbers only, as a
 * sandbox batch does: then the check reads every row and finds none.)
 */
const REAL_CARDS = ['4539578763621486', '5105056255436474', '4916338506082832', '6011000995504101'];
function merchantBatch(rows: number): string {
  let n = 0;
  return generateBatch(rows).replaceAll(/4111111111111111|5555555555554444|4000056655665556|6011111111111117/g, () => REAL_CARDS[n++ % 4]);
}

/** A `git` in front of the real one on PATH, counting the git processes a run starts. */
function countingGit(dir: string): { env: NodeJS.ProcessEnv; count(): number } {
  const bin = join(dir, 'bin');
  const calls = join(dir, 'calls');
  mkdirSync(bin);
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho x >> "${calls}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
  return {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    count() {
      let text = '';
      try {
        text = readFileSync(calls, 'utf8');
      } catch {
        // no git started
      }
      rmSync(calls, { force: true });
      return text.trim() === '' ? 0 : text.trim().split('\n').length;
    },
  };
}

/** Wall and CPU time (the whole process's, every thread) of one call. */
function time(fn: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** Times of several runs, and how a table shows them: wall time, CPU time in brackets. */
type Runs = { wall: number[]; cpu: number[] };
const runs = (): Runs => ({ wall: [], cpu: [] });
function add(into: Runs, m: { wall: number; cpu: number }): void {
  into.wall.push(m.wall);
  into.cpu.push(m.cpu);
}
const ms = (r: Runs) => `${median(r.wall).toFixed(0)} (${median(r.cpu).toFixed(0)})`;
const ratio = (a: Runs, b: Runs) => `${(median(a.wall) / median(b.wall)).toFixed(2)}× (${(median(a.cpu) / median(b.cpu)).toFixed(2)}×)`;

const udsvParse = (text: string) => initParser(inferSchema(text, { col: ';' })).stringArrs(text);

/** In process, warmed up: lint of the text against the two parsers' bare parse of it (wall, and CPU in brackets). */
function benchInProcess(): string[] {
  const lines = [
    '| rows | MB | uDSV parse ms (CPU) | papaparse parse ms (CPU) | lint ms (CPU) | lint ÷ uDSV (CPU) | lint ÷ papaparse (CPU) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const rows of [10_000, ROWS]) {
    const text = generateBatch(rows);
    udsvParse(text);
    Papa.parse(text, { delimiter: ';' });
    if (lint(text).diagnostics.some((d) => d.severity === 'error')) throw new Error('generated batch should be valid');
    const [u, p, l] = [runs(), runs(), runs()];
    for (let i = 0; i < RUNS; i++) {
      add(
        u,
        time(() => udsvParse(text)),
      );
      add(
        p,
        time(() => Papa.parse(text, { delimiter: ';' })),
      );
      add(
        l,
        time(() => lint(text, { findCardNumber: true, maxDiagnostics: 10_000 })),
      );
    }
    const row = `| ${rows.toLocaleString('en-US')} | ${(Buffer.byteLength(text) / 1e6).toFixed(1)} | ${ms(u)} | ${ms(p)} | ${ms(l)} | ${ratio(l, u)} | ${ratio(l, p)} |`;
    console.log(row);
    lines.push(row);
  }
  return lines;
}

export const UDSV_PROCESS = `const { inferSchema, initParser } = require(${JSON.stringify(join(ROOT, 'node_modules', 'udsv'))});
const text = require('fs').readFileSync(process.argv[1], 'utf8');
process.stdout.write(String(initParser(inferSchema(text, { col: ';' })).stringArrs(text).length));`;
// From the root: this file runs bundled from out/bench/ as well as from test/bench/.
const PYTHON_READER = join(ROOT, 'test', 'bench', 'csv_reader.py');

function python(): string | undefined {
  const r = spawnSync('python3', ['-c', 'import csv'], { stdio: 'ignore' });
  return r.status === 0 ? 'python3' : undefined;
}

/**
 * A whole process, started cold: its wall time, and its CPU time (user + system, every thread), which a
 * busy machine stretches much less. Run under bash, whose `times` reports its children's CPU time (the
 * same few milliseconds of bash for every command measured).
 */
export function timeProcess(command: string, args: string[]): { wall: number; cpu: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', '"$@" > /dev/null; s=$?; times; exit $s', 'bash', command, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    timeout: 120_000,
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}`);
  // `times`: the shell's user and system time, then its children's, as 0m0.123s.
  const seconds = [
    ...r.stdout
      .trim()
      .split('\n')[1]
      .matchAll(/(\d+)m([\d.]+)s/g),
  ].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: (seconds[0] + seconds[1]) * 1000 };
}

interface Place {
  name: string;
  file: string;
}

/** A scratch folder outside any work tree, with a repository holding a tracked and an untracked batch. */
function places(dir: string): Place[] {
  const outside = join(dir, 'outside');
  const repo = join(dir, 'repo');
  mkdirSync(outside);
  mkdirSync(repo);
  const merchant = merchantBatch(ROWS);
  writeFileSync(join(outside, 'batch.rpcsv'), merchant);
  writeFileSync(join(outside, 'sandbox.rpcsv'), generateBatch(ROWS));
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(repo, 'tracked.rpcsv'), merchant);
  writeFileSync(join(repo, 'untracked.rpcsv'), merchant);
  git('add', 'tracked.rpcsv');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'tracked batch');
  if (spawnSync('git', ['rev-parse'], { cwd: outside, stdio: 'ignore' }).status === 0)
    throw new Error(`${outside} is inside a git work tree: set TMPDIR to a folder outside any`);
  return [
    { name: 'merchant batch outside any git work tree', file: join(outside, 'batch.rpcsv') },
    { name: 'merchant batch tracked by git', file: join(repo, 'tracked.rpcsv') },
    { name: 'merchant batch untracked in a work tree', file: join(repo, 'untracked.rpcsv') },
    { name: 'sandbox batch (test card numbers) outside any work tree', file: join(outside, 'sandbox.rpcsv') },
  ];
}

/** The git processes `paygate lint FILE` starts, in a run of its own. */
function gitCalls(file: string, git: ReturnType<typeof countingGit>): number {
  git.count();
  spawnSync(process.execPath, [CLI, 'lint', file], { stdio: 'ignore', env: git.env, timeout: 120_000 });
  return git.count();
}

/** The whole-process table and its targets. */
function benchWholeProcess(): { lines: string[]; targets: Target[] } {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-lint-'));
  try {
    const all = places(dir);
    const git = countingGit(dir);
    const py = python();
    const t = all.map(() => ({ udsv: runs(), python: runs(), lint: runs() }));
    // Interleaved, so a change of load touches every column alike.
    for (let i = 0; i < RUNS; i++)
      all.forEach((p, k) => {
        add(t[k].udsv, timeProcess(process.execPath, ['-e', UDSV_PROCESS, p.file]));
        if (py) add(t[k].python, timeProcess(py, [PYTHON_READER, p.file]));
        add(t[k].lint, timeProcess(process.execPath, [CLI, 'lint', p.file]));
      });
    const lines = [
      '| file (100,000 rows) | uDSV process ms (CPU) | Python csv process ms (CPU) | `paygate lint FILE` ms (CPU) | ÷ uDSV (CPU) | ÷ Python (CPU) | git processes |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ];
    const targets: Target[] = [];
    const lintMs = t.map((x) => median(x.lint.wall));
    all.forEach((p, k) => {
      const n = gitCalls(p.file, git);
      const row = `| ${p.name} | ${ms(t[k].udsv)} | ${py ? ms(t[k].python) : 'no python3'} | ${ms(t[k].lint)} | ${ratio(t[k].lint, t[k].udsv)} | ${py ? ratio(t[k].lint, t[k].python) : ''} | ${n} |`;
      console.log(row);
      lines.push(row);
      targets.push(atMost(`\`paygate lint FILE\` ÷ uDSV, ${p.name}`, lintMs[k] / median(t[k].udsv.wall), 1));
      if (k === 0)
        targets.push({ what: 'git processes started for a file outside any work tree', target: '= 0', figure: String(n), met: n === 0 });
    });
    // The git check's cost in a work tree: the same text there against outside any (where no git starts).
    targets.push(atMost('git check, tracked: lint ÷ the same lint outside any work tree', lintMs[1] / lintMs[0], 1.1));
    targets.push(atMost('git check, untracked: lint ÷ the same lint outside any work tree', lintMs[2] / lintMs[0], 1.1));
    return { lines, targets };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `paygate lint FILE…` of many small files holding card numbers, in a work tree and outside any; git calls counted. */
function benchManyFiles(files = 10_000, runs = 3): { lines: string[]; targets: Target[] } {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-git-'));
  try {
    const repo = join(dir, 'repo');
    const outside = join(dir, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    spawnSync('git', ['init', '-q'], { cwd: repo });
    const batch = merchantBatch(3);
    const names = Array.from({ length: files }, (_, i) => `b${String(i).padStart(5, '0')}.rpcsv`);
    for (const n of names) {
      writeFileSync(join(repo, n), batch);
      writeFileSync(join(outside, n), batch);
    }
    const timeIn = (cwd: string) => {
      const t0 = process.hrtime.bigint();
      // Exit 0: card-data-in-git is a warning.
      const r = spawnSync(process.execPath, [CLI, 'lint', ...names], { cwd, stdio: 'ignore', timeout: 600_000 });
      if (r.status !== 0) throw new Error(`paygate lint exited ${r.status}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    const [a, b]: number[][] = [[], []];
    for (let i = 0; i < runs; i++) {
      a.push(timeIn(outside));
      b.push(timeIn(repo));
    }
    const git = countingGit(dir);
    spawnSync(process.execPath, [CLI, 'lint', ...names], { cwd: repo, stdio: 'ignore', env: git.env, timeout: 600_000 });
    const n = git.count();
    const [ma, mb] = [median(a), median(b)];
    return {
      lines: [
        '| `paygate lint FILE…`, 10,000 files holding card numbers | outside any work tree ms | in a work tree ms | ratio | git processes in the work tree |',
        '|---|---:|---:|---:|---:|',
        `| ${files.toLocaleString('en-US')} files of 3 rows | ${ma.toFixed(0)} | ${mb.toFixed(0)} | ${(mb / ma).toFixed(2)}× | ${n} |`,
      ],
      targets: [atMost('git check over 10,000 files in a work tree ÷ outside any', mb / ma, 1.1)],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  console.log(`paygate lint against uDSV, papaparse and Python's csv, medians of ${RUNS} runs, node ${process.version}`);
  const inProcess = benchInProcess();
  const whole = benchWholeProcess();
  const many = benchManyFiles();
  const start = benchStart(timeProcess, CLI, UDSV_PROCESS, 15);
  const body = [
    `**As users run it**: \`paygate lint FILE\` (the production bundle \`dist/cli.js\`, no flags: the git check on) against a Node process reading the same file and parsing it with uDSV (\`inferSchema\` + \`stringArrs\`) and against Python's C \`csv\` reader (\`test/bench/csv_reader.py\`), each started cold, medians of ${RUNS} runs taken in turn: wall time, and in brackets CPU time (user + system, all threads; what a busy machine stretches least). The merchant batch holds real-looking card numbers (Luhn-valid, none of the published test numbers), so in a work tree git is asked and \`card-data-in-git\` warns; the sandbox batch holds test numbers only, so every row's card is looked at and git is never asked. "git processes" is counted in a run of its own, through a \`git\` in front of the real one.`,
    '',
    ...whole.lines,
    '',
    'Many files at once (card-data-in-git asks git once per folder, and not at all outside a work tree), the same files in both places, medians of 3:',
    '',
    ...many.lines,
    '',
    'The fixed cost (issue 40): a one-row batch, medians of 15 runs taken in turn, CPU time; the lint with the code cache its first run kept (docs/install.md#code-cache):',
    '',
    ...start.lines,
    '',
    ...targetLines([...whole.targets, ...many.targets, ...start.targets]),
    '',
    `In process, warmed up (the lint's own work, no start-up, read or output; git is not asked), medians of ${RUNS}, wall time and in brackets CPU time (every thread: uDSV's and papaparse's garbage collection runs beside them):`,
    '',
    ...inProcess,
  ].join('\n');
  writeReadmeSection('lint', body);
}
