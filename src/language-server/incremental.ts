import { todayLocal, type CalendarDate } from '../core/dates';
import { lint, type LintResult } from '../core/rules/lint';
import { lineStarts } from './lineDocument';
import { OrderIds } from './orderIds';
import { mergeRows, replaceRow } from './regions';
import type { Range } from '../core/text';
import {
  build,
  keyCellOf,
  lineBreaks,
  recheck,
  rowFactsCollector,
  rowText,
  type LintedText,
  type RowState,
  type State,
  type TextChange,
} from './rows';
import { resultOf } from './rowsResult';

// Incremental lint on the core's public `lint`: the server keeps each data row's diagnostics and the
// cross-row facts the core tells it (which rows are SRC, each row's client-orderid for the duplicate
// check), so an edit re-checks only the rows it touched — by linting the header and those rows as a
// small file — and patches what depends on them (duplicate-order-id of the rows sharing their ids, and
// the row numbers those messages name). A line break typed, rows pasted or deleted merge the touched rows
// into one region and move the rows after it (regions.ts), which at a million rows moves blocks of rows,
// not rows (rowList.ts). Anything else falls back to a whole-file lint: header edits, quotes that change
// the record structure, blank lines, the first SRC row appearing or the last one going. A property test
// checks that the result always equals a fresh whole-file lint. The rows' side is in rows.ts; the result
// and the first problems the editor is sent, in rowsResult.ts.

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
  /** The client-orderids of rows merged into regions since the last lint (their duplicates may change). */
  private touched = new Set<string>();
  /** The first row whose number may have moved since the last lint (rows were merged, pasted or deleted). */
  private movedFrom = Infinity;
  /** Whether the last lint's rows had any SRC row (and one needing a state): a flip changes header problems. */
  private shownSrc = { any: false, state: false };
  /** The rows of each client-orderid, from the first edit or `prepare` on (undefined until then and after a full lint). */
  private ids: OrderIds | undefined;

  /** `blockRows` is for tests: blocks of a few rows put block edges under every edit (see RowList). */
  constructor(
    private readonly today: () => CalendarDate = todayLocal,
    private readonly blockRows?: number,
  ) {}

  /**
   * Records which rows a didChange touched. A change inside one line marks its row; a change that adds or
   * removes lines merges the rows it touches into one region to re-check and moves the rows after it.
   * A change that reaches the header, a blank line or past the last row forces a whole-file lint.
   */
  changed(changes: readonly TextChange[]): void {
    const state = this.state;
    if (this.invalid || !state) return;
    state.generation++;
    for (const change of changes) {
      const r = change.range;
      // Counted by indexOf (lineStarts): a pasted block is long, and the first paste runs this cold.
      const breaks = r ? lineStarts(change.text, true).length - 1 : -1;
      const row = r && breaks === 0 && r.start.line === r.end.line ? state.rows.at(r.start.line) : -1;
      if (row >= 0) {
        this.dirty.add(row);
        continue;
      }
      const merged = r && mergeRows(state, r.start.line, r.end.line, breaks, this.touched, this.ids);
      if (!merged) {
        this.invalid = true;
        return;
      }
      // The indices of the rows after the merged ones moved: the dirty set follows them.
      const { region, removed } = merged;
      const follow = (d: number): number => {
        if (d < region) return d;
        return d <= region + removed ? region : d - removed;
      };
      this.dirty = new Set([...this.dirty].map(follow).concat(region));
      this.movedFrom = Math.min(this.movedFrom, region);
    }
  }

  /**
   * Builds what the first edit would otherwise wait for (the rows of each client-orderid, half a second at
   * a million rows): the server calls it when idle after a lint.
   */
  prepare(): void {
    if (!this.invalid && this.state) this.ids ??= OrderIds.of(this.state.rows);
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
    const r = state.rows.at(line);
    if (r < 0) {
      const headerLines = lineBreaks(state.headerText, 0, state.headerText.length) + 1;
      if (line < state.headerLine || line >= state.headerLine + headerLines) return undefined;
      return { text: state.headerText, lineShift: state.headerLine, rowNumber: 0 };
    }
    const row = state.rows.get(r);
    const at = state.rows.lineOf(row);
    const text = `${state.headerText}${state.eol}${rowText(document, { line: at, lines: row.lines })}`;
    return { text, lineShift: at - (lineBreaks(state.headerText, 0, state.headerText.length) + 1), rowNumber: r + 1 };
  }

  private full(document: LintedText): LintResult {
    const today = this.today();
    const text = document.getText();
    const told = rowFactsCollector();
    const result = lint(text, { today, onRow: told.onRow });
    this.state = build(result, told.rows, document, today, this.blockRows);
    this.ids = undefined;
    this.invalid = this.state === undefined;
    this.settled(this.state);
    return result;
  }

  /** Re-checks the dirty rows; undefined when the change reaches beyond them (then a full lint runs). */
  private patch(state: State, document: LintedText): LintResult | undefined {
    // The line table must match the document's (a CR typed before an LF makes one line break of two).
    if (state.lineCount !== document.lineCount) return undefined;
    const touched = this.touched;
    const ids = (this.ids ??= OrderIds.of(state.rows));
    // Highest index first: a region that became several rows moves only rows already re-checked or clean.
    for (const r of [...this.dirty].sort((a, b) => b - a)) {
      const old = state.rows.get(r);
      const next = recheck(state, old, state.rows.lineOf(old), document);
      if (!next) return undefined;
      if (old.key !== undefined) touched.add(old.key);
      ids.remove(old);
      for (const row of next) {
        if (row.key !== undefined) touched.add(row.key);
        ids.add(row);
      }
      if (old.src) state.srcRows--;
      if (old.srcNeedsState) state.srcStateRows--;
      replaceRow(state, r, next);
      if (next.length !== 1) this.movedFrom = Math.min(this.movedFrom, r);
    }
    // Whether any row is SRC (and needs a state) decides header problems: a flip is a full lint.
    if (state.srcRows > 0 !== this.shownSrc.any || state.srcStateRows > 0 !== this.shownSrc.state) return undefined;
    // A duplicate-order-id names the row its id was first used on: rows added or removed renumber it.
    if (this.movedFrom < state.rows.length) for (const key of ids.duplicated) touched.add(key);
    // Rows sharing a client-orderid with a re-checked row.
    const cellOf = (row: RowState): Range => keyCellOf(state, row, document);
    for (const key of touched) ids.settle(key, state.rows, cellOf);
    this.settled(state);
    // This version's text, for whoever reads the whole-file lint later (a LineDocument joins it only then).
    const whole = document.snapshot ? undefined : document.getText();
    return resultOf(state, document.snapshot?.() ?? (() => whole!));
  }

  /** Nothing pending: the state is the lint of the document as it is. */
  private settled(state: State | undefined): void {
    this.dirty.clear();
    this.touched.clear();
    this.movedFrom = Infinity;
    this.shownSrc = { any: (state?.srcRows ?? 0) > 0, state: (state?.srcStateRows ?? 0) > 0 };
  }
}
