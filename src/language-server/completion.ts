import {
  CompletionItemKind,
  InsertReplaceEdit,
  MarkupKind,
  TextEdit,
  type CompletionItem,
  type Position,
  type Range,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readBatch, type Batch } from '../core/rules/batch';
import { cellAt } from '../core/rules/cells';
import { COLUMNS, columnSpec, type ColumnSpec, type ValueKind } from '../core/rules/columns';
import type { LintResult } from '../core/rules/lint';
import { PERIODS, type Period } from '../core/periods';
import { columnDoc } from './markdown';
import { CALLBACK_COLUMNS } from '../shared/callbackProtocol';
import { callbackAddressItems } from './callbackAddress';

/** What the client can show; older clients get a plain replace edit and the meaning in `detail`. */
export interface CompletionSupport {
  insertReplace: boolean;
  labelDetails: boolean;
}

const PERIOD_MEANINGS: Record<Period, string> = {
  day: 'every interval days',
  week: 'every 7 × interval days',
  month: 'the same day of the month as start-date, every interval months',
};

/** The closed value sets of the table, offered in data cells of those columns. */
const ENUM_VALUES: Partial<Record<ValueKind, readonly [value: string, meaning: string][]>> = {
  'card-type': [
    ['SRC', "the sender's source card"],
    ['DST', "the receiver's destination card"],
  ],
  period: PERIODS.map((period) => [period, PERIOD_MEANINGS[period]]),
};

/**
 * Column names in the header line (those the header lacks, in the table's order, with documentation),
 * and the allowed values in a data cell of a column with a closed set (rp_card_type, period). An item
 * replaces the whole cell under the cursor, so completing a half-typed or misspelt name leaves nothing behind.
 */
export function completionsAt(
  document: TextDocument,
  { batch }: LintResult,
  position: Position,
  support: CompletionSupport,
): CompletionItem[] | null {
  const offset = document.offsetAt(position);
  const header = batch.header;
  if (!header ? position.line === 0 : offset >= header.start && offset <= header.end) {
    return columnItems(document, batch, offset, position, support);
  }
  return valueItems(document, batch, offset, position, support);
}

function item(
  label: string,
  description: string,
  kind: CompletionItemKind,
  spec: ColumnSpec,
  range: { insert: Range; replace: Range },
  sortText: string,
  support: CompletionSupport,
): CompletionItem {
  return {
    label,
    kind,
    ...(support.labelDetails ? { labelDetails: { description } } : { detail: description }),
    textEdit: support.insertReplace ? InsertReplaceEdit.create(label, range.insert, range.replace) : TextEdit.replace(range.replace, label),
    sortText,
    documentation: { kind: MarkupKind.Markdown, value: columnDoc(spec) },
  };
}

function cellRanges(
  document: TextDocument,
  cell: { start: number; end: number } | undefined,
  position: Position,
): { insert: Range; replace: Range } {
  const start = cell ? document.positionAt(cell.start) : position;
  const end = cell ? document.positionAt(cell.end) : position;
  return { insert: { start, end: position }, replace: { start, end } };
}

function columnItems(
  document: TextDocument,
  batch: Batch,
  offset: number,
  position: Position,
  support: CompletionSupport,
): CompletionItem[] | null {
  const fields = batch.header?.fields ?? [];
  const at = fields.findIndex((f) => f.start <= offset && offset <= f.end);
  const cell = at >= 0 ? fields[at] : undefined;
  // A quoted cell is left alone: a column name never needs quotes, and typing inside quotes is text.
  if (cell?.quoted) return null;
  const present = new Set<string>();
  batch.columns.forEach((column, i) => {
    if (column !== null && i !== at) present.add(column);
  });
  const range = cellRanges(document, cell, position);
  // Table order (required columns first), not alphabetical.
  return COLUMNS.filter((spec) => !present.has(spec.name)).map((spec) =>
    item(spec.name, spec.necessityText, CompletionItemKind.Field, spec, range, String(COLUMNS.indexOf(spec)).padStart(3, '0'), support),
  );
}

function valueItems(
  document: TextDocument,
  batch: Batch,
  offset: number,
  position: Position,
  support: CompletionSupport,
): CompletionItem[] | null {
  const location = cellAt(batch, offset);
  if (!location || location.isHeader || location.column === null) return null;
  const spec = columnSpec(location.column);
  if (spec && CALLBACK_COLUMNS.includes(spec.name)) {
    const cell = batch.csv.records[location.recordIndex]?.fields[location.fieldIndex];
    return cell?.quoted ? null : callbackAddressItems(cellRanges(document, cell, position), support.insertReplace);
  }
  const values = spec && ENUM_VALUES[spec.kind];
  if (!spec || !values) return null;
  // A DST row must leave a DST-unsupported column empty: suggesting a value there would suggest an error.
  if (!spec.dst && location.row?.value('rp_card_type') === 'DST') return null;
  const cell = batch.csv.records[location.recordIndex]?.fields[location.fieldIndex];
  if (cell?.quoted) return null;
  const range = cellRanges(document, cell, position);
  return values.map(([value, meaning], i) => item(value, meaning, CompletionItemKind.EnumMember, spec, range, String(i), support));
}

/** Whether the cursor is in the header's last cell: a name completed there is a column being added. */
export function atHeaderEnd(document: TextDocument, { batch }: LintResult, position: Position): boolean {
  const fields = batch.header?.fields ?? [];
  const last = fields[fields.length - 1];
  const offset = document.offsetAt(position);
  return last !== undefined && last.start <= offset && offset <= last.end;
}

/**
 * Adding a column at the end of the header leaves every row one field short (field-count on each, which
 * hides every other problem). With the name comes an empty field at the end of each row that is exactly
 * one short, in the same edit (one undo step); rows already as long as the header are left alone.
 */
export function emptyFieldEdits(document: TextDocument): TextEdit[] {
  const batch = readBatch(document.getText());
  const width = batch.header?.values.length ?? 0;
  if (width < 2) return [];
  const edits: TextEdit[] = [];
  for (const row of batch.rows) {
    if (row.record.values.length !== width - 1) continue;
    const at = document.positionAt(row.record.end);
    edits.push(TextEdit.insert(at, ';'));
  }
  return edits;
}
