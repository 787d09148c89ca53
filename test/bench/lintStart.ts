import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateBatch } from './generate';
import type * as Lint from './lint';
import { median } from './report';
import { atMost, machineHeader, type Target } from './table';

// The fixed cost of `paygate lint` (issue 40): a one-row batch, whole processes, CPU time ÷ `node -e 0`'s
// (target ≤ 1.15×), beside uDSV's parse of the same row and the lint with its code cache turned off. The
// lint runs as users have it after their first one: with the code cache that run kept
// (docs/install.md#code-cache), in a cache folder of the bench's own. Part of `npm run bench:lint`
// (lint.ts); on its own it prints its table: `node --import tsx test/bench/lintStart.ts [RUNS]`.

type TimeProcess = (command: string, args: string[]) => { wall: number; cpu: number };

/** The table's lines and its target, `runs` runs of each process taken in turn. */
export function benchStart(time: TimeProcess, cli: string, udsvScript: string, runs: number): { lines: string[]; targets: Target[] } {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-start-'));
  try {
    const file = join(dir, 'one.rpcsv');
    writeFileSync(file, generateBatch(1));
    const withCache = ['env', `XDG_CACHE_HOME=${join(dir, 'cache')}`];
    const processes: [string, string, string[]][] = [
      ['`node -e 0`', process.execPath, ['-e', '0']],
      ["uDSV's parse of the row", process.execPath, ['-e', udsvScript, file]],
      ['`paygate lint FILE`', withCache[0], [withCache[1], process.execPath, cli, 'lint', file]],
      ['`paygate lint FILE`, code cache off', 'env', ['PAYGATE_CODE_CACHE=off', process.execPath, cli, 'lint', file]],
    ];
    // The first lint keeps the code cache; the runs measured use it.
    time(withCache[0], [withCache[1], process.execPath, cli, 'lint', file]);
    const cpu = processes.map((): number[] => []);
    for (let i = 0; i < runs; i++) processes.forEach(([, command, args], k) => cpu[k].push(time(command, args).cpu));
    const base = median(cpu[0]);
    const lines = ['| one-row batch, whole process | CPU ms | ÷ `node -e 0` |', '|---|---:|---:|'];
    processes.forEach(([name], k) => lines.push(`| ${name} | ${median(cpu[k]).toFixed(0)} | ${(median(cpu[k]) / base).toFixed(2)}× |`));
    return { lines, targets: [atMost('one-row `paygate lint FILE` ÷ `node -e 0`, CPU time', median(cpu[2]) / base, 1.15)] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Bundled into lint.ts's bench, `require.main === module` holds for this module too: the file name says which ran.
if (require.main === module && process.argv[1]?.endsWith('lintStart.ts')) {
  // Run on its own: lint.ts's process timing and uDSV script, without its 100k-row tables.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lint = require('./lint') as typeof Lint;
  const { lines, targets } = benchStart(lint.timeProcess, lint.CLI, lint.UDSV_PROCESS, Number(process.argv[2] ?? 15));
  console.log([machineHeader(), '', ...lines, '', ...targets.map((t) => `${t.what} ${t.target}: ${t.figure}`)].join('\n'));
}
