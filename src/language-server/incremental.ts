import { todayLocal, type CalendarDate } from '../core/dates';
import { CodeInfo, Codes, type Code } from '../core/rules/codes';
import { STATE_COUNTRIES } from '../core/rules/columns';
import { lazyFix } from '../core/rules/fixes';
import { lint, type LintResult } from '../core/rules/lint';
import type { Fix, LintDiagnostic } from '../core/rules/types';
import type { CsvRecord } from '../core/csv/parse';
import type { Position, Range } from '../core/text';

// Incremental lint on the core's public `lint`: the server keeps each data row's diagnostics and the
// cross-row facts (the header, which rows are SRC, the first row of each client-orderid), so an edit
// inside one row re-checks that row alone — by linting the header and that row as a two-line file —
// and patches what depends on it (duplicate-order-id of the rows sharing its id). Anything else falls
// back to a whole-file lint: header edits, line breaks typed or pasted, quotes that change the record
// structure, blank lines, the first SRC row appearing or the last one going. A property test checks that
// the result always equals a fresh whole-file lint.

/** A change as LSP sends it: a range in the text before it, or the whole text. */
export interface TextChange {
  range?: Range;
  text: string;
}

/** The document as the server holds it (vscode-languageserver-textdocument's TextDocument): its line table is kept up to date by the sync. */
export interface LintedText {
  getText(): string;
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
  readonly lineCount: number;
}

/** Per-cell codes: one of them on the client-orderid cell keeps the row out of the duplicate check. */
const CELL_CODES: ReadonlySet<Code> = new Set([Codes.requiredValue, Codes.dstUnsupported, Codes.maxLength, Codes.invalidValue]);

interface RowState {
  /** First line of the record and how many lines it takes (quoted line breaks). */
  line: number;
  lines: number;
  rowNumber: number;
  /** The row's own diagnostics, in file order, without duplicate-order-id. */
  diagnostics: LintDiagnostic[];
  dup: LintDiagnostic | undefined;
  /** The client-orderid when the row takes part in the duplicate check. */
  key: string | undefined;
  /**
   * The client-orderid cell's place relative to the row (lines after its first, characters), for a
   * duplicate-order-id the row may get later. Numbers, not the record: the parsed file can be let go.
   */
  keyCell: Range | undefined;
  src: boolean;
  srcNeedsState: boolean;
}

interface State {
  today: CalendarDate;
  headerText: string;
  /** The line break after the header: the small files are joined with the document's own. */
  eol: string;
  /** The header's first line in the document (blank lines may come before it). */
  headerLine: number;
  /** Diagnostics outside data rows (header, blank lines, byte order mark), in file order. */
  fixed: LintDiagnostic[];
  rows: RowState[];
  /** Row index of each line, -1 for lines outside data rows. */
  rowAtLine: Int32Array;
  srcRows: number;
  srcStateRows: number;
  at: { orderId: number; cardType: number; country: number };
}

export interface LocalText {
  text: string;
  lineShift: number;
  /** The row's number among the data rows of the whole file (0 for the header alone). */
  rowNumber: number;
}

/** One document's lint, kept up to date from the changes the client sends. */
export class IncrementalLint {
  private state: State | undefined;
  private dirty = new Set<number>();
  private invalid = true;

  constructor(private readonly today: () => CalendarDate = todayLocal) {}

  /** Records which rows a didChange touched; anything not inside one data row's lines forces a full lint. */
  changed(changes: readonly TextChange[]): void {
    if (this.invalid || !this.state) return;
    for (const change of changes) {
      const r = change.range;
      const row = r && r.start.line === r.end.line && !/[\r\n]/.test(change.text) ? this.state.rowAtLine[r.start.line] : -1;
      if (row === undefined || row < 0) {
        this.invalid = true;
        return;
      }
      this.dirty.add(row);
    }
  }

  /** How the lints so far were made: rows re-checked alone, or whole-file lints. */
  readonly counts = { patched: 0, full: 0 };

  /** The lint of the document as it is after every change recorded. */
  lint(document: LintedText): LintResult {
    if (!this.invalid && this.state) {
      const patched = this.patch(this.state, document);
      if (patched) {
        this.counts.patched++;
        return patched;
      }
    }
    this.counts.full++;
    return this.full(document);
  }

  /**
   * The header, and the data row on `line` when there is one, as a small file of their own: what a hover
   * or a completion at that line needs, without parsing a 100,000-row file again after each keystroke.
   * `lineShift` moves the small file's lines to the document's. Undefined when only the whole file will
   * do (the lint is not up to date, or the line is neither the header nor a data row).
   */
  local(document: LintedText, line: number): LocalText | undefined {
    const state = this.state;
    if (this.invalid || !state || this.dirty.size > 0) return undefined;
    const r = state.rowAtLine[line] ?? -1;
    if (r < 0) {
      const headerLines = lineBreaks(state.headerText, 0, state.headerText.length) + 1;
      if (line < state.headerLine || line >= state.headerLine + headerLines) return undefined;
      return { text: state.headerText, lineShift: state.headerLine, rowNumber: 0 };
    }
    const row = state.rows[r];
    const text = `${state.headerText}${state.eol}${rowText(document, row)}`;
    return { text, lineShift: row.line - (lineBreaks(state.headerText, 0, state.headerText.length) + 1), rowNumber: row.rowNumber };
  }

