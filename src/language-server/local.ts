import type { CompletionItem, Hover, Position, Range } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readBatch } from '../core/rules/batch';
import type { LintResult } from '../core/rules/lint';
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
  const local = store.local(document, position.line);
  if (!local) return { document, result: store.get(document), position, lineShift: 0 };
  return {
    document: TextDocument.create(document.uri, document.languageId, document.version, local.text),
    result: { diagnostics: [], batch: readBatch(local.text) },
    position: { line: position.line - local.lineShift, character: position.character },
    lineShift: local.lineShift,
    rowNumber: local.rowNumber || undefined,
  };
}

function shifted(range: Range, lines: number): Range {
  return {
    start: { line: range.start.line + lines, character: range.start.character },
    end: { line: range.end.line + lines, character: range.end.character },
  };
}

export function hoverInDocument(hover: Hover | null, lines: number): Hover | null {
  if (!hover || lines === 0 || !hover.range) return hover;
  return { ...hover, range: shifted(hover.range, lines) };
}

export function completionsInDocument(items: CompletionItem[] | null, lines: number): CompletionItem[] | null {
  if (!items || lines === 0) return items;
  return items.map((item) => {
    const edit = item.textEdit;
    if (!edit) return item;
    const moved =
      'range' in edit
        ? { ...edit, range: shifted(edit.range, lines) }
        : { ...edit, insert: shifted(edit.insert, lines), replace: shifted(edit.replace, lines) };
    return { ...item, textEdit: moved };
  });
}
