// The rows the table shows, in the order it shows them: the dataset's view for the current sort, filters
// and search, kept up to date while rows still arrive. A newer query cancels an older one still being
// computed (the generation), an unsorted view is extended by the new rows, a sorted one re-sorted at most
// about twice a second.
import { countText, emptyState, exportName } from './pageText';
import type { ExportFormat, PageToHost } from '../src/shared/resultsProtocol';
import { needleOf, yieldToPage, type Dataset, type ViewQuery } from './dataset';
import type { Grid } from './grid';
import { columnIndex, type ResultsTable } from './table';

export interface ViewHost {
  table(): ResultsTable | undefined;
  grid(): Grid | undefined;
  setStatus(text: string): void;
  setCount(text: string): void;
  /** Clears the search and every filter (the empty view's action). */
  clearQuery(): void;
  /** Per cent of the file received, while a file loads. */
  progress(): number | undefined;
  /**
   * The rows the query bar keeps (the filter expression, or one group), marked for the first `rows` rows;
   * undefined when it keeps every row, null when a newer query made it give up.
   */
  marks(rows: number, stale: () => boolean): Promise<Uint8Array | null | undefined>;
  /** Whether the query bar narrows the rows. */
  hasMarks(): boolean;
  /** How the query bar narrows them, in its words: the filter expression, the group shown. */
  narrowing(): { where?: string; group?: string };
}

/** A re-sort costs the whole view: while rows arrive, at most this often. */
const RESORT_MS = 500;

/** A column's filter value: the text typed in its box (the table keeps it as unknown). */
const filterText = (v: unknown): string => (typeof v === 'string' ? v : '');

export class ResultsView {
  /** null: every row in file order. */
  private order: Uint32Array | null = null;
  private generation = 0;
  /** Rows the current order has looked at; rows after it arrived since. */
  private viewRows = 0;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFollow = 0;

  constructor(
    private readonly data: Dataset,
    private readonly host: ViewHost,
  ) {}

  /** New rows (a new table): any view still being computed belongs to the previous ones. */
  reset(): void {
    this.order = null;
    this.viewRows = 0;
    clearTimeout(this.followTimer);
    this.followTimer = undefined;
    this.generation++;
  }

  /** The data row shown at position i, if there is one. */
  rowAt(i: number): string[] | undefined {
    const r = this.order ? this.order[i] : i;
    return r < this.data.rowCount ? this.data.row(r) : undefined;
  }

  query(): ViewQuery {
    const s = this.host.table()!.store.state;
    const sort = s.sorting[0];
    return {
      sorting: sort ? { column: columnIndex(sort.id), desc: sort.desc } : null,
      filters: new Map(s.columnFilters.map((f) => [columnIndex(f.id), filterText(f.value)])),
      search: String(s.globalFilter ?? ''),
    };
  }

  hasQuery(): boolean {
    const q = this.host.table() ? this.query() : undefined;
    return (
      !!q && (q.sorting !== null || q.search.trim() !== '' || [...q.filters.values()].some((v) => v.trim() !== '') || this.host.hasMarks())
    );
  }

  /** The search everywhere and the column's own filter, for highlighting. */
  needlesFor(column: number): string[] {
    const table = this.host.table();
    if (!table) return [];
    const s = table.store.state;
    const out: string[] = [];
    const search = needleOf(String(s.globalFilter ?? ''));
    if (search) out.push(search);
    const filter = s.columnFilters.find((f) => columnIndex(f.id) === column);
    const f = filter ? needleOf(filterText(filter.value)) : '';
    if (f && f !== search) out.push(f);
    return out;
  }

  /** Rows arrived with no query: the grid and counter follow them; under a query, the view does. */
  followRows(): void {
    if (!this.hasQuery()) this.host.grid()?.setCount(this.data.rowCount, true);
    else this.followSoon();
    this.updateCount();
  }

