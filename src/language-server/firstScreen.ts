import type { TextDocument } from 'vscode-languageserver-textdocument';
import { lint } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';

// A large file's first screen of problems, shown while the whole file is linted (a 100,000-row file takes
// a few hundred milliseconds). The first lines are linted as a file of their own; the record the cut
// goes through is left out, so every problem shown is one the whole file's lint also has. Problems that
// depend on later rows (a column SRC rows need, when the first SRC row comes later) follow with it.

/** Files of more lines than this get their first screen first. */
export const FIRST_SCREEN_FROM = 2_000;
const FIRST_SCREEN_LINES = 300;

export function firstScreen(document: TextDocument): LintDiagnostic[] {
  const text = document.getText({ start: { line: 0, character: 0 }, end: { line: FIRST_SCREEN_LINES, character: 0 } });
  const { diagnostics, batch } = lint(text);
  const { csv } = batch;
  if (csv.recordCount < 2) return [];
  const cut = document.positionAt(csv.recordStart(csv.recordCount - 1)).line;
  return diagnostics.filter((d) => d.range.start.line < cut);
}
