// A new table for new columns: TanStack's column model with the saved widths, pins and query, the grid
// that draws it, and the subscription that keeps the view and the saved state in step with it.
import { amountColumns } from '../src/shared/amounts';
import type { PageToHost, ViewState } from '../src/shared/resultsProtocol';
import { Grid } from './grid';
import { applySavedView } from './persist';
import { createResultsTable, watchTable, type ResultsTable } from './table';
import type { ResultsView } from './view';

export interface TableSetup {
  host: HTMLElement;
  title: string;
  columns: string[];
  /** The view the user left (after a reload), else nothing. */
  saved?: ViewState;
  /** Data columns to pin when nothing was saved. */
  pins?: number[];
  /** A reconciliation's status column, coloured by the grid. */
  statusColumn?: number;
  view: ResultsView;
  post(msg: PageToHost): void;
  /** Any change of the table's state (to save it soon). */
  onChange(): void;
}

export function setUpTable(o: TableSetup): { table: ResultsTable; grid: Grid; unsubscribe: () => void } {
  const table = createResultsTable(o.columns, { widths: o.saved?.widths, pinned: o.saved?.pinned ?? o.pins });
  const grid = new Grid(o.host, table, o.title, {
    rowAt: (i) => o.view.rowAt(i),
    onCopy: (text, what) => o.post({ type: 'copy', text, what }),
    onActiveChange: () => undefined,
    statusColumn: o.statusColumn,
    needlesFor: (column) => o.view.needlesFor(column),
    cellText: amountColumns(o.columns),
  });
  if (o.saved) applySavedView(table, o.saved);
  const unsubscribe = watchTable(
    table,
    () => void o.view.recompute(false),
    () => {
      grid.syncHeader();
      o.onChange();
    },
  );
  grid.syncHeader();
  grid.element.addEventListener('scroll', () => o.onChange(), { passive: true });
  return { table, grid, unsubscribe };
}
