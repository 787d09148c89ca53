import Papa from 'papaparse';
import { parseCsv, type CsvRecord } from '../csv/parse';
import { quoteField } from '../csv/write';
import { applyEdits, type Range, type TextEdit } from '../text';
import type { Batch } from './batch';
import type { Code } from './codes';
import { lint, type LintOptions, type LintResult } from './lint';
import type { Fix } from './types';

// The rule book's quick fixes as text edits. `safe` fixes never lose data and are what fixAll and
// `paygate fix` apply; the others (clearing a DST value, guessing a column from a typo, adding an
// empty column) are offered one by one, because applying them blindly on save could destroy input
// or only move the problem.

const editAt = (batch: Batch, start: number, end: number, newText: string): TextEdit => ({
  range: batch.csv.index.range(start, end),
  newText,
});

/** Replace one cell's text (a value is re-quoted when it needs quotes). */
export function replaceCellFix(batch: Batch, record: CsvRecord, field: number, value: string, title: string, safe: boolean, preferred = false): Fix {
  const edit = editAt(batch, record.fieldStart(field), record.fieldEnd(field), quoteField(value));
  return { title, edits: [edit], safe, preferred };
}

/**
 * Append a column to the header and an empty field to every other record. The edits (one per row) are
 * made when first read: a large file missing several columns would otherwise hold millions of edits
 * nobody asked for.
 */
export function appendColumnFix(batch: Batch, column: string): Fix {
  let edits: TextEdit[] | undefined;
  return {
    title: `Add column ${column} to the header (and an empty field to every row)`,
    get edits(): TextEdit[] {
      return (edits ??= appendColumnEdits(batch, column));
    },
    safe: false,
  };
}

function appendColumnEdits(batch: Batch, column: string): TextEdit[] {
  const edits: TextEdit[] = [];
  const csv = batch.csv;
  if (batch.header && !batch.header.isBlank) {
    edits.push(editAt(batch, batch.header.end, batch.header.end, `;${column}`));
  } else {
    edits.push(editAt(batch, 0, 0, column));
  }
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r)) continue;
    const end = csv.record(r).end;
    edits.push(editAt(batch, end, end, ';'));
  }
  return edits;
}

export function dropBomFix(batch: Batch): Fix {
  return { title: 'Remove the byte order mark', edits: [editAt(batch, 0, 1, '')], safe: true };
}

/**
 * Re-reads the file with the delimiter it was written with and writes it back with `;`. The rewrite is
 * made when `edits` is first read (by fix-all or the editor's action), not by every lint of a comma
 * file: on a large file it is a second copy of everything.
 */
export function rewriteDelimiterFix(batch: Batch, from: ',' | '\t'): Fix {
  let edits: TextEdit[] | undefined;
  const label = from === ',' ? 'commas' : 'tabs';
  return {
    title: `Rewrite the file with ";" instead of ${label}`,
    get edits(): TextEdit[] {
      return (edits ??= [rewriteEdit(batch, from)]);
    },
    safe: true,
  };
}

function rewriteEdit(batch: Batch, from: ',' | '\t'): TextEdit {
  const text = batch.csv.text;
  const bom = batch.csv.bom ? 1 : 0;
  const body = text.slice(bom);
  const newline = /\r\n/.test(body) ? '\r\n' : /\r/.test(body) ? '\r' : '\n';
  const parsed = parseCsv(body, from);
  const rows: string[][] = [];
  for (let r = 0; r < parsed.recordCount; r++) rows.push(parsed.record(r).values);
  // Trailing blank records are the file's final line breaks, not data.
  while (rows.length > 1 && rows[rows.length - 1].length === 1 && rows[rows.length - 1][0] === '') rows.pop();
  let out = Papa.unparse(rows, { delimiter: ';', newline, quotes: false, quoteChar: '"', escapeChar: '"' });
  if (/[\r\n]$/.test(body)) out += newline;
  return editAt(batch, bom, text.length, out);
}

/** Every safe fix of a lint result, as non-overlapping edits (the first edit at a place wins). */
export function safeFixEdits(result: LintResult): TextEdit[] {
  return result.diagnostics.flatMap((d) => d.fixes.filter((f) => f.safe).flatMap((f) => f.edits));
}

export interface AppliedFix {
  code: Code;
  title: string;
  range: Range;
}

/** Applies every safe fix, as `paygate fix` and source.fixAll do. */
export function fixAll(text: string, options?: LintOptions): { text: string; applied: AppliedFix[] } {
  // Problems without a safe fix are not kept: a file broken on every row holds no diagnostics for them.
  const result = lint(text, { ...options, safeFixesOnly: true });
  const applied: AppliedFix[] = [];
  for (const d of result.diagnostics) {
    for (const f of d.fixes) if (f.safe) applied.push({ code: d.code, title: f.title, range: d.range });
  }
  return { text: applyEdits(text, safeFixEdits(result)), applied };
}
