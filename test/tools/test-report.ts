// The duration report that closes `npm test` (test/tools/test-all.ts): each suite's wall and CPU time, then
// the slowest test files of the node:test suites by wall time and by CPU time. On a machine others load,
// wall time says how long we waited and CPU time what the run itself cost: a file whose wall time grew
// while its CPU time did not was waiting (on a clock, a deadline, a busy core), not working.
//
// Where the numbers come from, in out/test-durations/ (a run's own, removed when the next starts):
// - SUITE.jsonl: test/tools/test-durations.mjs, a node:test reporter: each file's tests, summed;
// - SUITE.cpu.jsonl: test/tools/test-cpu.js, loaded into each test file's process: the process's wall time
//   (loading and teardown too) and the CPU time of it and of the child processes it waited for;
// - a suite's CPU time: bash's `times` after its command, the CPU of every process the suite waited for.

import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** A test file's path in the work tree; one in a copy of it (test/tools/working-copy.ts) from its test/ on. */
export function shown(file: string): string {
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') ? relative.replace(/^.*?\/(?=test\/)/, '') : relative;
}

export interface SuiteRun {
  name: string;
  ok: boolean;
  /** Wall seconds. */
  seconds: number;
  /** CPU seconds of the suite's processes, user and system, when bash's `times` reported them. */
  cpu?: number;
}

export interface FileTime {
  suite: string;
  file: string;
  /** The file's process, from start to exit (or its tests' sum where no process time was written). */
  wallMs: number;
  cpuMs?: number;
  /** Its tests' durations, summed. */
  testsMs?: number;
}

/** The CPU seconds of the children in bash's `times` output (its second line: `0m12.34s 0m1.05s`). */
export function childCpuSeconds(times: string): number | undefined {
  const line = times.trim().split('\n')[1];
  const parts = line === undefined ? [] : [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) return undefined;
  return parts.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/**
 * Each test file's times, from what a suite's two writers left: `tests` is SUITE.jsonl's text, `process`
 * SUITE.cpu.jsonl's (empty when missing).
 */
export function fileTimes(suite: string, tests: string, process: string): FileTime[] {
  const files = new Map<string, FileTime>();
  for (const t of jsonLines<{ file: string; ms: number }>(tests)) files.set(t.file, { suite, file: t.file, wallMs: t.ms, testsMs: t.ms });
  for (const p of jsonLines<{ file: string; wallMs: number; cpuMs: number }>(process)) {
    const known = files.get(p.file);
    files.set(p.file, { suite, file: p.file, testsMs: known?.testsMs, wallMs: p.wallMs, cpuMs: p.cpuMs });
  }
  return [...files.values()];
}

const seconds = (ms: number | undefined, width = 7) => (ms === undefined ? '-'.padStart(width) : (ms / 1000).toFixed(1).padStart(width));

function fileRow(f: FileTime): string {
  return `${seconds(f.wallMs)} s ${seconds(f.cpuMs)} s  ${shown(f.file)}  (${f.suite})`;
}

/** The `count` slowest files by wall time, then the `count` costliest by CPU time (those with a CPU time). */
export function slowestFiles(files: FileTime[], count: number): string[] {
  const byWall = [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, count);
  const byCpu = files
    .filter((f) => f.cpuMs !== undefined)
    .sort((a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0))
    .slice(0, count);
  const head = '   wall       CPU   file  (suite)';
  return [
    `slowest test files by wall time:`,
    head,
    ...byWall.map(fileRow),
    ...(byCpu.length > 0
      ? ['', 'costliest test files by CPU time (with the processes they waited for):', head, ...byCpu.map(fileRow)]
      : []),
  ];
}

/**
 * Files whose process lived on for more than `gapMs` after their tests' time (loading included): a timer or
 * a handle left open keeps a test file's process waiting after its last test, which neither the tests'
 * times nor the CPU show. Longest gap first.
 */
export function outlivedTests(files: FileTime[], gapMs: number): string[] {
  const late = files
    .filter((f) => f.testsMs !== undefined && f.wallMs - f.testsMs > gapMs)
    .sort((a, b) => b.wallMs - (b.testsMs ?? 0) - (a.wallMs - (a.testsMs ?? 0)));
  if (late.length === 0) return [];
  return [
    `test files whose process lived over ${gapMs / 1000} s past their tests (a timer or handle left open?):`,
    '   wall     tests   file  (suite)',
    ...late.map((f) => `${seconds(f.wallMs)} s ${seconds(f.testsMs)} s  ${shown(f.file)}  (${f.suite})`),
  ];
}

/** One line per suite: its result, wall and CPU seconds; then the totals. */
export function suiteTable(runs: SuiteRun[], wholeSeconds: number, cores: number): string[] {
  const rows = runs.map(
    (r) =>
      `${r.ok ? 'passed' : 'FAILED'}  ${r.seconds.toFixed(0).padStart(4)} s  ${r.cpu === undefined ? '   -' : r.cpu.toFixed(0).padStart(4)} s  ${r.name}`,
  );
  const cpu = runs.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
  return [
    `result    wall    CPU  suite`,
    ...rows,
    `whole run: ${wholeSeconds.toFixed(0)} s wall; CPU of the suites ${cpu.toFixed(0)} s, ${(cpu / cores).toFixed(0)} s on ${cores} cores at best`,
  ];
}
