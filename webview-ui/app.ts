// The page's controller: takes host messages, feeds the dataset, keeps the grid, toolbar and saved
// state in step with TanStack Table's state.
import { amountColumns } from '../src/shared/amounts';
import {
  type HostToPage,
  type PageToHost,
  type PersistedState,
  type ReconciliationView,
  type TableSource,
  type SubmissionView,
  type ViewState,
  OUTCOME_COLUMNS,
  RECONCILE_KEY_COLUMN,
  RECONCILE_STATUS_COLUMN,
} from '../src/shared/resultsProtocol';
import { renderReconcileBanner } from './reconcileView';
import { rowMasker } from '../src/shared/cardData';
import type { ReportInfo } from '../src/shared/reportInfo';
import { renderBanner } from './banner';
import { renderReportBanner } from './reportBanner';
import { CsvReader } from './csvReader';
import { countText, emptyState, fitWidths } from './pageText';
import { persistedState } from './persist';
import { Dataset, needleOf, yieldToPage, type ViewQuery } from './dataset';
import { el } from './dom';
import { Grid, rowAsTsv } from './grid';
import { columnId, columnIndex, createResultsTable, type ResultsTable } from './table';

export interface VsCodeApi {
  postMessage(message: PageToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

const PIECE = 1 << 18; // characters parsed between two yields: a few milliseconds of work

export class App {
  private readonly data = new Dataset();
  private table: ResultsTable | undefined;
  private grid: Grid | undefined;
  private unsubscribe: (() => void) | undefined;
  private order: Uint32Array | null = null; // null: every row in file order
  private queryGeneration = 0;
  private title = '';
  private source: TableSource = { kind: 'inline' };
  private submission: SubmissionView | undefined;
  private reconciliation: ReconciliationView | undefined;
  private readonly reconcileButton: HTMLButtonElement;
  private pendingView: ViewState | undefined;
  private stream: CsvReader | undefined;
  /** Rows the current view (order) has looked at; rows after it arrived since. */
  private viewRows = 0;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFollow = 0;
  private lastPaint = 0;
  /** A follow-up of the rows that came inside the last pause (see onPiece). */
  private paintTimer: ReturnType<typeof setTimeout> | undefined;
  /** Data columns to pin for the next table set up (a submission pins its outcome columns). */
  private pinNext: number[] | undefined;
  private work: Promise<void> = Promise.resolve();
  private firstRowsMarked = false;
  /** The report's facts (template, environment, time, size) when the table shows a report. */
  private info: ReportInfo | undefined;
  private readonly banner: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly status: HTMLElement;
  private readonly gridHost: HTMLElement;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The widths last set automatically, to tell them from widths the user chose. */
  private autoWidths: string | undefined;
  private expected: number | undefined;
  private received = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly vscode: VsCodeApi,
  ) {
    this.banner = el('div', { class: 'banner-host' });
    this.toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Table actions' });
    this.search = el('input', {
      type: 'search',
      class: 'search',
      placeholder: 'Search all columns',
      'aria-label': 'Search all columns',
      spellcheck: 'false',
    });
    this.count = el('span', { class: 'count', role: 'status', 'aria-live': 'polite' });
    const button = (label: string, action: () => void, id: string) => {
      const b = el('button', { type: 'button', id }, label);
      b.addEventListener('click', action);
      return b;
    };
    this.reconcileButton = button('Reconcile…', () => this.post({ type: 'reconcile' }), 'reconcile');
    this.toolbar.append(
      this.search,
      this.count,
      button('Copy cell', () => this.copy('cell'), 'copy-cell'),
      button('Copy row', () => this.copy('row'), 'copy-row'),
      button('Export CSV', () => this.exportRows('csv'), 'export-csv'),
      button('Export JSON', () => this.exportRows('json'), 'export-json'),
      this.reconcileButton,
    );
    this.status = el('div', { class: 'statusline', 'aria-live': 'polite' });
    this.gridHost = el('div', { class: 'grid-host' });
    root.append(this.banner, this.toolbar, this.status, this.gridHost);
    this.gridHost.addEventListener('dblclick', () => this.reveal());
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.table?.setGlobalFilter(this.search.value), 150);
    });
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.search.value !== '') {
        e.stopPropagation();
        clearTimeout(timer);
        this.search.value = '';
        this.table?.setGlobalFilter('');
      }
    });
    this.setStatus('Waiting for data…');
  }

  /** Restores what vscode.getState() kept; returns true when there was something to restore. */
  restore(saved: PersistedState): boolean {
    this.title = saved.title;
    this.source = saved.source;
    this.pendingView = saved.view;
    this.showReportBanner(saved.title, saved.info);
    if (saved.submission) {
      this.showSubmission(saved.submission);
      return true;
    }
    if (saved.reconciliation) {
      this.showReconciliation(saved.reconciliation);
      return true;
    }
    if (saved.table) {
      this.loadRows(saved.title, saved.table.columns, saved.table.rows, saved.source);
      return true;
    }
    // A file is streamed again by the host; an in-memory report too big to keep is gone.
    this.setStatus(
      saved.source.kind === 'file' ? 'Reloading the file…' : 'This report was too large to keep across a reload: run it again.',
    );
    return saved.source.kind === 'file';
  }

  handle(msg: HostToPage): void {
    switch (msg.type) {
      case 'table':
        this.submission = undefined;
        this.reconciliation = undefined;
        this.showReportBanner(msg.title, msg.info);
        this.loadRows(msg.title, msg.columns, msg.rows, msg.source);
        break;
      case 'submission':
        this.showSubmission(msg.view);
        break;
      case 'reconciliation':
        this.showReconciliation(msg.view);
        break;
      case 'csvStart':
        this.work = this.work.then(() => this.startCsv(msg.title, msg.source, msg.delimiter, msg.totalBytes, msg.info));
        break;
      case 'csvChunk':
        this.work = this.work.then(() => this.feed(msg.text));
        break;
      case 'csvEnd':
        this.work = this.work.then(() => this.endCsv());
        break;
      case 'csvFailed':
        this.work = this.work.then(() => this.setStatus(`Could not read the file: ${msg.message}`));
        break;
      case 'exportDone':
        this.setStatus(msg.message);
        break;
    }
  }

  private showReconciliation(view: ReconciliationView): void {
    this.submission = undefined;
    this.reconciliation = view;
    const status = view.columns.indexOf(RECONCILE_STATUS_COLUMN);
    const byStatus = (s: string | undefined) => this.table?.setColumnFilters(s === undefined ? [] : [{ id: columnId(status), value: s }]);
    this.banner.replaceChildren(renderReconcileBanner(view, byStatus));
    this.pinNext = status === -1 ? undefined : [status];
    this.loadRows(view.title, view.columns, view.rows, { kind: 'inline' });
  }

  /** A reconciliation row's batch line and report lines, shown by the host. */
  private reveal(): void {
    const key = this.reconciliation ? this.reconciliation.columns.indexOf(RECONCILE_KEY_COLUMN) : -1;
    const value = key === -1 ? undefined : this.grid?.activeRow()?.[key];
    if (value) this.post({ type: 'reveal', key: value });
  }

  /** A report's banner, the same as above a PDF report; nothing for a plain CSV file. */
  private showReportBanner(title: string, info: ReportInfo | undefined): void {
    this.info = info;
    if (info) this.banner.replaceChildren(renderReportBanner(title, info));
    else this.banner.replaceChildren();
  }

  private showSubmission(view: SubmissionView): void {
    this.submission = view;
    this.reconciliation = undefined;
    this.info = undefined;
    this.banner.replaceChildren(renderBanner(view));
    // The answer's columns lead the table (the host puts them first); keep them in view.
    const outcome = new Set<string>(OUTCOME_COLUMNS);
    const lead = view.columns.findIndex((c) => !outcome.has(c));
    const count = lead === -1 ? view.columns.length : lead;
    this.pinNext = count > 0 ? Array.from({ length: count }, (_, i) => i) : undefined;
    this.loadRows(view.title, view.columns, view.rows, { kind: 'inline' });
  }

  private setStatus(text: string): void {
    this.status.textContent = text;
  }

  private setUp(title: string, columns: string[], source: TableSource): void {
    this.title = title;
    this.source = source;
    document.title = title;
    this.unsubscribe?.();
    this.grid?.dispose();
    this.order = null;
    this.viewRows = 0;
    clearTimeout(this.followTimer);
    this.followTimer = undefined;
    this.queryGeneration++; // a view still being computed belongs to the previous rows
    this.firstRowsMarked = false;
    this.autoWidths = undefined;
    document.body.dataset.state = 'loading';
    this.data.reset(columns, rowMasker(columns));
    this.reconcileButton.hidden = this.submission !== undefined || this.reconciliation !== undefined;
    const saved = this.pendingView;
    this.table = createResultsTable(columns, { widths: saved?.widths, pinned: saved?.pinned ?? this.pinNext });
    this.pinNext = undefined;
    const table = this.table;
    this.grid = new Grid(this.gridHost, table, title, {
      rowAt: (i) => {
        const r = this.order ? this.order[i] : i;
        return r < this.data.rowCount ? this.data.row(r) : undefined;
      },
      onCopy: (text, what) => this.post({ type: 'copy', text, what }),
      onActiveChange: () => undefined,
      statusColumn: this.reconciliation ? this.reconciliation.columns.indexOf(RECONCILE_STATUS_COLUMN) : undefined,
      needlesFor: (column) => this.needlesFor(column),
      cellText: amountColumns(columns),
    });
    if (saved) {
      if (saved.sorting) table.setSorting([{ id: columnId(saved.sorting.column), desc: saved.sorting.desc }]);
      table.setColumnFilters(Object.entries(saved.filters).map(([k, v]) => ({ id: columnId(Number(k)), value: v })));
      table.setGlobalFilter(saved.search);
      this.search.value = saved.search;
    }
    let last = { sorting: table.store.state.sorting, filters: table.store.state.columnFilters, search: table.store.state.globalFilter };
    const sub = table.store.subscribe(() => {
      const s = table.store.state;
      this.grid?.syncHeader();
      if (s.sorting !== last.sorting || s.columnFilters !== last.filters || s.globalFilter !== last.search) {
        last = { sorting: s.sorting, filters: s.columnFilters, search: s.globalFilter };
        void this.recompute(false);
      }
      this.saveSoon();
    });
    this.unsubscribe = () => sub.unsubscribe();
    this.grid.syncHeader();
    this.grid.element.addEventListener('scroll', () => this.saveSoon(), { passive: true });
  }

  private loadRows(title: string, columns: string[], rows: string[][], source: TableSource): void {
    this.setUp(title, columns, source);
    this.data.append(rows);
    this.data.finish();
    void this.finishLoad();
  }

  /** The search everywhere and the column's own filter, for highlighting. */
  private needlesFor(column: number): string[] {
    if (!this.table) return [];
    const s = this.table.store.state;
    const out: string[] = [];
    const search = needleOf(String(s.globalFilter ?? ''));
    if (search) out.push(search);
    const filter = s.columnFilters.find((f) => columnIndex(f.id) === column);
    const f = filter ? needleOf(String(filter.value ?? '')) : '';
    if (f && f !== search) out.push(f);
    return out;
  }

  private async startCsv(title: string, source: TableSource, delimiter?: string, totalBytes?: number, info?: ReportInfo): Promise<void> {
    this.expected = totalBytes && totalBytes > 0 ? totalBytes : undefined;
    this.received = 0;
    clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    this.submission = undefined;
    this.reconciliation = undefined;
    this.showReportBanner(title, info);
    this.title = title;
    this.setStatus('Loading…');
    performance.mark('paygate:csv-start');
    this.stream = new CsvReader({
      delimiter,
      onHeader: (columns) => this.setUp(title, columns, source),
      onPiece: (piece) => {
        this.data.addPiece(piece);
        // The grid and counter follow the rows a few times a second, not at every piece: each update
        // costs a layout, and pieces arrive hundreds of times while a large file loads. A piece inside
        // the pause is followed once the pause is over, so the last rows of a burst are never left out.
        const now = performance.now();
        if (this.firstRowsMarked && now - this.lastPaint < 120) {
          this.paintTimer ??= setTimeout(
            () => {
              this.paintTimer = undefined;
              this.followRows();
            },
            120 - (now - this.lastPaint),
          );
          return;
        }
        this.followRows();
      },
    });
  }

  /** The grid, the counter and a sorted or filtered view follow the rows parsed so far. */
  private followRows(): void {
    this.lastPaint = performance.now();
    if (!this.hasQuery()) this.grid?.setCount(this.data.rowCount, true);
    else this.followSoon();
    this.markFirstRows();
    this.updateCount(!this.data.complete);
  }

  private async feed(text: string): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    this.received += text.length;
    for (let i = 0; i < text.length; i += PIECE) {
      stream.push(text.slice(i, i + PIECE));
      await yieldToPage();
    }
  }

  private async endCsv(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    stream.end();
    this.stream = undefined;
    this.data.finish();
    await this.finishLoad();
    if (stream.errors > 0) this.setStatus(`Loaded with ${stream.errors} malformed record(s); they are shown as parsed.`);
  }

  private async finishLoad(): Promise<void> {
    this.markFirstRows();
    // The first batch may have been a handful of rows: fit again unless the user has resized since.
    if (this.autoWidths !== undefined && this.autoWidths === JSON.stringify(this.table?.store.state.columnSizing)) this.fitColumns();
    await this.recompute(true);
    performance.mark('paygate:all-rows');
    void this.indexWhenIdle();
    if (this.pendingView) this.grid?.restoreScroll(this.pendingView.scrollTop);
    this.pendingView = undefined;
    this.setStatus('');
    document.body.dataset.state = 'ready';
    this.saveSoon();
  }

  /** Lower-cases the rows for searching in small steps once loading is done, so the first search is quick. */
  private async indexWhenIdle(): Promise<void> {
    const store = this.data.store;
    const columns = store.columns;
    let t = performance.now();
    while (store.columns === columns && store.indexNext()) {
      if (performance.now() - t > 20) {
        await yieldToPage();
        t = performance.now();
      }
    }
  }

  private markFirstRows(): void {
    if (!this.firstRowsMarked && this.data.rowCount > 0) {
      this.firstRowsMarked = true;
      if (!this.pendingView || Object.keys(this.pendingView.widths).length === 0) this.fitColumns();
      else this.autoWidths = undefined;
      performance.mark('paygate:first-rows');
    }
  }

  /** Initial widths from the header and the first rows, measured in the grid's own font. */
  private fitColumns(): void {
    const grid = this.grid?.element;
    const ctx = document.createElement('canvas').getContext('2d');
    if (!grid || !ctx) return;
    const style = getComputedStyle(grid);
    const font = `${style.fontSize} ${style.fontFamily}`;
    const sample = Array.from({ length: Math.min(200, this.data.rowCount) }, (_, i) => this.data.row(i));
    const widths = fitWidths(this.data.columns, sample, (text, bold) => {
      ctx.font = bold ? `600 ${font}` : font;
      return ctx.measureText(text).width;
    });
    const sizing = Object.fromEntries(widths.map((w, c) => [columnId(c), w]));
    this.table?.setColumnSizing(sizing);
    this.autoWidths = JSON.stringify(sizing);
  }

  private query(): ViewQuery {
    const s = this.table!.store.state;
    const sort = s.sorting[0];
    return {
      sorting: sort ? { column: columnIndex(sort.id), desc: sort.desc } : null,
      filters: new Map(s.columnFilters.map((f) => [columnIndex(f.id), String(f.value ?? '')])),
      search: String(s.globalFilter ?? ''),
    };
  }

  private hasQuery(): boolean {
    const q = this.table ? this.query() : undefined;
    return !!q && (q.sorting !== null || q.search.trim() !== '' || [...q.filters.values()].some((v) => v.trim() !== ''));
  }

  /**
   * Builds the view for the rows there are now. While rows are still arriving this runs too: the view
   * covers the rows so far and followSoon() extends it as more come.
   */
  private async recompute(keepScroll: boolean): Promise<void> {
    if (!this.table || !this.grid) return;
    clearTimeout(this.followTimer);
    this.followTimer = undefined;
    const generation = ++this.queryGeneration;
    const started = performance.now();
    document.body.dataset.busy = 'true';
    if (this.hasQuery()) this.setStatus('Working…');
    await yieldToPage();
    const rows = this.data.rowCount;
    const order = await this.data.view(this.query(), () => generation === this.queryGeneration, 0, rows);
    if (!order || generation !== this.queryGeneration) return;
    this.order = order;
    this.viewRows = rows;
    this.lastFollow = performance.now();
    this.showView(keepScroll);
    performance.measure('paygate:view', { start: started });
    this.setStatus(this.data.complete ? '' : 'Sorted and filtered over the rows loaded so far; more are arriving.');
    document.body.dataset.busy = 'false';
    if (!this.data.complete && this.data.rowCount > rows) this.followSoon();
  }

  /** More rows arrived under a query: extend an unsorted view, re-sort a sorted one now and then. */
  private followSoon(): void {
    if (this.followTimer !== undefined || !this.order || document.body.dataset.busy === 'true') return;
    const sorted = (this.table?.store.state.sorting.length ?? 0) > 0;
    // A re-sort costs the whole view; at most about twice a second while loading.
    const wait = sorted ? Math.max(0, 500 - (performance.now() - this.lastFollow)) : 0;
    this.followTimer = setTimeout(() => {
      this.followTimer = undefined;
      void (sorted ? this.recompute(true) : this.extendView());
    }, wait);
  }

  private async extendView(): Promise<void> {
    if (!this.order || !this.grid) return;
    const generation = this.queryGeneration;
    const from = this.viewRows;
    const to = this.data.rowCount;
    if (to <= from) return;
    const more = await this.data.view(this.query(), () => generation === this.queryGeneration, from, to);
    if (!more || generation !== this.queryGeneration || !this.order) return;
    const merged = new Uint32Array(this.order.length + more.length);
    merged.set(this.order);
    merged.set(more, this.order.length);
    this.order = merged;
    this.viewRows = to;
    this.lastFollow = performance.now();
    this.showView(true);
    if (this.data.rowCount > to) this.followSoon();
  }

  private showView(keepScroll: boolean): void {
    if (!this.grid || !this.order) return;
    this.grid.setCount(this.order.length, keepScroll);
    this.updateCount(!this.data.complete);
    this.updateEmpty();
  }

  /** With rows but none shown: say so, and offer to clear what hides them. */
  private updateEmpty(): void {
    if (!this.grid || !this.table) return;
    const s = this.table.store.state;
    const state = emptyState({
      shown: this.order ? this.order.length : this.data.rowCount,
      total: this.data.rowCount,
      complete: this.data.complete,
      search: String(s.globalFilter ?? ''),
      filters: s.columnFilters.filter((f) => String(f.value ?? '').trim() !== '').length,
    });
    if (!state) return this.grid.setEmpty(null);
    this.grid.setEmpty(
      state.message,
      state.action === undefined
        ? undefined
        : {
            label: state.action,
            run: () => {
              this.search.value = '';
              this.table?.setGlobalFilter('');
              this.table?.setColumnFilters([]);
              this.search.focus();
            },
          },
    );
  }

  private updateCount(loading: boolean): void {
    const total = this.data.rowCount;
    const filtered = this.hasQuery();
    this.count.textContent = countText({
      loading,
      filtered,
      shown: this.order && filtered ? this.order.length : total,
      total,
      // Characters received against the file's bytes: close enough for a progress figure.
      percent: this.expected ? Math.min(99, Math.floor((100 * this.received) / this.expected)) : undefined,
    });
  }

  private visibleRows(): string[][] {
    const n = this.order ? this.order.length : this.data.rowCount;
    const out = new Array<string[]>(n);
    for (let i = 0; i < n; i++) out[i] = this.data.row(this.order ? this.order[i] : i);
    return out;
  }

  private copy(what: 'cell' | 'row'): void {
    if (!this.grid) return;
    const row = this.grid.activeRow();
    const text = what === 'cell' ? this.grid.activeValue() : row && rowAsTsv(row);
    if (text !== undefined) this.post({ type: 'copy', text, what });
  }

  private exportRows(format: 'csv' | 'json'): void {
    if (!this.data.complete) {
      this.setStatus('Export is available when the file has finished loading.');
      return;
    }
    const base = this.title.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'report';
    this.post({ type: 'export', format, columns: this.data.columns, rows: this.visibleRows(), suggestedName: `${base}.${format}` });
    this.setStatus('Choose where to save the export…');
  }

  private post(msg: PageToHost): void {
    this.vscode.postMessage(msg);
  }

  private saveSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), 300);
  }

  private save(): void {
    if (!this.table || !this.data.complete) return;
    const s = this.table.store.state;
    const q = this.query();
    this.vscode.setState(
      persistedState({
        title: this.title,
        source: this.source,
        submission: this.submission,
        reconciliation: this.reconciliation,
        info: this.info,
        data: this.data,
        view: {
          sorting: q.sorting,
          filters: Object.fromEntries(q.filters),
          search: q.search,
          widths: Object.fromEntries(Object.entries(s.columnSizing).map(([id, w]) => [columnIndex(id), w])),
          scrollTop: this.grid?.scrollTop ?? 0,
          pinned: (s.columnPinning?.start ?? []).map(columnIndex),
        },
      }),
    );
  }
}
