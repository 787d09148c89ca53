// The page's controller: takes host messages and wires the parts (the dataset, the view under the query, the
// streaming load, the toolbar, the grid, the banner, the saved state) in step with TanStack Table's state.
import type {
  ExportFormat,
  HostToPage,
  PageToHost,
  PersistedState,
  ReconciliationView,
  TableSource,
  ViewState,
} from '../src/shared/resultsProtocol';
import type { SubmissionView } from '../src/shared/submissionView';
import { revealKey, statusColumnOf } from './reconcileView';
import { rowMasker } from '../src/shared/cardData';
import { said, saidText, typed } from '../src/shared/said';
import type { ReportInfo } from '../src/shared/reportInfo';
import { PageBanner } from './pageBanner';
import { CsvLoad } from './csvLoad';
import type { DetachedReader } from './parseWorker';
import { exportName } from './pageText';
import { persistedState, viewStateOf } from './persist';
import { Dataset } from './dataset';
import { debounced, el, type VsCodeApi } from './dom';
import { ColumnFit } from './fitColumns';
import type { Grid } from './grid';
import { columnId, type ResultsTable } from './table';
import { setUpTable } from './tableSetup';
import { Toolbar } from './toolbar';
import { ResultsView } from './view';
import { QueryController } from './query/controller';

export class App {
  private readonly data = new Dataset();
  private readonly view: ResultsView;
  private readonly load: CsvLoad;
  private table: ResultsTable | undefined;
  private grid: Grid | undefined;
  private unsubscribe: (() => void) | undefined;
  private title = '';
  private source: TableSource = { kind: 'inline' };
  private pendingView: ViewState | undefined;
  /** Data columns to pin for the next table set up (a submission pins its outcome columns). */
  private pinNext: number[] | undefined;
  private work: Promise<void> = Promise.resolve();
  private firstRowsMarked = false;
  private readonly banner = new PageBanner();
  private readonly toolbar: Toolbar;
  private readonly status = el('div', { class: 'statusline', 'aria-live': 'polite' });
  private readonly gridHost = el('div', { class: 'grid-host' });
  private readonly saveSoon = debounced(() => this.save(), 300);
  private readonly fit = new ColumnFit();
  private readonly query: QueryController;

  /** `parser`: the parse worker that reads every other chunk of a CSV (none: the page reads them all). */
  constructor(
    root: HTMLElement,
    private readonly vscode: VsCodeApi<PageToHost, PersistedState>,
    parser?: DetachedReader,
  ) {
    this.load = new CsvLoad(parser);
    this.toolbar = new Toolbar({
      onSearch: (text) => this.table?.setGlobalFilter(text),
      onCopy: (what) => this.grid?.copy(what),
      onExport: (format) => this.exportRows(format),
      onReconcile: () => this.post({ type: 'reconcile' }),
    });
    this.view = new ResultsView(this.data, {
      table: () => this.table,
      grid: () => this.grid,
      setStatus: (text) => this.setStatus(text),
      setCount: (text) => this.toolbar.setCount(text),
      clearQuery: () => {
        this.toolbar.clearSearch();
        this.table?.setGlobalFilter('');
        this.table?.setColumnFilters([]);
        this.query.clearWhere();
        this.toolbar.search.focus();
      },
      progress: () => this.load.progress(),
      marks: (rows, stale) => this.query.marks(rows, stale),
      hasMarks: () => this.query.hasMarks(),
      narrowing: () => this.query.narrowing(),
    });
    this.query = new QueryController({
      data: this.data,
      gridHost: this.gridHost,
      refresh: () => void this.view.recompute(false),
      setStatus: (text) => this.setStatus(text),
      post: (msg) => this.post(msg),
      changed: () => this.saveSoon(),
      exportName: (what, extension) => exportName(`${this.title} ${what}`, 'csv').replace(/\.csv$/, `.${extension}`),
      title: () => this.title,
    });
    const q = this.query;
    root.append(
      this.banner.element,
      this.toolbar.element,
      q.bar.element,
      q.bar.error,
      this.status,
      q.groupChip,
      this.gridHost,
      q.summary.element,
    );
    // A reconciliation row's batch line and report lines, shown by the host.
    this.gridHost.addEventListener('dblclick', () => {
      const key = this.banner.reconciliation && revealKey(this.banner.reconciliation, this.grid?.activeRow());
      if (key) this.post({ type: 'reveal', key });
    });
    this.setStatus('Waiting for data…');
  }

  /** Restores what vscode.getState() kept; returns true when there was something to restore. */
  restore(saved: PersistedState): boolean {
    this.title = saved.title;
    this.source = saved.source;
    this.pendingView = saved.view;
    this.banner.showReport(saved.title, saved.info);
    if (saved.submission) this.showSubmission(saved.submission);
    else if (saved.reconciliation) this.showReconciliation(saved.reconciliation);
    else if (saved.table) this.loadRows(saved.title, saved.table.columns, saved.table.rows, saved.source);
    else {
      // A file is streamed again by the host; an in-memory report too big to keep is gone.
      const file = saved.source.kind === 'file';
      this.setStatus(file ? 'Reloading the file…' : 'This report was too large to keep across a reload: run it again.');
      return file;
    }
    return true;
  }

