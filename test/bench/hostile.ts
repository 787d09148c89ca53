import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixFile } from '../../src/cli/commands/fix';
import { lintFiles } from '../../src/cli/commands/lint';
import { testContext } from '../fixtures/cli/context';
import { blankRuns, bomLines, HEADER, malformedRows, multilineQuoted, shortRows, wideHeader } from '../fixtures/hostile/shapes';
import { generateBatch } from './generate';
import { median, writeReadmeSection } from './report';
import { atMost, targetLines, type Target } from './table';

// Time and memory of `paygate lint`'s work (read the file, lint it) on each hostile shape at 1×, 10× and
// 100× its size, and of `paygate fix` on a copy of the same file (its peak against lint's: within 2×). Each measurement is its own process, so its peak RSS is the lint's alone; the ratio per
// 10× step shows the growth (linear ≈ 10×). Figures go to stdout and out/bench/hostile.md; nothing here
// asserts a time. `--big` adds the 300 MB batch (a valid one: peak memory against the file's size).

const OUT = join(__dirname, 'hostile');
const RUNS = 3; // per 1× and 10× size (median); one run at 100×

interface Shape {
  name: string;
  /** The text at scale 1, 10 or 100. */
  make(scale: number): string;
  unit(scale: number): string;
}

const SHAPES: Shape[] = [
  { name: 'valid rows', make: (s) => generateBatch(5_000 * s), unit: (s) => `${(5_000 * s).toLocaleString('en-US')} rows` },
  { name: 'malformed rows (`"a"b`)', make: (s) => malformedRows(16_000 * s), unit: (s) => `${(16_000 * s).toLocaleString('en-US')} rows` },
  { name: 'wide header', make: (s) => wideHeader(8_000 * s), unit: (s) => `${(8_000 * s).toLocaleString('en-US')} columns` },
  { name: 'BOMs at line starts', make: (s) => bomLines(16_000 * s), unit: (s) => `${(16_000 * s).toLocaleString('en-US')} rows` },
  { name: 'blank-line runs', make: (s) => blankRuns(700_000 * s), unit: (s) => `${(700_000 * s).toLocaleString('en-US')} blank lines` },
  { name: 'short rows (`x`)', make: (s) => shortRows(500_000 * s), unit: (s) => `${(500_000 * s).toLocaleString('en-US')} rows` },
  { name: 'multi-line quoted fields', make: (s) => multilineQuoted(6_000 * s), unit: (s) => `${(6_000 * s).toLocaleString('en-US')} rows` },
  // Issue 17's two: every row short of a full header (fix once held every row's problems), and a file of
  // nothing but quote characters (one field that never closes).
  {
    name: 'rows of `a` under a full header',
    make: (s) => `${HEADER}\n${'a\n'.repeat(50_000 * s)}`,
    unit: (s) => `${(50_000 * s).toLocaleString('en-US')} rows`,
  },
  { name: 'only `"` characters', make: (s) => '"'.repeat(500_000 * s), unit: (s) => `${(500_000 * s).toLocaleString('en-US')} quotes` },
];

interface Measure {
  ms: number;
  /** Peak resident memory above the process's own before reading the file, in bytes. */
  peak: number;
  diagnostics: number;
}

/**
 * The child: read and lint like `paygate lint` does (its limit on listed problems included), or fix the
 * file in place like `paygate fix` (its printed lines dropped); report.
 */
async function measureOne(file: string, fix: boolean): Promise<void> {
  const idle = process.memoryUsage().rss;
  const t0 = performance.now();
  let diagnostics = 0;
  // The commands' own functions with their default options, as `paygate lint FILE` / `paygate fix FILE` run them.
  const ctx = testContext({ stdout: (text: string) => void (diagnostics += text.split('\n').length - 1) });
  if (fix) await fixFile(file, {}, ctx);
  else await lintFiles([file], { format: 'text' }, ctx);
  const ms = performance.now() - t0;
  const peak = process.resourceUsage().maxRSS * 1024 - idle;
  process.stdout.write(JSON.stringify({ ms, peak, diagnostics }));
}