  private full(document: LintedText): LintResult {
    const today = this.today();
    const text = document.getText();
    const result = lint(text, { today });
    this.state = build(result, document, today);
    this.invalid = this.state === undefined;
    this.dirty.clear();
    return result;
  }

  /** Re-checks the dirty rows; undefined when the change reaches beyond them (then a full lint runs). */
  private patch(state: State, document: LintedText): LintResult | undefined {
    const text = document.getText();
    const touchedKeys = new Set<string>();
    let srcRows = state.srcRows;
    let srcStateRows = state.srcStateRows;
    const updates: [number, RowState][] = [];
    for (const r of this.dirty) {
      const old = state.rows[r];
      const next = recheck(state, old, document);
      if (!next) return undefined;
      srcRows += Number(next.src) - Number(old.src);
      srcStateRows += Number(next.srcNeedsState) - Number(old.srcNeedsState);
      updates.push([r, next]);
    }
    // Whether any row is SRC (and needs a state) decides header problems: a flip is a full lint.
    if (srcRows > 0 !== state.srcRows > 0 || srcStateRows > 0 !== state.srcStateRows > 0) return undefined;
    for (const [r, next] of updates) {
      const old = state.rows[r];
      if (old.key !== undefined) touchedKeys.add(old.key);
      if (next.key !== undefined) touchedKeys.add(next.key);
      if (next.key === undefined) next.dup = undefined;
      state.rows[r] = next;
    }
    // Rows sharing a client-orderid with a re-checked row: a scan of the keys costs less than keeping a
    // map of 100,000 ids cut out of one large text.
    if (touchedKeys.size > 0) {
      const firstOf = new Map<string, number>();
      const keys = [...touchedKeys];
      for (const row of state.rows) {
        const key = row.key;
        // Comparing with the one or two touched ids is cheaper than hashing every row's id.
        if (key === undefined || !keys.some((k) => k === key)) continue;
        const first = firstOf.get(key);
        if (first === undefined) firstOf.set(key, row.rowNumber);
        row.dup = first === undefined ? undefined : duplicateOf(row, key, first);
      }
    }
    state.srcRows = srcRows;
    state.srcStateRows = srcStateRows;
    this.dirty.clear();
    return resultOf(state, text);
  }
}


/** The state of a whole-file lint, or undefined when no row can be re-checked alone. */
function build(result: LintResult, document: LintedText, today: CalendarDate): State | undefined {
  const { batch } = result;
  const header = batch.header;
  // A file on another delimiter, or a header that is not well-formed CSV, reports nothing per row.
  if (!header || header.isBlank || header.syntaxProblem || result.diagnostics.some((d) => d.code === Codes.delimiter)) return undefined;
  const text = batch.csv.text;
  const at = {
    orderId: batch.columnIndex.get('client-orderid') ?? -1,
    cardType: batch.columnIndex.get('rp_card_type') ?? -1,
    country: batch.columnIndex.get('country') ?? -1,
  };
  // Lines from the document's own line table: the core's is only built when there are problems.
  const rowAtLine = new Int32Array(document.lineCount).fill(-1);
  let srcRows = 0;
  let srcStateRows = 0;
  const rows: RowState[] = batch.rows.map((row, r) => {
    const record = row.record;
    const line = document.positionAt(record.start).line;
    const lines = document.positionAt(record.end).line - line + 1;
    rowAtLine.fill(r, line, line + lines);
    const values = record.values;
    const src = row.trusted && at.cardType >= 0 && values[at.cardType] === 'SRC';
    const srcNeedsState = src && at.country >= 0 && STATE_COUNTRIES.has(values[at.country]);
    const key = row.trusted && at.orderId >= 0 ? values[at.orderId] : undefined;
    if (src) srcRows++;
    if (srcNeedsState) srcStateRows++;
    return {
      line,
      lines,
      rowNumber: row.rowNumber,
      diagnostics: [],
      dup: undefined,
      key,
      keyCell: key === undefined ? undefined : cellInRecord(text, record, at.orderId),
      src,
      srcNeedsState,
    };
  });
  const fixed: LintDiagnostic[] = [];
  for (const d of result.diagnostics) {
    const r = rowAtLine[d.range.start.line] ?? -1;
    if (r < 0) fixed.push(d);
    else if (d.code === Codes.duplicateOrderId) rows[r].dup = d;
    else rows[r].diagnostics.push(d);
  }
  for (const row of rows) if (row.key !== undefined && row.diagnostics.some(blocksKey)) row.key = undefined;
  const headerLine = document.positionAt(header.start).line;
  const eol = text.charCodeAt(header.end) === 13 ? (text.charCodeAt(header.end + 1) === 10 ? '\r\n' : '\r') : '\n';
  return { today, headerText: text.slice(header.start, header.end), eol, headerLine, fixed, rows, rowAtLine, srcRows, srcStateRows, at };
}

