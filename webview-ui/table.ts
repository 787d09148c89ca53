// TanStack Table owns the column model and the interaction state (sorting, per-column filters, global
// search, column sizes and the resize gesture). Its row models are not used: they create an object per
// row, which at a million rows costs hundreds of megabytes, so rows are filtered and sorted by
// dataset.ts over plain index arrays instead (the "manual" modes the library provides for exactly this).
import {
  columnFilteringFeature,
  columnPinningFeature,
  columnResizingFeature,
  columnSizingFeature,
  constructTable,
  createColumnHelper,
  filterFn_includesString,
  globalFilteringFeature,
  rowSortingFeature,
  tableFeatures,
} from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';

export const features = tableFeatures({
  coreReactivityFeature: storeReactivityBindings(),
  columnSizingFeature,
  columnResizingFeature,
  columnPinningFeature,
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  // Filtering itself is manual (dataset.ts); naming the function only stops the 'auto' lookup.
  filterFns: { includesString: filterFn_includesString },
});

export type Row = string[];
const helper = createColumnHelper<typeof features, Row>();

export const columnId = (index: number) => `c${index}`;
export const columnIndex = (id: string) => Number(id.slice(1));

/** `pinned`: data columns pinned to the start; by default the first one (a row's name, usually). */
export function createResultsTable(names: string[], initial?: { widths?: Record<number, number>; pinned?: number[] }) {
  const columns = helper.columns(
    names.map((name, i) =>
      helper.accessor((row: Row) => row[i] ?? '', {
        id: columnId(i),
        header: name || `Column ${i + 1}`,
        size: 160,
        minSize: 48,
        maxSize: 2000,
        filterFn: 'includesString',
      }),
    ),
  );
  const sizing: Record<string, number> = {};
  for (const [k, v] of Object.entries(initial?.widths ?? {})) sizing[columnId(Number(k))] = v;
  return constructTable({
    features,
    columns,
    data: [] as Row[],
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: false,
    sortDescFirst: false,
    columnResizeMode: 'onChange',
    initialState: {
      columnSizing: sizing,
      columnPinning: { start: (initial?.pinned ?? (names.length > 1 ? [0] : [])).filter((i) => i < names.length).map(columnId), end: [] },
    },
  });
}

export type ResultsTable = ReturnType<typeof createResultsTable>;

/**
 * Calls `onQuery` when the sort, a filter or the search changed, and `onAny` on every change of the
 * table's state (widths, pinning, the resize gesture too). Returns the unsubscribe.
 */
export function watchTable(table: ResultsTable, onQuery: () => void, onAny: () => void): () => void {
  let last = { sorting: table.store.state.sorting, filters: table.store.state.columnFilters, search: table.store.state.globalFilter };
  const sub = table.store.subscribe(() => {
    const s = table.store.state;
    onAny();
    if (s.sorting !== last.sorting || s.columnFilters !== last.filters || s.globalFilter !== last.search) {
      last = { sorting: s.sorting, filters: s.columnFilters, search: s.globalFilter };
      onQuery();
    }
  });
  return () => sub.unsubscribe();
}
