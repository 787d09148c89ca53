import type { CalendarDate } from '../core/dates';
import { parseCsv, type CsvRecord } from '../core/csv/parse';
import { Codes } from '../core/rules/codes';
import { lazyFix } from '../core/rules/fixes';
import { lint, type LintResult } from '../core/rules/lint';
import { duplicateOrderId, type RowFacts, type RowFactsListener } from '../core/rules/rowFacts';
import type { Fix, LintDiagnostic } from '../core/rules/types';
import type { Position, Range } from '../core/text';
import { lineStarts } from './lineDocument';
import { NO_DIAGNOSTICS, RowList, type RowState } from './rowList';

// The rows of the incremental lint (see incremental.ts): what a whole-file lint leaves per data row, and
// the re-check of one row as a file of its own (its header and it).

/** A change as LSP sends it: a range in the text before it, or the whole text. */
export interface TextChange {
  range?: Range;
  text: string;
}

/** The document as the server holds it (a LineDocument, or any TextDocument): its line table is kept up to date by the sync. */
export interface LintedText {
  getText(range?: Range): string;
  /** The text of this version, joined only when read (LineDocument); otherwise getText() is kept. */
  snapshot?(): () => string;
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
  readonly lineCount: number;
}

export type { RowState } from './rowList';

export interface State {
  today: CalendarDate;
  headerText: string;
  /** The line break after the header: the small files are joined with the document's own. */
  eol: string;
  /** The header's first line in the document (blank lines may come before it). */
  headerLine: number;
  /** Diagnostics outside data rows (header, blank lines, byte order mark), in file order. */
  fixed: LintDiagnostic[];
  rows: RowList;
  /** The document's line count the rows were laid out on: the server's line table must agree. */
  lineCount: number;
  /** Counts the changes recorded: a result read after one is another version's (see rowsResult.ts). */
  generation: number;
  srcRows: number;
  srcStateRows: number;
  /** The client-orderid's header index. */
  orderIdAt: number;
}

/** Every data row's record and facts, as the whole-file lint tells them (LintOptions.onRow). */
export function rowFactsCollector(): { rows: { record: CsvRecord; facts: RowFacts }[]; onRow: RowFactsListener } {
  const rows: { record: CsvRecord; facts: RowFacts }[] = [];
  return { rows, onRow: (record, _rowNumber, facts) => rows.push({ record, facts }) };
}

/** The state of a whole-file lint and the facts its rows told, or undefined when no row can be re-checked alone. */
export function build(
  result: LintResult,
  told: readonly { record: CsvRecord; facts: RowFacts }[],
  document: LintedText,
  today: CalendarDate,
  blockRows?: number,
): State | undefined {
  const { batch } = result;
  const header = batch.header;
  // A file on another delimiter, or a header that is not well-formed CSV, reports nothing per row.
  if (!header || header.isBlank || header.syntaxProblem || result.diagnostics.some((d) => d.code === Codes.delimiter)) return undefined;
  const text = batch.csv.text;
  const orderIdAt = batch.columnIndex.get('client-orderid') ?? -1;
  // Lines from the document's own line table: the core's is only built when there are problems.
  let srcRows = 0;
  let srcStateRows = 0;
  const { csv } = batch;
  const rows: RowState[] = told.map(({ record, facts }) => {
    const line = document.positionAt(record.start).line;
    // The record ends on the line before the next record starts (its `end` would split it into cells
    // again). The last one ends where it ends: a quote left open takes the file's final line break in.
    const last = record.index + 1 >= csv.recordCount;
    const lines = document.positionAt(last ? record.end : csv.recordStart(record.index + 1) - 1).line - line + 1;
    if (facts.src) srcRows++;
    if (facts.srcNeedsState) srcStateRows++;
    return stateOf(facts, line, lines, record.start);
  });
  // Both in file order: each diagnostic goes to the row it starts in, counted from the row's first line.
  const fixed: LintDiagnostic[] = [];
  let r = 0;
  for (const d of result.diagnostics) {
    const line = d.range.start.line;
    while (r < rows.length && rows[r].line + rows[r].lines <= line) r++;
    const row = rows[r];
    if (!row || line < row.line) fixed.push(d);
    else if (d.code === Codes.duplicateOrderId) row.dup = moved(d, -row.line);
    else addDiagnostic(row, moved(d, -row.line));
  }
  const headerLine = document.positionAt(header.start).line;
  const eol = lineEndAt(text, header.end);
  return {
    today,
    // From the start of its line: a byte order mark before it keeps the header line's characters in place.
    headerText: text.slice(document.offsetAt({ line: headerLine, character: 0 }), header.end),
    eol,
    headerLine,
    fixed,
    rows: new RowList(rows, blockRows),
    lineCount: document.lineCount,
    generation: 0,
    srcRows,
    srcStateRows,
    orderIdAt,
  };
}

/** `start`: the record's offset in the text the facts count in (a one-line row: its client-orderid's characters are the offsets from it). */
function stateOf(facts: RowFacts, line: number, lines: number, start: number): RowState {
  const oneLine = lines === 1 && facts.orderIdStart >= 0;
  return {
    line,
    lines,
    diagnostics: NO_DIAGNOSTICS,
    dup: undefined,
    key: facts.orderId,
    src: facts.src,
    srcNeedsState: facts.srcNeedsState,
    keyFrom: oneLine ? facts.orderIdStart - start : -1,
    keyTo: oneLine ? facts.orderIdEnd - start : -1,
  };
}

