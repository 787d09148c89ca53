import type { Said } from '../output';
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
    readonly title: Said,
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
  const { list, index, errors } = safeFixesOf(text, options);
  // By position, as the problems are listed (ties in the order found).
  const order = sortedBy(
    list.count,
    (i) => list.start(i),
    () => 0,
  );
  const applied = new AppliedFixes(list, order, index);
  return { text: list.count === 0 ? text : applyOffsetEdits(text, list), applied, errors };
}

/** Lint for the safe fixes, keeping only what applying them needs (the parse is let go before the text is built). */
function safeFixesOf(text: string, options?: LintOptions): { list: SafeFixList; index: LineIndex; errors: number } {
  const result = lint(text, { ...options, safeFixesOnly: true });
  return { list: result.safeFixes!, index: result.batch.csv.index, errors: result.omitted?.error ?? 0 };
}

/** 0..n-1 sorted by key, then by tie, then by number (so equal keys keep the order found, as a stable sort). */
function sortedBy(n: number, key: (i: number) => number, tie: (i: number) => number): Uint32Array {
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && (key(i - 1) > key(i) || (key(i - 1) === key(i) && tie(i - 1) > tie(i)))) sorted = false;
  }
  // Problems are mostly found in the order of the text: then the sort (and its copies of the list) is skipped.
  return sorted ? order : order.sort((a, b) => key(a) - key(b) || tie(a) - tie(b) || a - b);
}

/** Joined every so many pieces, so the pieces of a file edited on every row are not all held at once. */
const PIECES = 4096;

/**
 * The edits by offset, the earliest first; an edit overlapping one already made is dropped. The joined
 * pieces are concatenated, not joined again: V8 keeps that as a rope and makes it one string when it is
 * first read, by which time `paygate fix` has let go of this pass's list of fixes (one copy of the text
 * fewer at the peak).
 */
function applyOffsetEdits(text: string, list: SafeFixList): string {
  const order = sortedBy(
    list.editCount,
    (i) => list.editStart(i),
    (i) => list.editEnd(i),
  );
  let out = '';
  let parts: string[] = [];
  let at = 0;
  for (const i of order) {
    const start = list.editStart(i);
    if (start < at) continue;
    parts.push(text.slice(at, start), list.editText(i));
    at = list.editEnd(i);
    if (parts.length >= PIECES) {
      out += parts.join('');
      parts = [];
    }
  }
  parts.push(text.slice(at));
  return out + parts.join('');
}