  /**
   * Builds the view for the rows there are now. While rows are still arriving this runs too: the view
   * covers the rows so far and followSoon() extends it as more come.
   */
  async recompute(keepScroll: boolean): Promise<void> {
    if (!this.host.table() || !this.host.grid()) return;
    clearTimeout(this.followTimer);
    this.followTimer = undefined;
    const generation = ++this.generation;
    const started = performance.now();
    document.body.dataset.busy = 'true';
    if (this.hasQuery()) this.host.setStatus('Working…');
    await yieldToPage();
    const rows = this.data.rowCount;
    // No query: file order, without an index array (20 MB and a long task at five million rows).
    const plain = !this.hasQuery();
    const current = () => generation === this.generation;
    const marks = plain ? undefined : await this.host.marks(rows, () => !current());
    if (marks === null || !current()) return;
    const order = plain ? null : await this.data.view({ ...this.query(), marks }, current, 0, rows);
    if ((!plain && !order) || generation !== this.generation) return;
    this.order = order;
    this.viewRows = rows;
    this.lastFollow = performance.now();
    this.show(keepScroll);
    performance.measure('paygate:view', { start: started });
    this.host.setStatus(this.data.complete ? '' : 'Sorted and filtered over the rows loaded so far; more are arriving.');
    document.body.dataset.busy = 'false';
    if (!this.data.complete && this.data.rowCount > rows) this.followSoon();
  }

  /** More rows arrived under a query: extend an unsorted view, re-sort a sorted one now and then. */
  private followSoon(): void {
    if (this.followTimer !== undefined || !this.order || document.body.dataset.busy === 'true') return;
    const sorted = (this.host.table()?.store.state.sorting.length ?? 0) > 0;
    const wait = sorted ? Math.max(0, RESORT_MS - (performance.now() - this.lastFollow)) : 0;
    this.followTimer = setTimeout(() => {
      this.followTimer = undefined;
      void (sorted ? this.recompute(true) : this.extend());
    }, wait);
  }

  private async extend(): Promise<void> {
    if (!this.order || !this.host.grid()) return;
    const generation = this.generation;
    const from = this.viewRows;
    const to = this.data.rowCount;
    if (to <= from) return;
    const current = () => generation === this.generation;
    const marks = await this.host.marks(to, () => !current());
    if (marks === null) return;
    const more = await this.data.view({ ...this.query(), marks }, current, from, to);
    if (!more || generation !== this.generation || !this.order) return;
    const merged = new Uint32Array(this.order.length + more.length);
    merged.set(this.order);
    merged.set(more, this.order.length);
    this.order = merged;
    this.viewRows = to;
    this.lastFollow = performance.now();
    this.show(true);
    if (this.data.rowCount > to) this.followSoon();
  }

  private show(keepScroll: boolean): void {
    const grid = this.host.grid();
    if (!grid) return;
    grid.setCount(this.order ? this.order.length : this.data.rowCount, keepScroll);
    this.updateCount();
    this.updateEmpty();
  }

  /** With rows but none shown: say so, and offer to clear what hides them. */
  private updateEmpty(): void {
    const grid = this.host.grid();
    const table = this.host.table();
    if (!grid || !table) return;
    const s = table.store.state;
    const state = emptyState({
      shown: this.order ? this.order.length : this.data.rowCount,
      total: this.data.rowCount,
      complete: this.data.complete,
      search: String(s.globalFilter ?? ''),
      filters: s.columnFilters.filter((f) => filterText(f.value).trim() !== '').length,
      ...this.host.narrowing(),
    });
    if (!state) return grid.setEmpty(null);
    grid.setEmpty(state.message, state.action === undefined ? undefined : { label: state.action, run: () => this.host.clearQuery() });
  }

  updateCount(): void {
    const total = this.data.rowCount;
    const filtered = this.hasQuery();
    this.host.setCount(
      countText({
        loading: !this.data.complete,
        filtered,
        shown: this.order && filtered ? this.order.length : total,
        total,
        percent: this.host.progress(),
      }),
    );
  }

  /** The export of the rows shown, in order, to ask the host for; none until every row is loaded. */
  exportRequest(format: ExportFormat, title: string): Extract<PageToHost, { type: 'export' }> | undefined {
    if (!this.data.complete) return undefined;
    const n = this.order ? this.order.length : this.data.rowCount;
    const rows = new Array<string[]>(n);
    for (let i = 0; i < n; i++) rows[i] = this.data.row(this.order ? this.order[i] : i);
    return { type: 'export', format, columns: this.data.columns, rows, suggestedName: exportName(title, format) };
  }
}