  handle(msg: HostToPage): void {
    switch (msg.type) {
      case 'table':
        this.banner.showTable(saidText(msg.title), msg.info);
        this.loadRows(saidText(msg.title), msg.columns, msg.rows, msg.source);
        break;
      case 'submission':
        this.showSubmission(msg.view);
        break;
      case 'reconciliation':
        this.showReconciliation(msg.view);
        break;
      // A file's chunks are taken as they arrive (so the parse worker starts on them at once) and read in turn.
      case 'csvStart':
        this.load.expect();
        this.work = this.work.then(() => this.startCsv(saidText(msg.title), msg.source, msg.delimiter, msg.totalBytes, msg.info));
        break;
      case 'csvChunk':
        this.load.receive(msg.bytes);
        this.work = this.work.then(() => this.load.feed());
        break;
      case 'csvEnd':
        this.work = this.work.then(() => this.endCsv());
        break;
      case 'csvFailed':
        this.work = this.work.then(() => this.setStatus(saidText(said`Could not read the file: ${msg.message}`)));
        break;
      case 'exportDone':
        this.setStatus(saidText(msg.message));
        break;
      case 'views':
        this.query.setViews(msg.views);
        break;
    }
  }

  private showReconciliation(view: ReconciliationView): void {
    const status = statusColumnOf(view);
    const byStatus = (s: string | undefined) => this.table?.setColumnFilters(s === undefined ? [] : [{ id: columnId(status), value: s }]);
    this.pinNext = this.banner.showReconciliation(view, byStatus);
    this.loadRows(saidText(view.title), view.columns, view.rows, { kind: 'inline' });
  }

  private showSubmission(view: SubmissionView): void {
    this.pinNext = this.banner.showSubmission(view);
    this.loadRows(saidText(said`${typed.text(view.title)}`), view.columns, view.rows, { kind: 'inline' });
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
    this.view.reset();
    this.firstRowsMarked = false;
    this.fit.forget();
    document.body.dataset.state = 'loading';
    this.data.reset(columns, rowMasker(columns));
    this.query.reset(columns, this.pendingView?.query);
    this.toolbar.showReconcile(this.banner.canReconcile(source.kind === 'inline' && source.details === true));
    const saved = this.pendingView;
    if (saved) this.toolbar.search.value = saved.search;
    const status = this.banner.statusColumn();
    ({
      table: this.table,
      grid: this.grid,
      unsubscribe: this.unsubscribe,
    } = setUpTable({
      host: this.gridHost,
      title,
      columns,
      saved,
      pins: this.pinNext,
      statusColumn: status,
      view: this.view,
      post: (msg) => this.post(msg),
      onChange: () => this.saveSoon(),
    }));
    this.pinNext = undefined;
  }

  private loadRows(title: string, columns: string[], rows: ReconciliationView['rows'], source: TableSource): void {
    this.setUp(title, columns, source);
    this.data.append(rows);
    this.data.finish();
    void this.finishLoad();
  }

  private startCsv(title: string, source: TableSource, delimiter?: string, totalBytes?: number, info?: ReportInfo): void {
    this.banner.showTable(title, info);
    this.title = title;
    this.setStatus('Loading…');
    performance.mark('paygate:csv-start');
    this.load.start(
      {
        onHeader: (columns) => this.setUp(title, columns, source),
        onPiece: (piece) => this.data.addPiece(piece),
        follow: () => {
          this.view.followRows();
          this.markFirstRows();
        },
        firstRowsShown: () => this.firstRowsMarked,
      },
      delimiter,
      totalBytes,
    );
  }

  private async endCsv(): Promise<void> {
    const errors = this.load.end();
    if (errors === undefined) return;
    this.data.finish();
    await this.finishLoad();
    if (errors > 0) this.setStatus(`Loaded with ${errors} malformed record(s); they are shown as parsed.`);
  }

  private async finishLoad(): Promise<void> {
    this.markFirstRows();
    // The first batch may have been a handful of rows: fit again unless the user has resized since.
    if (this.table && this.fit.untouched(this.table)) this.fit.fit(this.grid, this.table, this.data);
    await this.view.recompute(true);
    // How many chunks the parse worker read (the bench and the tests look).
    performance.mark('paygate:all-rows', { detail: { ...this.load.chunks } });
    await this.query.loaded();
    if (this.pendingView) this.grid?.restoreScroll(this.pendingView.scrollTop);
    this.pendingView = undefined;
    this.setStatus('');
    document.body.dataset.state = 'ready';
    this.saveSoon();
  }

  private markFirstRows(): void {
    if (!this.firstRowsMarked && this.data.rowCount > 0) {
      this.firstRowsMarked = true;
      if (!this.pendingView || Object.keys(this.pendingView.widths).length === 0) this.fit.fit(this.grid, this.table, this.data);
      else this.fit.forget();
      performance.mark('paygate:first-rows');
    }
  }

  private exportRows(format: ExportFormat): void {
    const request = this.view.exportRequest(format, this.title);
    if (request) this.post(request);
    this.setStatus(request ? 'Choose where to save the export…' : 'Export is available when the file has finished loading.');
  }

  private post(msg: PageToHost): void {
    this.vscode.postMessage(msg);
  }

  private save(): void {
    if (!this.table || !this.data.complete) return;
    this.vscode.setState(
      persistedState({
        title: this.title,
        source: this.source,
        submission: this.banner.submission,
        reconciliation: this.banner.reconciliation,
        info: this.banner.info,
        data: this.data,
        view: { ...viewStateOf(this.table, this.view.query(), this.grid?.scrollTop ?? 0), query: this.query.current },
      }),
    );
  }
}
