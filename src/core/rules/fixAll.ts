import type { LineIndex, Range, TextEdit } from '../text';
import type { Code } from './codes';
import { lint, type LintOptions, type LintResult } from './lint';
import type { SafeFixList } from './safeFixList';

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
 * The fixes applied, by position, read one at a time: `paygate fix` prints each without an object per fix
 * (a file fixed on every row has millions).
 */
export class AppliedFixes {
  constructor(
    private readonly list: SafeFixList,
    /** Fix numbers by the position of their problems (equal positions in the order found). */
    private readonly order: Uint32Array,
    private readonly index: LineIndex,
  ) {}
  get count(): number {
    return this.order.length;
  }
  /** The k-th fix by position. */
  at(k: number): AppliedFix {
    const i = this.order[k];
    return new AppliedFix(this.list.code(i), this.list.title(i), this.list.start(i), this.index);
  }
}

/**
 * Applies every safe fix, as `paygate fix` and source.fixAll do. No diagnostic is kept (a file broken or
 * fixed on every line would hold millions): the safe fixes come compactly, and every problem is counted,
 * so `errors` is how many errors the text had before these fixes, without a second lint.
 */
export function applySafeFixes(text: string, options?: LintOptions): { text: string; applied: AppliedFixes; errors: number } {
  const result = lint(text, { ...options, safeFixesOnly: true });
  const list = result.safeFixes!;
  // By position, as the problems are listed (ties in the order found).
  const order = sortedBy(
    list.count,
    (i) => list.start(i),
    () => 0,
  );
  const applied = new AppliedFixes(list, order, result.batch.csv.index);
  return { text: list.count === 0 ? text : applyOffsetEdits(text, list), applied, errors: result.omitted?.error ?? 0 };
}

/** applySafeFixes with every applied fix as an object (for callers that want a list). */
export function fixAll(text: string, options?: LintOptions): { text: string; applied: AppliedFix[]; errors: number } {
  const { text: next, applied, errors } = applySafeFixes(text, options);
  return { text: next, applied: Array.from({ length: applied.count }, (_, k) => applied.at(k)), errors };
}

/** 0..n-1 sorted by key, then by tie, then by number (so equal keys keep the order found, as a stable sort). */
function sortedBy(n: number, key: (i: number) => number, tie: (i: number) => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => key(a) - key(b) || tie(a) - tie(b) || a - b);
}

/** Joined every so many pieces, so the pieces of a file edited on every row are not all held at once. */
const PIECES = 4096;

/** The edits by offset, the earliest first; an edit overlapping one already made is dropped. */
function applyOffsetEdits(text: string, list: SafeFixList): string {
  const order = sortedBy(
    list.editCount,
    (i) => list.editStart(i),
    (i) => list.editEnd(i),
  );
  const chunks: string[] = [];
  let parts: string[] = [];
  let at = 0;
  for (const i of order) {
    const start = list.editStart(i);
    if (start < at) continue;
    parts.push(text.slice(at, start), list.editText(i));
    at = list.editEnd(i);
    if (parts.length >= PIECES) {
      chunks.push(parts.join(''));
      parts = [];
    }
  }
  parts.push(text.slice(at));
  chunks.push(parts.join(''));
  return chunks.join('');
}
