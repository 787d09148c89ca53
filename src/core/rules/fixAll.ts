import type { LineIndex, Range, TextEdit } from '../text';
import type { Code } from './codes';
import { lint, type LintOptions, type LintResult } from './lint';
import type { SafeFixList } from './problems';

// Applying the safe fixes, as `paygate fix`, fix-on-save and source.fixAll do: lint, then every safe
// fix's edits at once.

/** Every safe fix of a lint result, as non-overlapping edits (the first edit at a place wins). */
export function safeFixEdits(result: LintResult): TextEdit[] {
  return result.diagnostics.flatMap((d) => d.fixes.filter((f) => f.safe).flatMap((f) => f.edits));
}

/** One fix applied: its problem's code, the fix's title, and where the problem starts (built when read). */
export class AppliedFix {
  constructor(
    readonly code: Code,
    readonly title: string,
    private readonly start: number,
    private readonly index: LineIndex,
  ) {}
  get range(): Range {
    return this.index.range(this.start, this.start);
  }
}

/**
 * Applies every safe fix, as `paygate fix` and source.fixAll do. No diagnostic is kept (a file broken or
 * fixed on every line would hold millions): the safe fixes come as flat arrays, and every problem is
 * counted, so `errors` is how many errors the text had before these fixes, without a second lint.
 */
export function fixAll(text: string, options?: LintOptions): { text: string; applied: AppliedFix[]; errors: number } {
  const result = lint(text, { ...options, safeFixesOnly: true });
  const list = result.safeFixes!;
  const index = result.batch.csv.index;
  // By position, as the problems are listed (a stable sort keeps a place's fixes in the order found).
  const order = list.starts.map((_, i) => i).sort((a, b) => list.starts[a] - list.starts[b]);
  const applied = order.map((i) => new AppliedFix(list.codes[i], list.titles[i], list.starts[i], index));
  return { text: applied.length === 0 ? text : applyOffsetEdits(text, list), applied, errors: result.omitted?.error ?? 0 };
}

/** The edits by offset, the earliest first; an edit overlapping one already made is dropped. */
function applyOffsetEdits(text: string, list: SafeFixList): string {
  const { editStarts: starts, editEnds: ends, editTexts: texts } = list;
  const order = starts.map((_, i) => i).sort((a, b) => starts[a] - starts[b] || ends[a] - ends[b]);
  const parts: string[] = [];
  let at = 0;
  for (const i of order) {
    if (starts[i] < at) continue;
    parts.push(text.slice(at, starts[i]), texts[i]);
    at = ends[i];
  }
  parts.push(text.slice(at));
  return parts.join('');
}
