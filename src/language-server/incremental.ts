import { todayLocal, type CalendarDate } from '../core/dates';
import { Codes } from '../core/rules/codes';
import { lazyFix } from '../core/rules/fixes';
import { lint, type LintResult } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';
import type { Range } from '../core/text';
import { build, duplicateOf, lineBreaks, recheck, rowText, type LintedText, type RowState, type State, type TextChange } from './rows';

// Incremental lint on the core's public `lint`: the server keeps each data row's diagnostics and the
// cross-row facts (the header, which rows are SRC, the first row of each client-orderid), so an edit
// inside one row re-checks that row alone — by linting the header and that row as a two-line file —
// and patches what depends on it (duplicate-order-id of the rows sharing its id). Anything else falls
// back to a whole-file lint: header edits, line breaks typed or pasted, quotes that change the record
// structure, blank lines, the first SRC row appearing or the last one going. A property test checks that
// the result always equals a fresh whole-file lint. The rows' side is in rows.ts.

export type { LintedText, TextChange } from './rows';

export interface RowText {
  text: string;
  lineShift: number;
  /** The row's number among the data rows of the whole file (0 for the header alone). */
  rowNumber: number;
}

/** One document's lint, kept up to date from the changes the client sends. */
export class IncrementalLint {
  private state: State | undefined;
  private dirty = new Set<number>();
  private invalid = true;

  constructor(private readonly today: () => CalendarDate = todayLocal) {}

  /** Records which rows a didChange touched; anything not inside one data row's lines forces a full lint. */
  changed(changes: readonly TextChange[]): void {
    if (this.invalid || !this.state) return;
    for (const change of changes) {
      const r = change.range;
      const row = r && r.start.line === r.end.line && !/[\r\n]/.test(change.text) ? this.state.rowAtLine[r.start.line] : -1;
      if (row === undefined || row < 0) {
        this.invalid = true;
        return;
      }
      this.dirty.add(row);
    }
  }

  /** How the lints so far were made: rows re-checked alone, or whole-file lints. */
  readonly counts = { patched: 0, full: 0 };

  /** The lint of the document as it is after every change recorded. */
  lint(document: LintedText): LintResult {
    if (!this.invalid && this.state) {
      const patched = this.patch(this.state, document);
      if (patched) {
        this.counts.patched++;
        return patched;
      }
    }
    this.counts.full++;
    return this.full(document);
  }

  /**
   * The header, and the data row on `line` when there is one, as a small file of their own: what a hover
   * or a completion at that line needs, without parsing a 100,000-row file again after each keystroke.
   * `lineShift` moves the small file's lines to the document's. Undefined when only the whole file will
   * do (the lint is not up to date, or the line is neither the header nor a data row).
   */
  rowText(document: LintedText, line: number): RowText | undefined {
    const state = this.state;
    if (this.invalid || !state || this.dirty.size > 0) return undefined;
    const r = state.rowAtLine[line] ?? -1;
    if (r < 0) {
      const headerLines = lineBreaks(state.headerText, 0, state.headerText.length) + 1;
      if (line < state.headerLine || line >= state.headerLine + headerLines) return undefined;
      return { text: state.headerText, lineShift: state.headerLine, rowNumber: 0 };
    }
    const row = state.rows[r];
    const text = `${state.headerText}${state.eol}${rowText(document, row)}`;
    return { text, lineShift: row.line - (lineBreaks(state.headerText, 0, state.headerText.length) + 1), rowNumber: row.rowNumber };
  }

  private full(document: LintedText): LintResult {
    const today = this.today();
    const text = document.getText();
    const result = lint(text, { today });
    this.state = build(result, document, today);
    this.invalid = this.state === undefined;
    this.dirty.clear();
    return result;
  }

  /** Re-checks the dirty rows; undefined when the change reaches beyond them (then a full lint runs). */
  private patch(state: State, document: LintedText): LintResult | undefined {
    const text = document.getText();
    const touchedKeys = new Set<string>();
    let srcRows = state.srcRows;
    let srcStateRows = state.srcStateRows;
    const updates: [number, RowState][] = [];
    for (const r of this.dirty) {
      const old = state.rows[r];
      const next = recheck(state, old, document);
      if (!next) return undefined;
      srcRows += Number(next.src) - Number(old.src);
      srcStateRows += Number(next.srcNeedsState) - Number(old.srcNeedsState);
      updates.push([r, next]);
    }
    // Whether any row is SRC (and needs a state) decides header problems: a flip is a full lint.
    if (srcRows > 0 !== state.srcRows > 0 || srcStateRows > 0 !== state.srcStateRows > 0) return undefined;
    for (const [r, next] of updates) {
      const old = state.rows[r];
      if (old.key !== undefined) touchedKeys.add(old.key);
      if (next.key !== undefined) touchedKeys.add(next.key);
      if (next.key === undefined) next.dup = undefined;
      state.rows[r] = next;
    }
    // Rows sharing a client-orderid with a re-checked row: a scan of the keys costs less than keeping a
    // map of 100,000 ids cut out of one large text.
    if (touchedKeys.size > 0) {
      const firstOf = new Map<string, number>();
      const keys = [...touchedKeys];
      for (const row of state.rows) {
        const key = row.key;
        // Comparing with the one or two touched ids is cheaper than hashing every row's id.
        if (key === undefined || !keys.some((k) => k === key)) continue;
        const first = firstOf.get(key);
        if (first === undefined) firstOf.set(key, row.rowNumber);
        row.dup = first === undefined ? undefined : duplicateOf(row, key, first);
      }
    }
    state.srcRows = srcRows;
    state.srcStateRows = srcStateRows;
    this.dirty.clear();
    return resultOf(state, text);
  }
}

const before = (a: Range['start'], b: Range['start']): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

/**
 * The file's diagnostics in the core's order (by start; at one start, in the order the checks add them,
 * duplicate-order-id last in its row). Fixes of header problems that edit every row (a missing column)
 * are built from a whole-file lint of this text when someone reads them: the rows may have moved since.
 */
function resultOf(state: State, text: string): LintResult {
  let whole: LintResult | undefined;
  const full = (): LintResult => (whole ??= lint(text, { today: state.today }));
  const fixed = state.fixed.map((d) =>
    d.code !== Codes.missingColumn
      ? d
      : {
          ...d,
          fixes: d.fixes.map((f, j) =>
            lazyFix(
              f.title,
              f.safe,
              () => full().diagnostics.find((x) => x.code === d.code && x.message === d.message)?.fixes[j]?.edits ?? [],
            ),
          ),
        },
  );
  const diagnostics: LintDiagnostic[] = [];
  let f = 0;
  for (const row of state.rows) {
    while (f < fixed.length && fixed[f].range.start.line < row.line) diagnostics.push(fixed[f++]);
    const dup = row.dup;
    let placed = dup === undefined;
    for (const d of row.diagnostics) {
      if (!placed && !before(d.range.start, dup!.range.start)) {
        diagnostics.push(dup!);
        placed = true;
      }
      diagnostics.push(d);
    }
    if (!placed) diagnostics.push(dup!);
  }
  while (f < fixed.length) diagnostics.push(fixed[f++]);
  return {
    diagnostics,
    // Hovers and completion read the parsed batch: the whole-file lint of this text, built when asked.
    get batch() {
      return full().batch;
    },
  };
}
