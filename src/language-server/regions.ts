import type { OrderIds } from './orderIds';
import { NO_DIAGNOSTICS } from './rowList';
import { moved, type RowState, type State } from './rows';

// Changes that add or remove lines (a line break typed, a block of rows pasted or deleted) in a file of a
// million rows: the rows the change touches become one region to re-check, the rows after it move by the
// lines it added or removed (RowList moves blocks of rows, not each row), and nothing else of the file is
// read. The region's re-check (rows.ts) may find any number of rows in it; `replaceRow` puts them in its place.

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
  const rows = state.rows;
  const r0 = rows.at(from);
  const r1 = rows.at(to);
  if (r0 < 0 || r1 < 0) return undefined;
  // The rows between must follow one another: a blank line among them is a problem of its own.
  const merged: RowState[] = [];
  for (let r = r0; r <= r1; r++) merged.push(rows.get(r));
  for (let i = 1; i < merged.length; i++) {
    if (rows.lineOf(merged[i - 1]) + merged[i - 1].lines !== rows.lineOf(merged[i])) return undefined;
  }
  const line = rows.lineOf(merged[0]);
  const last = merged[merged.length - 1];
  const delta = breaks - (to - from);
  const end = rows.lineOf(last) + last.lines; // the first line after the merged rows, before the change
  for (const row of merged) {
    if (row.key !== undefined) touched.add(row.key);
    ids?.remove(row);
    if (row.src) state.srcRows--;
    if (row.srcNeedsState) state.srcStateRows--;
  }
  const region: RowState = {
    line,
    lines: end - line + delta,
    diagnostics: NO_DIAGNOSTICS,
    dup: undefined,
    key: undefined,
    src: false,
    srcNeedsState: false,
    keyFrom: -1,
    keyTo: -1,
  };
  rows.splice(r0, merged.length, [region], delta);
  if (delta !== 0) state.fixed = state.fixed.map((d) => (d.range.start.line >= end ? moved(d, delta) : d));
  state.lineCount += delta;
  return { region: r0, removed: r1 - r0 };
}

/** Puts a region's re-checked rows (on the document's lines) in its place. */
export function replaceRow(state: State, r: number, rows: RowState[]): void {
  state.rows.splice(r, 1, rows, 0);
  for (const row of rows) {
    if (row.src) state.srcRows++;
    if (row.srcNeedsState) state.srcStateRows++;
  }
}
