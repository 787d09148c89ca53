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

/** Applies every safe fix, as `paygate fix` and source.fixAll do. */
export function fixAll(text: string, options?: LintOptions): { text: string; applied: AppliedFix[] } {
  const result = lint(text, options);
  const applied: AppliedFix[] = [];
  for (const d of result.diagnostics) {
    for (const f of d.fixes) if (f.safe) applied.push({ code: d.code, title: f.title, range: d.range });
  }
  return { text: applyEdits(text, safeFixEdits(result)), applied };
}
