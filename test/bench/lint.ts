import { cpus } from 'node:os';
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

if (require.main === module) {
  console.log(`lint vs papaparse parse, median of ${RUNS} runs, node ${process.version}`);
  const lines = benchLint();
  writeReadmeSection(
    'lint',
    [
      `Median of ${RUNS} runs on ${cpus().length} cores, Node ${process.version}; \`npm run bench\` rewrites this table.`,
      '',
      ...lines,
    ].join('\n'),
  );
}
