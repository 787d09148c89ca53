// What the page keeps in vscode.setState, so a hidden or reloaded panel comes back as it was: the view
// (sort, filters, search, widths, pinned columns, scroll), and the rows themselves when they exist only in
// memory and are small enough; a file is read again instead.
import {
  INLINE_STATE_LIMIT,
  PROTOCOL_VERSION,
  type PersistedState,
  type ReconciliationView,
  type TableSource,
  type ViewState,
} from '../src/shared/resultsProtocol';
import { type SubmissionView } from '../src/shared/submissionView';
import type { ReportInfo } from '../src/shared/reportInfo';
import type { Dataset, ViewQuery } from './dataset';
import { columnId, columnIndex, type ResultsTable } from './table';

export function persistedState(o: {
  title: string;
  source: TableSource;
  submission?: SubmissionView;
  reconciliation?: ReconciliationView;
  info?: ReportInfo;
  data: Dataset;
  view: ViewState;
}): PersistedState {
  const state: PersistedState = { v: PROTOCOL_VERSION, title: o.title, source: o.source, view: o.view };
  if (o.info) state.info = o.info;
  if (o.submission) state.submission = o.submission;
  else if (o.reconciliation) state.reconciliation = o.reconciliation;
  else if (o.source.kind === 'inline') {
    const rows = rowsWithin(o.data, INLINE_STATE_LIMIT);
    if (rows) state.table = { columns: o.data.columns, rows };
  }
  return state;
}

/**
 * The rows kept with the view, worked out once per version of the rows: the state is saved after every
 * sort, search and grouping, and a large table is walked up to the limit each time (60 ms, in the middle
 * of a grouping).
 */
const kept = new WeakMap<Dataset, { version: number; rows: string[][] | undefined }>();

function rowsWithin(data: Dataset, limit: number): string[][] | undefined {
  const known = kept.get(data);
  if (known?.version === data.version) return known.rows;
  const rows = firstRowsWithin(data, limit);
  kept.set(data, { version: data.version, rows });
  return rows;
}

/** All rows, or undefined as soon as their text passes `limit` characters. */
function firstRowsWithin(data: Dataset, limit: number): string[][] | undefined {
  const rows: string[][] = [];
  let n = 0;
  for (let i = 0; i < data.rowCount; i++) {
    const row = data.row(i);
    for (const c of row) n += c.length;
    if (n > limit) return undefined;
    rows.push(row);
  }
  return rows;
}

/** The view as the user left it: sort, filters, search, widths, pinned columns and scroll. */
export function viewStateOf(table: ResultsTable, q: ViewQuery, scrollTop: number): ViewState {
  const s = table.store.state;
  return {
    sorting: q.sorting,
    filters: Object.fromEntries(q.filters),
    search: q.search,
    widths: Object.fromEntries(Object.entries(s.columnSizing).map(([id, w]) => [columnIndex(id), w])),
    scrollTop,
    pinned: (s.columnPinning?.start ?? []).map(columnIndex),
  };
}

/** Puts a saved sort, filters and search back on a new table. */
export function applySavedView(table: ResultsTable, saved: ViewState): void {
  if (saved.sorting) table.setSorting([{ id: columnId(saved.sorting.column), desc: saved.sorting.desc }]);
  table.setColumnFilters(Object.entries(saved.filters).map(([k, v]) => ({ id: columnId(Number(k)), value: v })));
  table.setGlobalFilter(saved.search);
}
