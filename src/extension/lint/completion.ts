import * as vscode from 'vscode';
import { COLUMNS } from '../../core/rules/columns';
import { LANGUAGE_ID } from './constants';
import { columnDoc } from './markdown';
import type { LintStore } from './store';

/**
 * Column names in the header line: those the header does not have yet, in the table's order, each with
 * its documentation. The item replaces the whole cell under the cursor, so completing a half-typed or
 * misspelt name leaves no remainder behind.
 */
export class PaygateColumnCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly store: LintStore) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const { batch } = this.store.get(document);
    const offset = document.offsetAt(position);
    const header = batch.header;
    if (header && (offset < header.start || offset > header.end)) return undefined;
    if (!header && position.line !== 0) return undefined;

    const fields = header?.fields ?? [];
    const at = fields.findIndex((f) => f.start <= offset && offset <= f.end);
    const cell = at >= 0 ? fields[at] : undefined;
    // A quoted cell is left alone: a column name never needs quotes, and editing inside quotes is text.
    if (cell?.quoted) return undefined;

    const present = new Set<string>();
    batch.columns.forEach((column, i) => {
      if (column !== null && i !== at) present.add(column);
    });

    const cellStart = cell ? document.positionAt(cell.start) : position;
    const cellEnd = cell ? document.positionAt(cell.end) : position;
    const range = { inserting: new vscode.Range(cellStart, position), replacing: new vscode.Range(cellStart, cellEnd) };

    return COLUMNS.filter((spec) => !present.has(spec.name)).map((spec) => {
      const item = new vscode.CompletionItem({ label: spec.name, description: spec.necessityText }, vscode.CompletionItemKind.Field);
      item.range = range;
      item.insertText = spec.name;
      item.filterText = spec.name;
      // Table order (required columns first), not alphabetical.
      item.sortText = String(COLUMNS.indexOf(spec)).padStart(3, '0');
      item.documentation = columnDoc(spec);
      return item;
    });
  }
}

export function registerCompletion(context: vscode.ExtensionContext, store: LintStore): void {
  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider({ language: LANGUAGE_ID }, new PaygateColumnCompletion(store), ';'),
  );
}
