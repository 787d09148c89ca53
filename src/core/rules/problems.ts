import type { Said } from '../output';
import type { Batch } from './batch';
import { CodeInfo, type Code, type Severity } from './codes';
import { SafeFixList } from './safeFixList';
import type { Fix, LintDiagnostic } from './types';

// Collects diagnostics, with ranges from offsets. Unbounded by default; with a limit it keeps the first
// `max` problems by position (a max-heap on start offsets: a problem before the last one kept replaces
// it) and only counts the rest, so a file broken on every line costs memory for what is shown, not for
// millions of diagnostics of about half a kilobyte each.

export class ProblemCollector {
  /** Heap-ordered while the limit is reached; lint() sorts them by position at the end. */
  readonly diagnostics: LintDiagnostic[] = [];
  /** Problems found but not kept, by severity. */
  readonly omitted: Record<Severity, number> = { error: 0, warning: 0, information: 0 };
  private readonly starts: number[] = [];
  /** Set in fix-all mode (safeFixesOnly): the safe fixes, while every problem is only counted. */
  readonly safeFixes: SafeFixList | undefined;

  constructor(
    readonly batch: Batch,
    private readonly max = Infinity,
    /** Fix-all: every problem only counted (in `omitted`), its safe fixes kept in `safeFixes`. */
    private readonly safeFixesOnly = false,
  ) {
    if (safeFixesOnly) this.safeFixes = new SafeFixList();
  }

  get limited(): boolean {
    return this.max !== Infinity;
  }

  get omittedCount(): number {
    return this.omitted.error + this.omitted.warning + this.omitted.information;
  }

  /** Would a problem starting at `start` be kept? When not, the caller may skip() it without building it. */
  keeps(start: number): boolean {
    return this.max === Infinity || this.diagnostics.length < this.max || start < this.starts[0];
  }

  /** Counts a problem that keeps() said would not be kept. */
  skip(code: Code): void {
    this.omitted[CodeInfo[code].severity]++;
  }

  add(code: Code, start: number, end: number, message: Said, columnName: string | null, fixes: Fix[] = []): void {
    const severity = CodeInfo[code].severity;
    if (this.safeFixes) {
      this.omitted[severity]++;
      this.keepSafeFixes(this.safeFixes, code, start, fixes);
      return;
    }
    if (this.max === Infinity) {
      this.diagnostics.push(this.make(code, severity, start, end, message, columnName, fixes));
      return;
    }
    if (this.max <= 0) {
      this.omitted[severity]++;
      return;
    }
    const heap = this.diagnostics;
    if (heap.length < this.max) {
      heap.push(this.make(code, severity, start, end, message, columnName, fixes));
      this.starts.push(start);
      this.siftUp(heap.length - 1);
      return;
    }
    if (start >= this.starts[0]) {
      this.omitted[severity]++;
      return;
    }
    this.omitted[heap[0].severity]++;
    heap[0] = this.make(code, severity, start, end, message, columnName, fixes);
    this.starts[0] = start;
    this.siftDown(0);
  }

  private keepSafeFixes(list: SafeFixList, code: Code, start: number, fixes: Fix[]): void {
    const index = this.batch.csv.index;
    for (const f of fixes) {
      if (!f.safe) continue;
      list.addFix(code, f.title, start);
      for (const e of f.edits) list.addEdit(index.offsetAt(e.range.start), index.offsetAt(e.range.end), e.newText);
    }
  }

  private make(
    code: Code,
    severity: Severity,
    start: number,
    end: number,
    message: Said,
    columnName: string | null,
    fixes: Fix[],
  ): LintDiagnostic {
    return { code, severity, message, range: this.batch.csv.index.range(start, end), columnName, fixes };
  }

  private swap(a: number, b: number): void {
    const d = this.diagnostics;
    const s = this.starts;
    [d[a], d[b]] = [d[b], d[a]];
    [s[a], s[b]] = [s[b], s[a]];
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.starts[parent] >= this.starts[i]) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.starts.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < n && this.starts[l] > this.starts[largest]) largest = l;
      if (r < n && this.starts[r] > this.starts[largest]) largest = r;
      if (largest === i) return;
      this.swap(i, largest);
      i = largest;
    }
  }
}