/** The line ending that starts at `at`: CRLF, a lone CR, or LF (also at the end of the text). */
function lineEndAt(text: string, at: number): '\r\n' | '\r' | '\n' {
  if (text.charCodeAt(at) !== 13) return '\n';
  return text.charCodeAt(at + 1) === 10 ? '\r\n' : '\r';
}

/**
 * Lints the header and a row's lines (after a change, any number of rows) as a file of their own, the
 * row starting on the document's line `at`; the rows found have the document's lines and their problems
 * count from their own first line. Undefined when the lines no longer hold well-formed rows only (a
 * blank line, a quote left open): then the structure around them may have moved too.
 */
export function recheck(state: State, old: RowState, at: number, document: LintedText): RowState[] | undefined {
  const miniText = `${state.headerText}${state.eol}${rowText(document, { line: at, lines: old.lines })}`;
  const told = rowFactsCollector();
  const mini = lint(miniText, { today: state.today, onRow: told.onRow });
  const n = told.rows.length;
  if (n === 0 || mini.batch.csv.recordCount !== n + 1 || told.rows[n - 1].record.end !== miniText.length) return undefined;
  if (told.rows.some((r) => r.record.syntaxProblem)) return undefined;
  // Each record's first line in the small file, from one pass over its line starts (a record starts a
  // line). The records follow one another (a blank line between them is a record of its own, refused
  // above), so a record's lines run to the next one's first.
  const starts = lineStarts(miniText, true);
  let line = 0;
  const firstLines = told.rows.map(({ record }) => {
    while (starts[line] < record.start) line++;
    return line;
  });
  const first = firstLines[0];
  if (starts.length - 1 - first !== old.lines - 1) return undefined;
  const shift = at - first;
  firstLines.push(first + old.lines);
  // Which of the records each line belongs to.
  const rowOfLine: number[] = [];
  const rows = told.rows.map(({ facts }, i) => {
    const lines = firstLines[i + 1] - firstLines[i];
    for (let k = 0; k < lines; k++) rowOfLine[firstLines[i] - first + k] = i;
    return stateOf(facts, firstLines[i] + shift, lines, told.rows[i].record.start);
  });
  for (const d of mini.diagnostics) {
    if (d.range.start.line < first || d.code === Codes.duplicateOrderId) continue;
    const i = rowOfLine[d.range.start.line - first];
    addDiagnostic(rows[i], moved(d, -firstLines[i]));
  }
  return rows;
}

function addDiagnostic(row: RowState, d: LintDiagnostic): void {
  if (row.diagnostics === NO_DIAGNOSTICS) row.diagnostics = [];
  row.diagnostics.push(d);
}

/** The text of a row's lines, without the line break after it. */
export function rowText(document: LintedText, row: { line: number; lines: number }): string {
  // A position stops before a line's break, so this ends at the end of the row's last line.
  const end = { line: row.line + row.lines - 1, character: Number.MAX_SAFE_INTEGER };
  return document.getText({ start: { line: row.line, character: 0 }, end });
}

/** How many line breaks (CRLF, LF or CR) lie between two offsets. */
export function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/** A cell's place in its record: lines after the record's first, and characters on that line. */
function cellInRecord(text: string, record: CsvRecord, index: number): Range {
  const at = (offset: number): Position => {
    let line = 0;
    let lineStart = record.start;
    for (let i = record.start; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, character: offset - lineStart };
  };
  return { start: at(record.fieldStart(index)), end: at(record.fieldEnd(index)) };
}

export function shiftRange(r: Range, lines: number): Range {
  return {
    start: { line: r.start.line + lines, character: r.start.character },
    end: { line: r.end.line + lines, character: r.end.character },
  };
}

/** A diagnostic `lines` lines further down; its fixes' edits are moved when read (most never are). */
export function moved(d: LintDiagnostic, lines: number): LintDiagnostic {
  // Most have none (every duplicate-order-id): no new list for them.
  if (d.fixes.length === 0) return { ...d, range: shiftRange(d.range, lines) };
  const fixes: Fix[] = d.fixes.map((f) => {
    const edits = lazyFix(f.title, f.safe, () => f.edits.map((e) => ({ range: shiftRange(e.range, lines), newText: e.newText })));
    return f.preferred === undefined ? edits : Object.assign(edits, { preferred: f.preferred });
  });
  return { ...d, range: shiftRange(d.range, lines), fixes };
}

/** The duplicate-order-id of a row whose client-orderid (in `cell`, relative to the row) was first used on row `firstRow`: the core's diagnostic, counted from the row's first line. */
export function duplicateOf(key: string, cell: Range, firstRow: number): LintDiagnostic {
  return duplicateOrderId(cell, key, firstRow);
}

/**
 * Where a row's client-orderid cell is, relative to the row: on a one-line row, from what its lint told
 * (keyFrom); on a row of several lines, the row parsed again when it first needs a duplicate-order-id,
 * which most rows never do. After a line break, as in the file: at the start of the text a byte order
 * mark would be taken for the file's.
 */
export function keyCellOf(state: State, row: RowState, document: LintedText): Range {
  if (row.keyFrom >= 0) return { start: { line: 0, character: row.keyFrom }, end: { line: 0, character: row.keyTo } };
  if (row.keyCell) return row.keyCell;
  const text = `\n${rowText(document, { line: state.rows.lineOf(row), lines: row.lines })}`;
  return (row.keyCell = cellInRecord(text, parseCsv(text).record(1), state.orderIdAt));
}
