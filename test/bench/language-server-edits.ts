import { firstProblems, MAX_PUBLISHED, publishedDiagnostics } from '../../src/language-server/diagnostics';
import { IncrementalLint, type TextChange } from '../../src/language-server/incremental';
import { LineDocument } from '../../src/language-server/lineDocument';
import { generateBatch } from './generate';
import { median } from './report';

// The language server's incremental lint on a file of a million rows, in this process (the 190 MB text
// is not sent over stdio): each edit is applied to the document as the server's sync applies it (LineDocument), then
// linted and its diagnostics made ready to publish. Edits: a line break typed inside a row (and removed
// again), a block of 1,000 rows pasted, the same 1,000 rows deleted, one cell retyped. Each figure is the
// median and 95th percentile of its runs, the median CPU time it took (this process's, collector threads
// included: on a shared machine, the wall time also holds the waits for a core), and the median of its
// publish (finding the first problems the editor is sent and converting them to LSP diagnostics); the reference is the whole-file lint of the
// same text, in the same run. Then the same on a file with a problem on every tenth row.

const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

export interface EditFigures {
  rows: number;
  problems: number;
  open: number;
  /** The index of client-orderids the server builds when idle after the open (IncrementalLint.prepare). */
  prepare: number;
  figures: { name: string; runs: number[]; cpu: number[]; publish: number[] }[];
  patched: number;
  full: number;
}

/** `problemEvery`: a currency the gateway does not take on every so many rows (a file with many problems). */
export function benchEdits(rows = 1_000_000, runs = 21, problemEvery = 0): EditFigures {
  let n = 0;
  const text =
    problemEvery > 0 ? generateBatch(rows).replace(/;EUR;/g, (m) => (++n % problemEvery === 0 ? ';E1;' : m)) : generateBatch(rows);
  const doc = LineDocument.create('file:///bench/million.rpcsv', 'paygate-recurring-csv', 1, text);
  const linter = new IncrementalLint();
  let t0 = performance.now();
  const problems = linter.lint(doc).diagnostics.length;
  const open = performance.now() - t0;
  t0 = performance.now();
  linter.prepare();
  const prepare = performance.now() - t0;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const figures = ['line break typed in a row, then deleted', 'block of 1,000 rows pasted', '1,000 rows deleted', 'one-cell edit'].map(
    (name) => ({ name, runs: [] as number[], cpu: [] as number[], publish: [] as number[] }),
  );
  const apply = (figure: number, changes: TextChange[]): void => {
    const cpu = process.cpuUsage();
    t0 = performance.now();
    doc.update(changes, doc.version + 1);
    linter.changed(changes);
    const result = linter.lint(doc);
    const t1 = performance.now();
    // As the server publishes (session.ts): the first problems, errors first, and how many there are.
    const { diagnostics, total } = firstProblems(result);
    publishedDiagnostics(diagnostics, doc.uri, MAX_PUBLISHED, total);
    const t2 = performance.now();
    figures[figure].runs.push(t2 - t0);
    figures[figure].publish.push(t2 - t1);
    const used = process.cpuUsage(cpu);
    figures[figure].cpu.push((used.user + used.system) / 1000);
  };
  for (let i = 0; i < runs; i++) {
    const line = 1 + ((i * 40_093) % (rows - 2_000));
    // Typed in the middle of the order_desc cell, then removed: the row splits in two and joins again.
    const at = { line, character: 20 };
    apply(0, [{ range: { start: at, end: at }, text: eol }]);
    apply(0, [{ range: { start: at, end: { line: line + 1, character: 0 } }, text: '' }]);
    const block = doc.getText({ start: { line: line + 10, character: 0 }, end: { line: line + 1_010, character: 0 } });
    const start = { line, character: 0 };
    apply(1, [{ range: { start, end: start }, text: block }]);
    apply(2, [{ range: { start, end: { line: line + 1_000, character: 0 } }, text: '' }]);
    apply(3, [{ range: { start, end: { line, character: 3 } }, text: i % 2 ? 'ORD' : 'ORX' }]);
  }
  return { rows, problems, open, prepare, figures, patched: linter.counts.patched, full: linter.counts.full };
}

export function editTable(result: EditFigures): string[] {
  return [
    `| edit → diagnostics, ${result.rows.toLocaleString('en-US')} rows, ${result.problems.toLocaleString('en-US')} problems (in-process; target median ≤ 16, p95 ≤ 50) | median ms | p95 ms | CPU ms (median) | of which publish (median) | median vs whole-file lint |`,
    '|---|---:|---:|---:|---:|---:|',
    ...result.figures.map(
      (f) =>
        `| ${f.name} (${f.runs.length} runs) | ${median(f.runs).toFixed(1)} | ${p95(f.runs).toFixed(1)} | ${median(f.cpu).toFixed(1)} | ${median(f.publish).toFixed(2)} | ${(median(f.runs) / result.open).toFixed(4)}× |`,
    ),
    '',
    `Whole-file lint of the ${result.rows.toLocaleString('en-US')} rows (the reference, the first lint on open): ${result.open.toFixed(0)} ms; then, while idle, the index of client-orderids the first edit would wait for: ${result.prepare.toFixed(0)} ms. Edits re-checked alone: ${result.patched}, whole-file lints: ${result.full}.`,
  ];
}

// Alone (`tsx test/bench/language-server-edits.ts ROWS RUNS`); not when bundled into the language-server bench.
if (require.main === module && process.argv[1]?.endsWith('language-server-edits.ts'))
  console.log(editTable(benchEdits(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 21))).join('\n'));
