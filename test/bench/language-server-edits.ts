import { publishedDiagnostics } from '../../src/language-server/diagnostics';
import { IncrementalLint, type TextChange } from '../../src/language-server/incremental';
import { LineDocument } from '../../src/language-server/lineDocument';
import { generateBatch } from './generate';
import { median } from './report';

// The language server's incremental lint on a file of a million rows, in this process (the 190 MB text
// is not sent over stdio): each edit is applied to the document as the server's sync applies it (LineDocument), then
// linted and its diagnostics made ready to publish. Edits: a line break typed inside a row (and removed
// again), a block of 1,000 rows pasted, the same 1,000 rows deleted, one cell retyped. Each figure is the
// median and 95th percentile of its runs; the reference is the whole-file lint of the same text.

const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

export interface EditFigures {
  rows: number;
  open: number;
  figures: { name: string; runs: number[] }[];
  patched: number;
  full: number;
}

export function benchEdits(rows = 1_000_000, runs = 21): EditFigures {
  const text = generateBatch(rows);
  const doc = LineDocument.create('file:///bench/million.rpcsv', 'paygate-recurring-csv', 1, text);
  const linter = new IncrementalLint();
  let t0 = performance.now();
  publishedDiagnostics(linter.lint(doc).diagnostics, doc.uri);
  const open = performance.now() - t0;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const apply = (changes: TextChange[]): number => {
    t0 = performance.now();
    doc.update(changes, doc.version + 1);
    linter.changed(changes);
    publishedDiagnostics(linter.lint(doc).diagnostics, doc.uri);
    return performance.now() - t0;
  };
  const figures = [
    { name: 'line break typed in a row, then deleted', runs: [] as number[] },
    { name: 'block of 1,000 rows pasted', runs: [] as number[] },
    { name: '1,000 rows deleted', runs: [] as number[] },
    { name: 'one-cell edit', runs: [] as number[] },
  ];
  for (let i = 0; i < runs; i++) {
    const line = 1 + ((i * 40_093) % (rows - 2_000));
    // Typed in the middle of the order_desc cell, then removed: the row splits in two and joins again.
    const at = { line, character: 20 };
    figures[0].runs.push(apply([{ range: { start: at, end: at }, text: eol }]));
    figures[0].runs.push(apply([{ range: { start: at, end: { line: line + 1, character: 0 } }, text: '' }]));
    const block = doc.getText({ start: { line: line + 10, character: 0 }, end: { line: line + 1_010, character: 0 } });
    const start = { line, character: 0 };
    figures[1].runs.push(apply([{ range: { start, end: start }, text: block }]));
    figures[2].runs.push(apply([{ range: { start, end: { line: line + 1_000, character: 0 } }, text: '' }]));
    figures[3].runs.push(apply([{ range: { start, end: { line, character: 3 } }, text: i % 2 ? 'ORD' : 'ORX' }]));
  }
  return { rows, open, figures, patched: linter.counts.patched, full: linter.counts.full };
}

export function editTable(result: EditFigures): string[] {
  return [
    `| edit, ${result.rows.toLocaleString('en-US')} rows (in-process) | median ms | p95 ms |`,
    '|---|---:|---:|',
    ...result.figures.map((f) => `| ${f.name} (${f.runs.length} runs) | ${median(f.runs).toFixed(1)} | ${p95(f.runs).toFixed(1)} |`),
    '',
    `Whole-file lint of the ${result.rows.toLocaleString('en-US')} rows (the first lint on open): ${result.open.toFixed(0)} ms. Edits re-checked alone: ${result.patched}, whole-file lints: ${result.full}.`,
  ];
}

// Alone (`tsx test/bench/language-server-edits.ts ROWS RUNS`); not when bundled into the language-server bench.
if (require.main === module && process.argv[1]?.endsWith('language-server-edits.ts'))
  console.log(editTable(benchEdits(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 21))).join('\n'));
