import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { ourWords, said, saidText, typed } from '../core/output';
import type { Severity } from '../core/rules/codes';
import { thousands } from '../core/thousands';
import type { LintResult } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';
import { DIAGNOSTIC_SOURCE } from '../shared/lintProtocol';
import { toDiagnostic } from './convert';
import type { FirstProblems, RowsResult } from './rowsResult';

/**
 * Editors slow down with tens of thousands of markers and VS Code lists at most ~1,000 per file anyway,
 * so a file with more problems publishes this many (errors first) and one note saying how many more there
 * are and how to see them all.
 */
export const MAX_PUBLISHED = 1000;

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

/** The file's name as a user would type it after `paygate lint` (the last path segment of its URI). */
export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1) || path;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The first `max` problems of a lint by severity, then file order (from a file's rows without listing all
 * of them, when the lint can: rowsResult.ts), and how many there are in all.
 */
export function firstProblems(result: LintResult & Partial<Pick<RowsResult, 'first'>>, max = MAX_PUBLISHED): FirstProblems {
  return result.first?.(max) ?? { diagnostics: result.diagnostics, total: result.diagnostics.length };
}

/** What the editor is sent: the first `max` of `all` (of `total` problems in all), and a note on the rest. */
export function publishedDiagnostics(all: readonly LintDiagnostic[], uri: string, max = MAX_PUBLISHED, total = all.length): Diagnostic[] {
  if (total <= max) return all.map(toDiagnostic);
  // Errors before warnings before information; within a severity, in file order (the core sorts by position).
  const kept = all
    .map((d, i) => ({ d, i }))
    .sort((a, b) => RANK[a.d.severity] - RANK[b.d.severity] || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map(({ d }) => toDiagnostic(d));
  const more = total - max;
  const file = typed.text(fileNameOf(uri));
  const [n, first, whole] = [more, max, total].map((x) => typed.count(thousands(x)));
  kept.push({
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: DIAGNOSTIC_SOURCE,
    // Laid out value by value, as every problem's message (convert.ts): the counts as counts, the file's name alone.
    message: saidText(
      said`${n} more ${ourWords(more === 1 ? 'problem is' : 'problems are')} not shown: the editor lists the first ${first} (errors first). Run \`paygate lint ${file}\` to see all ${whole}.`,
    ),
  });
  return kept;
}
