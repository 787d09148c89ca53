import { formatGithub } from '../../src/cli/format/github';
import { formatJson } from '../../src/cli/format/json';
import { formatSarif } from '../../src/cli/format/sarif';
import { formatText } from '../../src/cli/format/text';
import type { FileLint } from '../../src/cli/format/problems';
import { lint } from '../../src/core/rules/lint';
import { publishedDiagnostics } from '../../src/language-server/diagnostics';
import { generateBatch } from './generate';
import { median } from './report';

// Lint of a batch with problems on nearly every row (a duplicate client-orderid quoted with the row it was
// first used on, a start-date in the past, an amount that is no amount quoted as it was written), and
// each face laying out what it shows: `paygate lint`'s formats of the first 10,000 problems (as the CLI
// lists them) and the language server's publish of the first 1,000 of all of them (as the editor gets
// them). A problem's message is a `Said` (issue 38): built per problem in the core, laid out at the face.
// CPU time, medians; nothing is asserted. `--rows N` for a small run (default 100,000).

const at = process.argv.indexOf('--rows');
const ROWS = at > 0 ? Number(process.argv[at + 1]) : 100_000;
const RUNS = 7;

function problemBatch(rows: number): string {
  return generateBatch(rows)
    .replace(/ORD-(\d{7})/g, (_, n: string) => `ORD-${Number(n) % 50}`)
    .replace(/;01\.0(\d)\.2027;/g, ';01.0$1.2020;')
    .replace(/;19\.90;/g, ';19.9O;');
}

function cpu(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const text = problemBatch(ROWS);
const all = lint(text).diagnostics;
const listed = lint(text, { maxDiagnostics: 10_000 });
const files: FileLint[] = [{ file: 'many.rpcsv', text, diagnostics: listed.diagnostics, omitted: listed.omitted }];
const context = { cwd: '/work', version: '0.0.0' };
const steps: [string, () => unknown][] = [
  ['lint, every problem (the language server)', () => lint(text)],
  ['lint, first 10,000 listed (paygate lint)', () => lint(text, { maxDiagnostics: 10_000 })],
  ['publish the first 1,000 (LSP diagnostics)', () => publishedDiagnostics(all, 'file:///work/many.rpcsv')],
  ['text format', () => formatText(files)],
  ['json format', () => formatJson(files)],
  ['sarif format', () => formatSarif(files, context)],
  ['github format', () => formatGithub(files, context)],
];
console.log(`${ROWS.toLocaleString('en-US')} rows, ${all.length.toLocaleString('en-US')} problems`);
console.log('| step | CPU ms (median) |\n|---|---:|');
for (const [name, fn] of steps) {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(cpu(fn));
  console.log(`| ${name} | ${median(times).toFixed(1)} |`);
}
