import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Target } from './table';
import { targetLines } from './table';

// What the scale benches (`npm run bench:scale`, issue 40) share: the sizes, scaled down by
// PAYGATE_BENCH_SCALE (0.01 makes 100k rows 1,000) to prove the benches run on a loaded machine; a whole
// `paygate` process measured from start to exit (wall time; CPU time, the user and system time the
// bench's waited-for children used, git processes a lint starts included; peak RSS, which the process
// writes as it exits through a preloaded hook; the load as it ended); a figure as ratios to its reference
// of the same run; a report written in pieces; and the targets, judged only at full size. On a shared
// machine the wall time holds the waits for a core, so the targets are judged on the CPU time's ratio.

export const ROOT = join(__dirname, '..', '..');
/** The production CLI (PAYGATE_BENCH_CLI: a copy of dist/cli.js elsewhere, so dist/ may be rebuilt meanwhile). */
export const CLI = process.env.PAYGATE_BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
/** Where the inputs are written (PAYGATE_BENCH_WORK: elsewhere, so two runs do not share it). */
export const WORK = process.env.PAYGATE_BENCH_WORK ?? join(ROOT, 'out', 'bench', 'scale');

/** Sizes are multiplied by this (default 1: the issue's sizes). */
export const SCALE = Number(process.env.PAYGATE_BENCH_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`PAYGATE_BENCH_SCALE must be a number in (0, 1], not ${process.env.PAYGATE_BENCH_SCALE}`);
/** Runs of each measure (the median is reported). */
export const RUNS = Number(process.env.PAYGATE_BENCH_RUNS ?? 3);

export const scaled = (n: number) => Math.max(10, Math.round(n * SCALE));
/** The sizes where growth is shown: 100k, 500k and 1M rows (scaled). */
export const SIZES = [100_000, 500_000, 1_000_000].map(scaled);

export const count = (n: number) => n.toLocaleString('en');
export const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
export const ratio = (x: number) => `${x.toFixed(2)}×`;

// Loaded into each measured process: its peak RSS and CPU time, written where the bench reads them at exit.
const PRELOAD = `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.PAYGATE_BENCH_USAGE, JSON.stringify({ rss: u.maxRSS * 1024, cpu: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`;

export interface Measure {
  ms: number;
  /** User + system time of the process and the children it waited for. */
  cpuMs: number;
  /** The 1-minute load average as the process ended. */
  load: number;
  /** Peak RSS in bytes. */
  peak: number;
  code: number | null;
  out: string;
  err: string;
}

export function prepareWork(): void {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'preload.js'), PRELOAD);
}

/**
 * `paygate ARGS` as a whole process (the production bundle); its exit code must be one of `codes`.
 * Killed after `deadlineMs` (then `code` is null): a command that hangs is a figure, not a hung bench.
 */
export async function paygate(args: string[], codes: number[] = [0], deadlineMs = 600_000): Promise<Measure> {
  const usageFile = join(WORK, 'usage.json');
  rmSync(usageFile, { force: true });
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--require', join(WORK, 'preload.js'), CLI, ...args], {
    cwd: WORK,
    env: { ...process.env, PAYGATE_BENCH_USAGE: usageFile, PAYGATE_STATE_DIR: join(WORK, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out.length < 1e6 ? (out += d.toString()) : undefined));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const ms = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  if (code !== null && !codes.includes(code)) throw new Error(`paygate ${args.join(' ')} exited ${code}: ${err.slice(0, 2000)}`);
  let usage = { rss: 0, cpu: 0 };
  try {
    usage = JSON.parse(readFileSync(usageFile, 'utf8')) as typeof usage;
  } catch {
    // Killed: no usage written.
  }
  const cpuMs = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : usage.cpu;
  return { ms, cpuMs, load: loadavg()[0], peak: usage.rss, code, out, err };
}

/**
 * The user + system time of every child this process has waited for (/proc/self/stat's cutime and cstime,
 * in clock ticks of 10 ms), so a child's own children (lint's git) count too; undefined without /proc.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's closing parenthesis: state is field 3, cutime 16 and cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * A measure's cells beside its reference of the same run: wall ms, CPU ms, peak RSS MB, wall ÷ the
 * reference's, CPU ÷ the reference's, and the load as it ended.
 */
