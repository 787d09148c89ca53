import * as vscode from 'vscode';
import type { Severity } from '../../core/rules/codes';
import type { LintDiagnostic } from '../../core/rules/types';
import type { Range, TextEdit } from '../../core/text';
import { DIAGNOSTIC_SOURCE, ruleDocUri } from './constants';

// The core's positions are 0-based lines and UTF-16 characters, exactly VS Code's, so conversion is a copy.

export function toRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export function sameRange(a: vscode.Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

export function toSeverity(s: Severity): vscode.DiagnosticSeverity {
  switch (s) {
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'information':
      return vscode.DiagnosticSeverity.Information;
  }
}

export function toDiagnostic(d: LintDiagnostic): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(d.range), d.message, toSeverity(d.severity));
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = { value: d.code, target: ruleDocUri(d.code) };
  return diagnostic;
}

/** The rule-book code of a diagnostic that VS Code hands back (its `code` may be a plain value or `{value, target}`). */
export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

/** Finds the core diagnostic a VS Code diagnostic was made from (several may share a code and range). */
export function findLintDiagnostic(all: readonly LintDiagnostic[], d: vscode.Diagnostic): LintDiagnostic | undefined {
  if (d.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = codeOf(d);
  return all.find((l) => l.code === code && l.message === d.message && sameRange(d.range, l.range));
}

function comparePositions(a: Range['start'], b: Range['start']): number {
  return a.line - b.line || a.character - b.character;
}

/**
 * The core may list edits that overlap (two fixes touching one cell); the first at a place wins, as in
 * the core's applyEdits. VS Code rejects a WorkspaceEdit with overlapping ranges, so the rest are dropped
 * here. Insertions at one point are kept in order, as applyEdits keeps them.
 */
export function nonOverlapping(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => comparePositions(a.e.range.start, b.e.range.start) || comparePositions(a.e.range.end, b.e.range.end) || a.i - b.i);
  const kept: TextEdit[] = [];
  let at: Range['end'] | undefined;
  for (const { e } of sorted) {
    if (at && comparePositions(e.range.start, at) < 0) continue;
    kept.push(e);
    at = e.range.end;
  }
  return kept;
}

export function toWorkspaceEdit(uri: vscode.Uri, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  edit.set(
    uri,
    nonOverlapping(edits).map((e) => vscode.TextEdit.replace(toRange(e.range), e.newText)),
  );
  return edit;
}
