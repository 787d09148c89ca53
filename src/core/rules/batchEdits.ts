import { applyEdits, type TextEdit } from '../text';
import type { Batch, BatchRow } from './batch';

// Edits of a whole batch that the ledger's findings call for, the same in every face: emptying every cvv2
// value once the batch is accepted (`cvv-after-send`, `paygate fix --strip-cvv`), and moving rows already
// sent into a file of their own (`already-sent`), never deleting them silently.

const CVV = 'cvv2';

/** A row whose cells can be edited one by one: no CSV syntax problem (a field count off is fine). */
function editable(row: BatchRow): boolean {
  return !row.record.syntaxProblem;
}

/** Edits that empty every non-empty cvv2 value; the column and its delimiters stay. */
export function stripCvvEdits(batch: Batch): TextEdit[] {
  const column = batch.columnIndex.get(CVV);
  if (column === undefined) return [];
  const edits: TextEdit[] = [];
  for (const row of batch.rows) {
    if (!editable(row)) continue;
    const value = row.record.values[column];
    if (value === undefined || value === '') continue;
    const range = batch.csv.index.range(row.record.fieldStart(column), row.record.fieldEnd(column));
    edits.push({ range, newText: '' });
  }
  return edits;
}

/** The text with every cvv2 value emptied, and how many there were. */
export function stripCvv(text: string, batch: Batch): { text: string; count: number } {
  const edits = stripCvvEdits(batch);
  return { text: edits.length === 0 ? text : applyEdits(text, edits), count: edits.length };
}

/** The line break the file uses after its header (CRLF when there is none to copy). */
function lineBreakOf(batch: Batch): string {
  const text = batch.csv.text;
  const end = batch.header ? batch.header.end : 0;
  if (text.startsWith('\r\n', end)) return '\r\n';
  return text[end] === '\n' || text[end] === '\r' ? text[end] : '\r\n';
}

/**
 * Moving the rows that start on `lines` (1-based) out of the batch: the new file's text (the header and
 * those rows as written, in file order) and the edits that delete them from this one (each row with its
 * line break; the last row of the file with the break before it).
 */
export function moveRowsOut(batch: Batch, lines: ReadonlySet<number>): { moved: string; edits: TextEdit[]; count: number } {
  const csv = batch.csv;
  const text = csv.text;
  const eol = lineBreakOf(batch);
  const header = batch.header ? text.slice(batch.header.start, batch.header.end) : '';
  const parts = [header];
  /** Offsets to delete, in file order; touching spans are merged (two rows moved from the end of a file). */
  const spans: [number, number][] = [];
  for (const row of batch.rows) {
    const start = row.record.start;
    if (!lines.has(csv.index.positionAt(start).line + 1)) continue;
    const end = row.record.end;
    parts.push(text.slice(start, end));
    const next = row.recordIndex + 1 < csv.recordCount ? csv.recordStart(row.recordIndex + 1) : text.length;
    // Up to the next record; at the end of a file without a final line break, from the previous record's end.
    const span: [number, number] = next > end ? [start, next] : [previousEnd(batch, row), end];
    const last = spans[spans.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else spans.push(span);
  }
  const edits = spans.map(([from, to]) => ({ range: csv.index.range(from, to), newText: '' }));
  return { moved: `${parts.join(eol)}${eol}`, edits, count: parts.length - 1 };
}

function previousEnd(batch: Batch, row: BatchRow): number {
  return row.recordIndex > 0 ? batch.csv.record(row.recordIndex - 1).end : row.record.start;
}