export const measureCells = (m: Measure, reference: Measure) =>
  `${m.ms.toFixed(0)} | ${m.cpuMs.toFixed(0)} | ${mb(m.peak)} | ${ratio(m.ms / reference.ms)} | ${ratio(m.cpuMs / reference.cpuMs)} | ${m.load.toFixed(1)}`;

/** The heads of measureCells' columns, and their alignment row's part. */
export const MEASURE_HEADS = 'wall ms | CPU ms | peak RSS MB | ÷ ref. wall | ÷ ref. CPU | load';
export const MEASURE_ALIGN = '---:|---:|---:|---:|---:|---:';

/** What every caption says of the figures and the load. */
export const aboutFigures = (loadAtStart: number, ratios = true) =>
  `CPU ms is the process's user and system time with its children's; ${ratios ? '"÷ ref." is the figure over its reference\'s of the same run, wall and CPU; targets are judged on CPU, since on a shared machine the wall time also holds the waits for a core' : 'on a shared machine the wall time also holds the waits for a core'}. "load" is the 1-minute load average as the row's last run ended (${loadAtStart.toFixed(1)} as this table began; ${availableParallelism()} cores).`;

/** The median run of `RUNS` (by CPU time: the wall time of a run on a shared machine swings with the others' work). */
export async function medianOf(run: () => Promise<Measure>): Promise<Measure> {
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  runs.sort((a, b) => a.cpuMs - b.cpuMs);
  return runs[runs.length >> 1];
}

/** Writes `lines()` to `file` in pieces of 10,000. */
export async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(file);
  let piece: string[] = [];
  for (const l of lines) {
    piece.push(l);
    if (piece.length === 10_000) {
      if (!out.write(`${piece.join('\r\n')}\r\n`)) await once(out, 'drain');
      piece = [];
    }
  }
  out.end(piece.length > 0 ? `${piece.join('\r\n')}\r\n` : '');
  await once(out, 'finish');
}

export const REPORT_HEADER =
  '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"';
const CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY'];
const TYPES = ['Sale approved', 'Refund', 'Sale declined', 'Chargeback'];

/** A transactions report of `rows` rows, every Transaction_id different, amounts with two and three decimals. */
export function* reportRows(rows: number): Generator<string> {
  yield REPORT_HEADER;
  for (let i = 0; i < rows; i++) {
    const cents = (i * 7919) % 1_000_000;
    const amount = `${Math.floor(cents / 1000)}.${String(cents % 1000).padStart(3, '0')}`;
    yield `"Demo Shop","${10_000_000 + i}","ORD-${i}","2027-02-${String((i % 28) + 1).padStart(2, '0')} 10:00:00","${amount}","${CURRENCIES[i % 4]}","${TYPES[i % 4]}","Gym membership","24.11.2026"`;
  }
}

/**
 * The targets of a table: judged (with the hidden markers targets.ts gathers) at full size only; scaled
 * down, the same lines say the figures are not judged, and leave no marker.
 */
export function judged(targets: Target[]): string[] {
  if (SCALE === 1) return targetLines(targets);
  return [
    '| target | figure | |',
    '|---|---:|---|',
    ...targets.map((t) => `| ${t.what} ${t.target} | ${t.figure} | not judged |`),
    '',
    `Sizes scaled by PAYGATE_BENCH_SCALE=${SCALE}: these figures show the bench runs, not whether a target is met.`,
  ];
}

/** A target that is a yes or no ("refused at once, naming the file"). */
export const holds = (what: string, target: string, figure: string, met: boolean): Target => ({ what, target, figure, met });

/** "…; `npm run bench:scale` rewrites this table", with the scale when it is not 1. */
export const rewrites = () =>
  `\`npm run bench:scale\` rewrites this table${SCALE === 1 ? '' : ` (this run: sizes × ${SCALE}, PAYGATE_BENCH_SCALE)`}.`;
