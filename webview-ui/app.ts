// The page's controller: takes host messages, feeds the dataset, keeps the grid, toolbar and saved
// state in step with TanStack Table's state.
import {
  INLINE_STATE_LIMIT,
  PROTOCOL_VERSION,
  type HostToPage,
  type PageToHost,
  type PersistedState,
  type ReportSource,
  type SubmissionView,
  type ViewState,
} from '../src/shared/resultsProtocol';
import { rowMasker } from '../src/shared/cardData';
import { renderBanner } from './banner';
import { CsvStream } from './csvStream';
import { Dataset, yieldToPage, type ViewQuery } from './dataset';
import { el } from './dom';
import { Grid, rowAsTsv } from './grid';
import { columnId, columnIndex, createResultsTable, type ResultsTable } from './table';

export interface VsCodeApi {
  postMessage(message: PageToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

const PIECE = 1 << 20; // characters parsed between two yields

export class App {
  private readonly data = new Dataset();
  private table: ResultsTable | undefined;
  private grid: Grid | undefined;
  private unsubscribe: (() => void) | undefined;
  private order: Uint32Array | null = null; // null: every row in file order
  private queryGeneration = 0;
  private title = '';
  private source: ReportSource = { kind: 'inline' };
  private submission: SubmissionView | undefined;
  private pendingView: ViewState | undefined;
  private stream: CsvStream | undefined;
  private work: Promise<void> = Promise.resolve();
  private firstRowsMarked = false;
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
    this.search = el('input', { type: 'search', class: 'search', placeholder: 'Search all columns', 'aria-label': 'Search all columns', spellcheck: 'false' });
    this.count = el('span', { class: 'count', role: 'status', 'aria-live': 'polite' });
    const button = (label: string, action: () => void, id: string) => {
      const b = el('button', { type: 'button', id }, label);
      b.addEventListener('click', action);
      return b;
    };
    this.toolbar.append(
      this.search,
      this.count,
      button('Copy cell', () => this.copy('cell'), 'copy-cell'),
      button('Copy row', () => this.copy('row'), 'copy-row'),
      button('Export CSV', () => this.exportRows('csv'), 'export-csv'),
      button('Export JSON', () => this.exportRows('json'), 'export-json'),
    );
    this.status = el('div', { class: 'statusline', 'aria-live': 'polite' });
    this.gridHost = el('div', { class: 'grid-host' });
    root.append(this.banner, this.toolbar, this.status, this.gridHost);
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.table?.setGlobalFilter(this.search.value), 150);
    });
    this.setStatus('Waiting for data…');
  }

  /** Restores what vscode.getState() kept; returns true when there was something to restore. */
  restore(saved: PersistedState): boolean {
    this.title = saved.title;
    this.source = saved.source;
    this.pendingView = saved.view;
    if (saved.submission) {
      this.showSubmission(saved.submission);
      return true;
    }
    if (saved.table) {
      this.loadRows(saved.title, saved.table.columns, saved.table.rows, saved.source);
      return true;
    }
    // A file is streamed again by the host; an in-memory report too big to keep is gone.
    this.setStatus(saved.source.kind === 'file' ? 'Reloading the file…' : 'This report was too large to keep across a reload: run it again.');
    return saved.source.kind === 'file';
  }

  handle(msg: HostToPage): void {
    switch (msg.type) {
      case 'report':
        this.submission = undefined;
        this.banner.replaceChildren();
        this.loadRows(msg.title, msg.columns, msg.rows, msg.source);
        break;
      case 'submission':
        this.showSubmission(msg.view);
        break;
      case 'csvStart':
        this.work = this.work.then(() => this.startCsv(msg.title, msg.source, msg.delimiter, msg.totalBytes));
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

  private showSubmission(view: SubmissionView): void {
    this.submission = view;
    this.banner.replaceChildren(renderBanner(view));
    this.loadRows(view.title, view.columns, view.rows, { kind: 'inline' });
  }

  private setStatus(text: string): void {
    this.status.textContent = text;
  }

  private setUp(title: string, columns: string[], source: ReportSource): void {
    this.title = title;
    this.source = source;
    document.title = title;
    this.unsubscribe?.();
    this.grid?.dispose();
    this.order = null;
    this.queryGeneration++; // a view still being computed belongs to the previous rows
    this.firstRowsMarked = false;
    this.autoWidths = undefined;
    document.body.dataset.state = 'loading';
    this.data.reset(columns);
    const saved = this.pendingView;
    this.table = createResultsTable(columns, { widths: saved?.widths });
    const table = this.table;
    this.grid = new Grid(this.gridHost, table, title, {
      rowAt: (i) => this.data.rows[this.order ? this.order[i] : i],
      onCopy: (text, what) => this.post({ type: 'copy', text, what }),
      onActiveChange: () => undefined,
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

  private loadRows(title: string, columns: string[], rows: string[][], source: ReportSource): void {
    const guard = rowMasker(columns);
    if (guard) rows.forEach(guard);
    this.setUp(title, columns, source);
    this.data.append(rows);
    this.data.complete = true;
    void this.finishLoad();
  }

  private async startCsv(title: string, source: ReportSource, delimiter?: string, totalBytes?: number): Promise<void> {
    this.expected = totalBytes && totalBytes > 0 ? totalBytes : undefined;
    this.received = 0;
    this.submission = undefined;
    this.banner.replaceChildren();
    this.title = title;
    this.setStatus('Loading…');
    performance.mark('paygate:csv-start');
    let guard: ((row: string[]) => void) | undefined;
    this.stream = new CsvStream({
      delimiter,
      onHeader: (columns) => {
        guard = rowMasker(columns);
        this.setUp(title, columns, source);
      },
      onRows: (rows) => {
        if (guard) rows.forEach(guard);
        this.data.append(rows);
        if (!this.hasQuery()) this.grid?.setCount(this.data.rows.length, true);
        this.markFirstRows();
        this.updateCount(true);
      },
    });
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
    this.data.complete = true;
    await this.finishLoad();
    if (stream.errors > 0) this.setStatus(`Loaded with ${stream.errors} malformed record(s); they are shown as parsed.`);
  }

  private async finishLoad(): Promise<void> {
    this.markFirstRows();
    // The first batch may have been a handful of rows: fit again unless the user has resized since.
    if (this.autoWidths !== undefined && this.autoWidths === JSON.stringify(this.table?.store.state.columnSizing)) this.fitColumns();
    await this.recompute(true);
    performance.mark('paygate:all-rows');
    if (this.pendingView) this.grid?.restoreScroll(this.pendingView.scrollTop);
    this.pendingView = undefined;
    this.setStatus('');
    document.body.dataset.state = 'ready';
    this.saveSoon();
  }

  private markFirstRows(): void {
    if (!this.firstRowsMarked && this.data.rows.length > 0) {
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
    const sample = this.data.rows.slice(0, 200);
    const sizing: Record<string, number> = {};
    this.data.columns.forEach((name, c) => {
      let longest = '';
      for (const row of sample) if ((row[c] ?? '').length > longest.length) longest = row[c];
      ctx.font = font;
      const cell = ctx.measureText(longest.slice(0, 60)).width;
      ctx.font = `600 ${font}`;
      const head = ctx.measureText(name).width + 14; // room for the sort arrow
      sizing[columnId(c)] = Math.round(Math.min(420, Math.max(64, Math.max(cell, head) + 16)));
    });
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

  private async recompute(keepScroll: boolean): Promise<void> {
    if (!this.table || !this.grid) return;
    if (!this.data.complete) {
      this.setStatus('Sorting and filtering apply when the file has finished loading.');
      return;
    }
    const generation = ++this.queryGeneration;
    const started = performance.now();
    document.body.dataset.busy = 'true';
    if (this.hasQuery()) this.setStatus('Working…');
    await yieldToPage();
    const order = await this.data.view(this.query(), () => generation === this.queryGeneration);
    if (!order || generation !== this.queryGeneration) return;
    this.order = order;
    this.grid.setCount(order.length, keepScroll);
    this.updateCount(false);
    performance.measure('paygate:view', { start: started });
    this.setStatus('');
    document.body.dataset.busy = 'false';
  }

  private updateCount(loading: boolean): void {
    const total = this.data.rows.length;
    const shown = this.order ? this.order.length : total;
    const fmt = (n: number) => n.toLocaleString('en-US');
    // Characters received against the file's bytes: close enough for a progress figure.
    const pct = this.expected ? ` (${Math.min(99, Math.floor((100 * this.received) / this.expected))} %)` : '';
    this.count.textContent = loading ? `Loading… ${fmt(total)} rows${pct}` : `${fmt(shown)} of ${fmt(total)} rows`;
  }

  private visibleRows(): string[][] {
    const rows = this.data.rows;
    if (!this.order) return rows.slice();
    const out = new Array<string[]>(this.order.length);
    for (let i = 0; i < this.order.length; i++) out[i] = rows[this.order[i]];
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
    const widths: Record<number, number> = {};
    for (const [id, w] of Object.entries(s.columnSizing)) widths[columnIndex(id)] = w;
    const view: ViewState = {
      sorting: q.sorting,
      filters: Object.fromEntries(q.filters),
      search: q.search,
      widths,
      scrollTop: this.grid?.scrollTop ?? 0,
    };
    const state: PersistedState = { v: PROTOCOL_VERSION, title: this.title, source: this.source, view };
    if (this.submission) state.submission = this.submission;
    else if (this.source.kind === 'inline' && this.sizeWithin(INLINE_STATE_LIMIT)) state.table = { columns: this.data.columns, rows: this.data.rows };
    this.vscode.setState(state);
  }

  private sizeWithin(limit: number): boolean {
    let n = 0;
    for (const row of this.data.rows) {
      for (const c of row) n += c.length;
      if (n > limit) return false;
    }
    return true;
  }
}
