import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';

// What every table in the README's Performance section says about where and when it was measured, and
// how a figure is set beside its target. writeReadmeSection (report.ts) puts the header on every table
// itself, so no bench can leave it out; a bench that prints a table without writing it calls
// machineHeader() for its first line.

const ROOT = join(__dirname, '..', '..');

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  /** YYYY-MM-DD, the machine's local date. */
  date: string;
  /** The commit checked out (short), with "+ changes" when the work tree differs from it (README.md aside). */
  commit: string;
  /** 1, 5 and 15 minutes. */
  load: [number, number, number];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function machine(): Machine {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const sha = git(['rev-parse', '--short=10', 'HEAD']) || 'unknown';
  // The README is rewritten while the benches run: its change is the bench's own, not the code's.
  const changed = git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)README.md']) !== '';
  const [one, five, fifteen] = loadavg();
  return {
    cpu: (cpus()[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim(),
    cores: availableParallelism(),
    node: process.version,
    date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
    commit: changed ? `${sha} + changes` : sha,
    load: [one, five, fifteen],
  };
}

/** The first line of every table: the machine, the date, the commit and the load average as the run ended. */
export function machineHeader(m: Machine = machine()): string {
  const load = m.load.map((x) => x.toFixed(2)).join(' / ');
  return `*Measured ${m.date} on ${m.cpu} (${m.cores} cores), Node ${m.node}, commit \`${m.commit}\`; load average ${load} (1 / 5 / 15 min) as the run ended.*`;
}

/** A figure checked against its target. */
export interface Target {
  /** What is measured, as the README names it ("`paygate lint FILE` ÷ uDSV, outside git"). */
  what: string;
  /** The target as written ("≤ 1.00×"). */
  target: string;
  /** The figure as written ("0.93×"). */
  figure: string;
  met: boolean;
}

/** `figure` ≤ `limit`, written with the unit `unit` and `digits` decimals. */
export function atMost(what: string, figure: number, limit: number, unit = '×', digits = 2): Target {
  const f = (n: number) => `${n.toFixed(digits)}${unit === '×' ? '×' : ` ${unit}`}`;
  return { what, target: `≤ ${f(limit)}`, figure: f(figure), met: figure <= limit };
}

export const verdict = (t: Target): string => (t.met ? 'met' : '**missed**');

/**
 * The targets of one table, each figure beside its target, the missed ones said plainly. Each line also
 * carries a hidden marker that the summary (targets.ts) collects into the Performance section's list.
 */
export function targetLines(targets: Target[]): string[] {
  const missed = targets.filter((t) => !t.met);
  const lines = [
    '| target | figure | |',
    '|---|---:|---|',
    ...targets.map((t) => `| ${t.what} ${t.target} | ${t.figure} | ${verdict(t)} |`),
    '',
    missed.length === 0
      ? `Every target of this table is met (${targets.length} of ${targets.length}).`
      : `**Missed: ${missed.map((t) => `${t.what} (${t.figure}, target ${t.target})`).join('; ')}.**`,
  ];
  for (const t of targets) lines.push(`<!-- target ${JSON.stringify(t)} -->`);
  return lines;
}

/** The targets a README region records (the hidden markers targetLines writes). */
export function targetsIn(text: string): Target[] {
  return [...text.matchAll(/<!-- target (\{.*?\}) -->/g)].map((m) => JSON.parse(m[1]) as Target);
}
