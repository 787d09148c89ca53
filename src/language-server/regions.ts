import type { OrderIds } from './orderIds';
import { moved, type RowState, type State } from './rows';

// Changes that add or remove lines (a line break typed, a block of rows pasted or deleted) in a file of a
// million rows: the rows the change touches become one region to re-check, the rows after it move by the
// lines it added or removed, and nothing else of the file is read. The region's re-check (rows.ts) may
// find any number of rows in it; `replaceRow` puts them in its place.

/** Moves a row, its problems and their fixes by `delta` lines. */
function shiftRow(row: RowState, delta: number): void {
  if (delta === 0) return;
  row.line += delta;
  if (row.diagnostics.length > 0) row.diagnostics = row.diagnostics.map((d) => moved(d, delta));
  if (row.dup) row.dup = moved(row.dup, delta);
}

/**
 * Lines `from`..`to` were replaced by `breaks + 1` lines: the rows on them become one region (the index
 * returned, with how many rows fewer there are) holding the new lines, to be re-checked. Undefined when a line is not in a data row (the
 * header, a blank line, past the last row): then only a whole-file lint will do. `touched` gets the
 * client-orderids the merged rows had; the SRC counts lose theirs (the re-check adds the new rows').
 */
export function mergeRows(
  state: State,
  from: number,
  to: number,
  breaks: number,
  touched: Set<string>,
  ids: OrderIds | undefined,
): { region: number; removed: number } | undefined {
  const r0 = state.rowAtLine[from] ?? -1;
  const r1 = state.rowAtLine[to] ?? -1;
  if (r0 < 0 || r1 < 0) return undefined;
  // The rows between must follow one another: a blank line among them is a problem of its own.
  for (let r = r0; r < r1; r++) if (state.rows[r].line + state.rows[r].lines !== state.rows[r + 1].line) return undefined;
  const first = state.rows[r0];
  const last = state.rows[r1];
  const delta = breaks - (to - from);
  const end = last.line + last.lines; // the first line after the merged rows, before the change
  for (let r = r0; r <= r1; r++) {
    const row = state.rows[r];
    if (row.key !== undefined) touched.add(row.key);
    ids?.remove(row);
    if (row.src) state.srcRows--;
    if (row.srcNeedsState) state.srcStateRows--;
  }
  const region: RowState = {
    line: first.line,
    lines: end - first.line + delta,
    rowNumber: first.rowNumber,
    diagnostics: [],
    dup: undefined,
    key: undefined,
    keyCell: undefined,
    src: false,
    srcNeedsState: false,
  };
  const removed = r1 - r0;
  state.rows.splice(r0, removed + 1, region);
  for (let r = r0 + 1; r < state.rows.length && (delta !== 0 || removed !== 0); r++) {
    state.rows[r].rowNumber -= removed;
    shiftRow(state.rows[r], delta);
  }
  if (delta !== 0) state.fixed = state.fixed.map((d) => (d.range.start.line >= end ? moved(d, delta) : d));
  renumberLines(state, end, delta, removed);
  state.rowAtLine.fill(r0, region.line, region.line + region.lines);
  return { region: r0, removed };
}

/**
 * The line table after lines were added (`delta` > 0) or removed before line `end`, and `removed` rows
 * merged: the lines from `end` on move by `delta`, their rows' indices by -`removed`.
 */
function renumberLines(state: State, end: number, delta: number, removed: number): void {
  const old = state.rowAtLine;
  if (delta === 0 && removed === 0) return;
  const next = delta === 0 ? old : new Int32Array(old.length + delta);
  if (next !== old) next.set(old.subarray(0, Math.min(end, end + delta)));
  for (let i = end; i < old.length; i++) {
    const r = old[i];
    next[i + delta] = r >= 0 ? r - removed : -1;
  }
  state.rowAtLine = next;
}

/** Puts a region's re-checked rows in its place; the rows after it are renumbered when their count changed. */
export function replaceRow(state: State, r: number, rows: RowState[]): void {
  // Concatenated, not spread into splice: a pasted block may hold more rows than a call takes arguments.
  state.rows = state.rows.slice(0, r).concat(rows, state.rows.slice(r + 1));
  for (const row of rows) {
    if (row.src) state.srcRows++;
    if (row.srcNeedsState) state.srcStateRows++;
  }
  const added = rows.length - 1;
  rows.forEach((row, i) => state.rowAtLine.fill(r + i, row.line, row.line + row.lines));
  if (added === 0) return;
  const last = rows[rows.length - 1];
  const table = state.rowAtLine;
  for (let i = last.line + last.lines; i < table.length; i++) if (table[i] >= 0) table[i] += added;
  for (let i = r + rows.length; i < state.rows.length; i++) state.rows[i].rowNumber += added;
}

/** The ids of the rows from `from` on that have a duplicate-order-id: its message names a row number, which may have moved. */
export function keysWithDuplicates(state: State, from: number, into: Set<string>): void {
  for (let i = from; i < state.rows.length; i++) {
    const row = state.rows[i];
    if (row.dup !== undefined && row.key !== undefined) into.add(row.key);
  }
}