const blocksKey = (d: LintDiagnostic): boolean => d.columnName === 'client-orderid' && CELL_CODES.has(d.code);

/** Lints the header and one row as a file of their own and moves the row's problems to its lines. */
function recheck(state: State, old: RowState, document: LintedText): RowState | undefined {
  const miniText = `${state.headerText}${state.eol}${rowText(document, old)}`;
  const mini = lint(miniText, { today: state.today });
  const { batch } = mini;
  const row = batch.rows[0];
  // Still exactly one well-formed, non-blank record on the same lines: else the structure moved.
  if (batch.rows.length !== 1 || batch.csv.records.length !== 2 || !row || row.record.syntaxProblem || row.record.isBlank) return undefined;
  const record = row.record;
  if (record.end !== miniText.length || lineBreaks(miniText, record.start, record.end) !== old.lines - 1) return undefined;
  const first = lineBreaks(miniText, 0, record.start);
  const shift = old.line - first;
  const diagnostics = mini.diagnostics.filter((d) => d.range.start.line >= first && d.code !== Codes.duplicateOrderId).map((d) => moved(d, shift));
  const values = record.values;
  const { at } = state;
  const src = row.trusted && at.cardType >= 0 && values[at.cardType] === 'SRC';
  const key = row.trusted && at.orderId >= 0 && !diagnostics.some(blocksKey) ? values[at.orderId] : undefined;
  return {
    line: old.line,
    lines: old.lines,
    rowNumber: old.rowNumber,
    diagnostics,
    dup: undefined,
    key,
    keyCell: key === undefined ? undefined : cellInRecord(miniText, record, at.orderId),
    src,
    srcNeedsState: src && at.country >= 0 && STATE_COUNTRIES.has(values[at.country]),
  };
}

/** The text of a row's lines, without the line break after it. */
function rowText(document: LintedText, row: { line: number; lines: number }): string {
  const from = document.offsetAt({ line: row.line, character: 0 });
  // offsetAt stops before a line's break, so this is the end of the row's last line.
  const to = document.offsetAt({ line: row.line + row.lines - 1, character: Number.MAX_SAFE_INTEGER });
  return document.getText().slice(from, to);
}

/** How many line breaks (CRLF, LF or CR) lie between two offsets. */
function lineBreaks(text: string, from: number, to: number): number {
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

function shiftRange(r: Range, lines: number): Range {
  return { start: { line: r.start.line + lines, character: r.start.character }, end: { line: r.end.line + lines, character: r.end.character } };
}

function moved(d: LintDiagnostic, lines: number): LintDiagnostic {
  const fixes: Fix[] = d.fixes.map((f) => ({ ...f, edits: f.edits.map((e) => ({ range: shiftRange(e.range, lines), newText: e.newText })) }));
  return { ...d, range: shiftRange(d.range, lines), fixes };
}

export function duplicateMessage(key: string, firstRow: number): string {
  return `client-orderid "${key}" is already used on row ${firstRow}`;
}

/** The duplicate-order-id of a row whose client-orderid was first used on row `firstRow`, in the core's words. */
function duplicateOf(row: RowState, key: string, firstRow: number): LintDiagnostic {
  return {
    code: Codes.duplicateOrderId,
    severity: CodeInfo[Codes.duplicateOrderId].severity,
    message: duplicateMessage(key, firstRow),
    range: shiftRange(row.keyCell!, row.line),
    columnName: 'client-orderid',
    fixes: [],
  };
}

const before = (a: Range['start'], b: Range['start']): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

/**
 * The file's diagnostics in the core's order (by start; at one start, in the order the checks add them,
 * duplicate-order-id last in its row). Fixes of header problems that edit every row (a missing column)
 * are built from a whole-file lint of this text when someone reads them: the rows may have moved since.
 */
function resultOf(state: State, text: string): LintResult {
  let whole: LintResult | undefined;
  const full = (): LintResult => (whole ??= lint(text, { today: state.today }));
  const fixed = state.fixed.map((d) =>
    d.code !== Codes.missingColumn
      ? d
      : {
          ...d,
          fixes: d.fixes.map((f, j) =>
            lazyFix(f.title, f.safe, () => full().diagnostics.find((x) => x.code === d.code && x.message === d.message)?.fixes[j]?.edits ?? []),
          ),
        },
  );
  const diagnostics: LintDiagnostic[] = [];
  let f = 0;
  for (const row of state.rows) {
    while (f < fixed.length && fixed[f].range.start.line < row.line) diagnostics.push(fixed[f++]);
    const dup = row.dup;
    let placed = dup === undefined;
    for (const d of row.diagnostics) {
      if (!placed && !before(d.range.start, dup!.range.start)) {
        diagnostics.push(dup!);
        placed = true;
      }
      diagnostics.push(d);
    }
    if (!placed) diagnostics.push(dup!);
  }
  while (f < fixed.length) diagnostics.push(fixed[f++]);
  return {
    diagnostics,
    // Hovers and completion read the parsed batch: the whole-file lint of this text, built when asked.
    get batch() {
      return full().batch;
    },
  };
}
