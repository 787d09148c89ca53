import { saidText } from '../core/output';
import { ruleDocUrl } from '../core/rules/links';
import { DiagnosticSeverity, type Diagnostic, type TextEdit as LspTextEdit, type WorkspaceEdit } from 'vscode-languageserver';
import type { Severity } from '../core/rules/codes';
import type { LintDiagnostic } from '../core/rules/types';
import type { Range, TextEdit } from '../core/text';
import { DIAGNOSTIC_SOURCE } from '../shared/lintProtocol';

// The core's positions are 0-based lines and UTF-16 characters, exactly LSP's, so ranges are copied as is.

export function toSeverity(s: Severity): DiagnosticSeverity {
  switch (s) {
    case 'error':
      return DiagnosticSeverity.Error;
    case 'warning':
      return DiagnosticSeverity.Warning;
    case 'information':
      return DiagnosticSeverity.Information;
  }
}

export function toDiagnostic(d: LintDiagnostic): Diagnostic {
  return {
    range: d.range,
    severity: toSeverity(d.severity),
    source: DIAGNOSTIC_SOURCE,
    code: d.code,
    codeDescription: { href: ruleDocUrl(d.code) },
    // Laid out here, at the editor's boundary: each value of the message checked alone (issue 38).
    message: saidText(d.message),
  };
}

export function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** Finds the core diagnostic a client's diagnostic was made from (several may share a code and range). */
/**
 * Our diagnostic that a client handed back, in the lint of the document as it is now. The client's copy can
 * be a version behind (its markers move only when the next diagnostics arrive, and a code-action request
 * can come first): when no diagnostic has its exact range, the one with its code and message nearest to
 * it stands for it, so the light bulb is never empty while the Problems panel lists the problem. Its
 * fixes are the current lint's, so their edits fit the text as it is now.
 */
export function findLintDiagnostic(all: readonly LintDiagnostic[], d: Diagnostic): LintDiagnostic | undefined {
  if (d.source !== undefined && d.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = d.code === undefined ? undefined : String(d.code);
  const alike = all.filter((l) => l.code === code && saidText(l.message) === d.message);
  return alike.find((l) => sameRange(d.range, l.range)) ?? nearest(alike, d.range.start);
}

function nearest(candidates: readonly LintDiagnostic[], at: Range['start']): LintDiagnostic | undefined {
  let best: LintDiagnostic | undefined;
  let bestDistance = Infinity;
  for (const l of candidates) {
    const distance = Math.abs(l.range.start.line - at.line) * 1e6 + Math.abs(l.range.start.character - at.character);
    if (distance < bestDistance) [best, bestDistance] = [l, distance];
  }
  return best;
}

function comparePositions(a: Range['start'], b: Range['start']): number {
  return a.line - b.line || a.character - b.character;
}

/**
 * The core may list edits that overlap (two fixes touching one cell); the first at a place wins, as in
 * `paygate fix` (core/rules/fixAll.ts). LSP forbids overlapping edits in one change, so the rest are dropped
 * here. Insertions at one point are kept in order.
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

export function toWorkspaceEdit(uri: string, edits: readonly TextEdit[]): WorkspaceEdit {
  const changes: LspTextEdit[] = nonOverlapping(edits).map((e) => ({ range: e.range, newText: e.newText }));
  return { changes: { [uri]: changes } };
}

/** Whether a request that asks only for `only` (or for anything, when absent) wants actions of `kind`. */
export function wants(only: readonly string[] | undefined, kind: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((o) => o === kind || kind.startsWith(`${o}.`) || o.startsWith(`${kind}.`));
}
