import { Codes } from '../core/rules/codes';
import { sameMessage } from '../core/rules/message';
import { lazyFix } from '../core/rules/fixes';
import { lint, type LintResult } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';
import type { Range } from '../core/text';
import { RANK, type Block, type RowState } from './rowList';
import { moved, type State } from './rows';

// The lint result of the incremental lint's rows (incremental.ts). The editor is shown the first
// problems only (errors first, see diagnostics.ts): `first` finds them where the blocks' counts say they
// are, so a file with a hundred thousand problems does not make every keystroke list them all. The
// whole list is built when someone reads it (a code action on one of them).

/** The first `max` problems in file order, as the editor is shown them, and how many there are in all. */
export interface FirstProblems {
  diagnostics: LintDiagnostic[];
  total: number;
}

export interface RowsResult extends LintResult {
  first(max: number): FirstProblems;
}

const before = (a: Range['start'], b: Range['start']): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

/** A row's diagnostics on the document's lines, duplicate-order-id last at its start; kept until the row moves. */
function shown(row: RowState, line: number): LintDiagnostic[] {
  if (row.shown?.line === line && row.shown.dup === row.dup) return row.shown.diagnostics;
  const dup = row.dup;
  const diagnostics: LintDiagnostic[] = [];
  let placed = dup === undefined;
  for (const d of row.diagnostics) {
    if (!placed && !before(d.range.start, dup!.range.start)) {
      diagnostics.push(moved(dup!, line));
      placed = true;
    }
    diagnostics.push(moved(d, line));
  }
  if (!placed) diagnostics.push(moved(dup!, line));
  row.shown = { line, dup, diagnostics };
  return diagnostics;
}

/** The problems in file order that `take` keeps, from the blocks `wanted` says may hold some, until `done`. */
function collect(
  state: State,
  fixed: readonly LintDiagnostic[],
  take: (d: LintDiagnostic) => boolean,
  wanted?: (block: Block) => boolean,
  done = () => false,
): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  let f = 0;
  for (const row of state.rows.withProblems(wanted)) {
    if (done()) break;
    const line = state.rows.lineOf(row);
    while (f < fixed.length && fixed[f].range.start.line < line) if (take(fixed[f++])) out.push(fixed[f - 1]);
    for (const d of shown(row, line)) if (take(d)) out.push(d);
  }
  while (f < fixed.length) if (take(fixed[f++])) out.push(fixed[f - 1]);
  return out;
}

/** The first `max` problems by severity, then file order: the first so many errors, then warnings, then information. */
function firstOf(state: State, fixed: readonly LintDiagnostic[], max: number): FirstProblems {
  const totals = state.rows.problemCounts();
  for (const d of fixed) totals[RANK[d.severity]]++;
  const total = totals[0] + totals[1] + totals[2];
  // How many of each severity are shown.
  let left = max;
  const quota = totals.map((n) => {
    const kept = Math.min(n, left);
    left -= kept;
    return kept;
  });
  const take = (d: LintDiagnostic): boolean => quota[RANK[d.severity]]-- > 0;
  const wanted = (block: Block): boolean => block.problems.some((n, rank) => n > 0 && quota[rank] > 0);
  const diagnostics = collect(state, fixed, take, wanted, () => quota.every((n) => n <= 0));
  return { diagnostics, total };
}

/**
 * The file's diagnostics in the core's order (by start; at one start, in the order the checks add them,
 * duplicate-order-id last in its row). Fixes of header problems that edit every row (a missing column)
 * are built from a whole-file lint of this text when someone reads them: the rows may have moved since.
 * Read after the next change (the rows then are another version's), the lists come from that lint too.
 */
export function resultOf(state: State, text: () => string): RowsResult {
  let whole: LintResult | undefined;
  const full = (): LintResult => (whole ??= lint(text(), { today: state.today }));
  const fixed = state.fixed.map((d) =>
    d.code !== Codes.missingColumn
      ? d
      : {
          ...d,
          fixes: d.fixes.map((f, j) =>
            lazyFix(
              f.title,
              f.safe,
              () => full().diagnostics.find((x) => x.code === d.code && sameMessage(x.message, d.message))?.fixes[j]?.edits ?? [],
            ),
          ),
        },
  );
  const generation = state.generation;
  const current = (): boolean => state.generation === generation;
  let diagnostics: LintDiagnostic[] | undefined;
  return {
    get diagnostics() {
      return (diagnostics ??= current() ? collect(state, fixed, () => true) : full().diagnostics);
    },
    // Hovers and completion read the parsed batch: the whole-file lint of this text, built when asked.
    get batch() {
      return full().batch;
    },
    first(max: number): FirstProblems {
      return current() ? firstOf(state, fixed, max) : { diagnostics: this.diagnostics, total: this.diagnostics.length };
    },
  };
}