function measure(file: string, fix = false): Measure {
  // fix rewrites its file: each run fixes a fresh copy.
  const target = fix ? `${file}.fix.rpcsv` : file;
  if (fix) copyFileSync(file, target);
  const child = spawnSync(process.execPath, [__filename, fix ? '--measure-fix' : '--measure', target], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`measuring ${file} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Measure;
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

function run(big: boolean): void {
  mkdirSync(OUT, { recursive: true });
  const targets: Target[] = [];
  const lines = [
    `Each figure: \`paygate lint FILE\` (the command's function, default options, its output counted and dropped) of one file in its own process (median of ${RUNS} runs at 1× and 10×, one at 100×). Peak memory is the process's peak RSS above its RSS before reading; ×10 columns compare with the row above (linear ≈ 10×). The fix columns: \`paygate fix FILE\` of a copy of the same file, measured the same way (written in place when it changes anything); fix ÷ lint compares the two peaks (target ≤ 2×).`,
    '',
    '| shape | size | file MB | lint ms | time ×10 | peak MB | memory ×10 | peak / file | fix ms | fix peak MB | fix ÷ lint peak |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  console.log(lines[0]);
  for (const shape of SHAPES) {
    let previous: Measure | undefined;
    for (const scale of [1, 10, 100]) {
      const file = join(OUT, 'shape.rpcsv');
      writeFileSync(file, shape.make(scale));
      const bytes = statSync(file).size;
      const runs = Array.from({ length: scale === 100 ? 1 : RUNS }, () => measure(file));
      const m: Measure = { ms: median(runs.map((r) => r.ms)), peak: median(runs.map((r) => r.peak)), diagnostics: runs[0].diagnostics };
      const fixes = Array.from({ length: scale === 100 ? 1 : RUNS }, () => measure(file, true));
      const f = { ms: median(fixes.map((r) => r.ms)), peak: median(fixes.map((r) => r.peak)) };
      const ratio = (now: number, before: number | undefined) => (before === undefined ? '' : `${(now / before).toFixed(1)}×`);
      const row = `| ${shape.name} | ${shape.unit(scale)} | ${mb(bytes)} | ${m.ms.toFixed(0)} | ${ratio(m.ms, previous?.ms)} | ${mb(m.peak)} | ${ratio(m.peak, previous?.peak)} | ${(m.peak / bytes).toFixed(1)}× | ${f.ms.toFixed(0)} | ${mb(f.peak)} | ${(f.peak / m.peak).toFixed(1)}× |`;
      console.log(row);
      lines.push(row);
      if (scale === 100) targets.push(atMost(`fix ÷ lint peak memory, ${shape.name}, ${shape.unit(scale)}`, f.peak / m.peak, 2, '×', 1));
      previous = m;
    }
  }
  if (big) {
    const file = join(OUT, 'big.rpcsv');
    // 300 MB of valid rows, written in pieces (one string that size would itself need the memory measured).
    // Each piece renames its order ids, so the batch stays valid (no duplicate-order-id per row).
    const piece = generateBatch(100_000);
    const body = piece.slice(piece.indexOf('\r\n') + 2);
    writeFileSync(file, piece);
    for (let k = 1; statSync(file).size < 300e6; k++) writeFileSync(file, body.replaceAll('ORD-', `ORD${k}-`), { flag: 'a' });
    const bytes = statSync(file).size;
    const m = measure(file);
    const f = measure(file, true);
    const row = `| valid batch (\`--big\`) | 300 MB | ${mb(bytes)} | ${m.ms.toFixed(0)} |  | ${mb(m.peak)} |  | ${(m.peak / bytes).toFixed(1)}× | ${f.ms.toFixed(0)} | ${mb(f.peak)} | ${(f.peak / m.peak).toFixed(1)}× |`;
    console.log(row);
    lines.push(row);
  }
  lines.push('', targetLines(targets).join('\n'));
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(__dirname, 'hostile.md'), `${lines.join('\n')}\n`);
  console.log(`written to ${join(__dirname, 'hostile.md')}`);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('hostile', lines.join('\n'));
}

if (require.main === module) {
  const fix = process.argv.includes('--measure-fix');
  const at = process.argv.indexOf(fix ? '--measure-fix' : '--measure');
  if (at !== -1) {
    measureOne(process.argv[at + 1], fix).catch((err) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    });
  } else {
    run(process.argv.includes('--big'));
  }
}
