import type { CompletionItem, Hover, Position } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readBatch } from '../core/rules/batch';
import type { LintResult } from '../core/rules/lint';
import { shiftRange } from './rows';
import type { LintStore } from './store';

/**
 * Where a hover or a completion looks: on a big file, the header and the row under the cursor as a small
 * file of their own (their answer depends on nothing else), so a keystroke's completion request does not
 * parse 100,000 rows again; otherwise the whole file's lint.
 */
export interface View {
  document: TextDocument;
  result: LintResult;
  position: Position;
  /** Adds to the view's lines to get the document's. */
  lineShift: number;
  /** The row's number in the whole file, when the view holds one row. */
  rowNumber?: number;
}

export function viewAt(store: LintStore, document: TextDocument, position: Position): View {
  const row = store.rowText(document, position.line);
  if (!row) return { document, result: store.get(document), position, lineShift: 0 };
  return {
    document: TextDocument.create(document.uri, document.languageId, document.version, row.text),
    result: { diagnostics: [], batch: readBatch(row.text) },
    position: { line: position.line - row.lineShift, character: position.character },
    lineShift: row.lineShift,
    rowNumber: row.rowNumber || undefined,
  };
}

export function hoverInDocument(hover: Hover | null, lines: number): Hover | null {
  if (!hover || lines === 0 || !hover.range) return hover;
  return { ...hover, range: shiftRange(hover.range, lines) };
}

export function completionsInDocument(items: CompletionItem[] | null, lines: number): CompletionItem[] | null {
  if (!items || lines === 0) return items;
  return items.map((item) => {
    const edit = item.textEdit;
    if (!edit) return item;
    const moved =
      'range' in edit
        ? { ...edit, range: shiftRange(edit.range, lines) }
        : { ...edit, insert: shiftRange(edit.insert, lines), replace: shiftRange(edit.replace, lines) };
    return { ...item, textEdit: moved };
  });
}
