import * as vscode from 'vscode';
import type { Batch } from '../../core/rules/batch';
import { cellAt } from '../../core/rules/cells';
import { COLUMNS, columnSpec, type ValueKind } from '../../core/rules/columns';
import { LANGUAGE_ID } from './constants';
import { columnDoc } from './markdown';
import type { LintStore } from './store';

/** The closed value sets of the table, offered in data cells of those columns. */
const ENUM_VALUES: Partial<Record<ValueKind, readonly [value: string, meaning: string][]>> = {
  'card-type': [
    ['SRC', "the sender's source card"],
    ['DST', "the receiver's destination card"],
  ],
  period: [
    ['day', 'every interval days'],
    ['week', 'every 7 × interval days'],
    ['month', 'the same day of the month as start-date, every interval months'],
  ],
};

/**
 * Column names in the header line (those the header lacks, in the table's order, with documentation),
 * and the allowed values in a data cell of a column with a closed set (rp_card_type, period). An item
 * replaces the whole cell under the cursor, so completing a half-typed or misspelt name leaves nothing behind.
 */
export class PaygateCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly store: LintStore) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const { batch } = this.store.get(document);
    const offset = document.offsetAt(position);
    const header = batch.header;
    if (!header ? position.line === 0 : offset >= header.start && offset <= header.end) {
      return columnItems(document, batch, offset, position);
    }
    return valueItems(document, batch, offset, position);
  }
}

function cellRanges(document: vscode.TextDocument, cell: { start: number; end: number } | undefined, position: vscode.Position) {
  const start = cell ? document.positionAt(cell.start) : position;
  const end = cell ? document.positionAt(cell.end) : position;
  return { inserting: new vscode.Range(start, position), replacing: new vscode.Range(start, end) };
}

function columnItems(document: vscode.TextDocument, batch: Batch, offset: number, position: vscode.Position): vscode.CompletionItem[] | undefined {
  const fields = batch.header?.fields ?? [];
  const at = fields.findIndex((f) => f.start <= offset && offset <= f.end);
  const cell = at >= 0 ? fields[at] : undefined;
  // A quoted cell is left alone: a column name never needs quotes, and typing inside quotes is text.
  if (cell?.quoted) return undefined;

  const present = new Set<string>();
  batch.columns.forEach((column, i) => {
    if (column !== null && i !== at) present.add(column);
  });
  const range = cellRanges(document, cell, position);
  return COLUMNS.filter((spec) => !present.has(spec.name)).map((spec) => {
    const item = new vscode.CompletionItem({ label: spec.name, description: spec.necessityText }, vscode.CompletionItemKind.Field);
    item.range = range;
    item.insertText = spec.name;
    // Table order (required columns first), not alphabetical.
    item.sortText = String(COLUMNS.indexOf(spec)).padStart(3, '0');
    item.documentation = columnDoc(spec);
    return item;
  });
}

function valueItems(document: vscode.TextDocument, batch: Batch, offset: number, position: vscode.Position): vscode.CompletionItem[] | undefined {
  const location = cellAt(batch, offset);
  if (!location || location.isHeader || location.column === null) return undefined;
  const spec = columnSpec(location.column);
  const values = spec && ENUM_VALUES[spec.kind];
  if (!spec || !values) return undefined;
  // A DST row must leave a DST-unsupported column empty: suggesting a value there would suggest an error.
  if (!spec.dst && location.row?.value('rp_card_type') === 'DST') return undefined;
  const cell = batch.csv.records[location.recordIndex]?.fields[location.fieldIndex];
  if (cell?.quoted) return undefined;
  const range = cellRanges(document, cell, position);
  return values.map(([value, meaning], i) => {
    const item = new vscode.CompletionItem({ label: value, description: meaning }, vscode.CompletionItemKind.EnumMember);
    item.range = range;
    item.sortText = String(i);
    item.documentation = columnDoc(spec);
    return item;
  });
}

export function registerCompletion(context: vscode.ExtensionContext, store: LintStore): void {
  context.subscriptions.push(vscode.languages.registerCompletionItemProvider({ language: LANGUAGE_ID }, new PaygateCompletion(store), ';'));
}
