import { applyEdits, type Range, type TextEdit } from '../text';
import type { Code } from './codes';
import { lint, type LintOptions, type LintResult } from './lint';

// Applying the safe fixes, as `paygate fix`, fix-on-save and source.fixAll do: lint, then every safe
// fix's edits at once.

/** Every safe fix of a lint result, as non-overlapping edits (the first edit at a place wins). */
export function safeFixEdits(result: LintResult): TextEdit[] {
  return result.diagnostics.flatMap((d) => d.fixes.filter((f) => f.safe).flatMap((f) => f.edits));
}

export interface AppliedFix {
  code: Code;
  title: string;
  range: Range;
}

/**
 * Applies every safe fix, as `paygate fix` and source.fixAll do. Only problems with a safe fix are kept
 * (a file broken on every line would otherwise hold a diagnostic per line); the others are counted, so
 * `errors` is how many errors the text had before these fixes, without a second lint.
 */
export function fixAll(text: string, options?: LintOptions): { text: string; applied: AppliedFix[]; errors: number } {
  const result = lint(text, { ...options, safeFixesOnly: true });
  const applied: AppliedFix[] = [];
  let errors = result.omitted?.error ?? 0;
  for (const d of result.diagnostics) {
    if (d.severity === 'error') errors++;
    for (const f of d.fixes) if (f.safe) applied.push({ code: d.code, title: f.title, range: d.range });
  }
  return { text: applied.length === 0 ? text : applyEdits(text, safeFixEdits(result)), applied, errors };
}
