// One results panel: its HTML shell, the ready handshake, and what it currently shows. The host keeps
// the content it was given while the panel lives, so a page reloaded by VS Code (hidden and shown again:
// no retainContextWhenHidden) gets it again instead of the host holding a whole hidden DOM alive.
import * as vscode from 'vscode';
import { exportNeutralisesFormulas } from '../exportSetting';
import { shown, showInfo } from '../say';
import { ourWords, safeText, said, typed, type Said } from '../../core/output';
import { log } from '../log';
import { serialiseExport } from './exportRows';
import { dataUrlBytes, exportWords, saveAs } from './saveAs';
import { PanelPage, webviewOptions } from './webviewPage';
import {
  isPageToHost,
  VIEW_TYPE,
  type HostToPage,
  type PageToHost,
  type ReconciliationView,
  type SavedView,
  type TableSource,
} from '../../shared/resultsProtocol';
import { type SubmissionView } from '../../shared/submissionView';
import type { ReportInfo } from '../../shared/reportInfo';
import { streamUriBytes } from './stream';
import { tableDirectives } from './html';
import { errorMessage } from '../../core/errorMessage';

export type PanelContent =
  | { kind: 'rows'; title: Said; columns: string[]; rows: string[][]; info?: ReportInfo; views?: SavedView[]; details?: true }
  /**
   * A CSV file. A report the editor ran (`ran`) says its template's delimiter and encoding; its file is the
   * editor's own, never opened as text (it holds the answer as received, not masked).
   */
  | {
      kind: 'file';
      title: Said;
      uri: vscode.Uri;
      info?: ReportInfo;
      views?: SavedView[];
      delimiter?: string;
      encoding?: string;
      ran?: true;
    }
  | { kind: 'submission'; view: SubmissionView }
  | { kind: 'reconciliation'; view: ReconciliationView };

/** What a panel is titled by: a submission's title is one value (its view's words), the others are our words and values. */
export function contentTitle(content: PanelContent): Said {
  if (content.kind === 'submission') return said`${typed.text(content.view.title)}`;
  return content.kind === 'reconciliation' ? content.view.title : content.title;
}

/** What the page may ask of the host beyond the table itself (set by the reconciliation feature). */
export interface PanelActions {
  /** "Reconcile…" on a report's page: the report is the content shown. */
  reconcile?(report: PanelContent): void;
  /** A reconciliation row's batch line and report lines. */
  reveal?(key: string): void;
}

export class ResultsPanel extends PanelPage {
  private content: PanelContent | undefined;
  private readyOnce: Promise<void>;
  private markReady: () => void = () => undefined;
  /** The content a live page has been sent in full; a reloaded page restores only that one itself. */
  private delivered: PanelContent | undefined;
  private sendGeneration = 0;
  actions: PanelActions = {};

  constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri) {
    super(panel, extensionUri, { name: 'webview-ui', extraDirectives: tableDirectives() });
    this.readyOnce = new Promise((resolve) => (this.markReady = resolve));
  }

  static create(extensionUri: vscode.Uri, title: Said): ResultsPanel {
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      shown(title),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(extensionUri),
    );
    return new ResultsPanel(panel, extensionUri);
  }

  /**
   * What a reloaded window's serializer knows: the page restores inline data itself, files are re-read. The
   * title is the one the page laid out and kept: one value, read whole.
   */
  restoreFrom(source: TableSource, title: string): void {
    if (source.kind === 'file') this.content = { kind: 'file', title: said`${typed.text(title)}`, uri: vscode.Uri.parse(source.uri, true) };
  }

  /** Views found after the content was set (a restored panel's file): kept, and sent to a live page. */
  async addViews(views: SavedView[]): Promise<void> {
    const content = this.content;
    if (!content || content.kind !== 'file' || views.length === 0) return;
    content.views = views;
    if (this.isReady) await this.post({ type: 'views', views });
  }

  async show(content: PanelContent): Promise<void> {
    this.content = content;
    this.panel.title = shown(contentTitle(content));
    this.panel.reveal(undefined, false);
    if (this.isReady) await this.send(content);
    else await this.readyOnce; // the ready handler sends it
  }

  protected async onMessage(raw: unknown): Promise<void> {
    if (!isPageToHost(raw)) {
      log().warn(said`Results panel: ignored a message that does not match the protocol`);
      return;
    }
    const msg: PageToHost = raw;
    switch (msg.type) {
      case 'ready': {
        this.isReady = true;
        // A page that restored itself from its own state needs nothing more, unless that state is of
        // older content or the content is a file (only its name is kept in state).
        const content = this.content;
        if (content && (content !== this.delivered || !msg.restored || content.kind === 'file')) await this.send(content);
        this.markReady();
        break;
      }
      case 'copy':
        // Masked on the page already; the host holds to the boundary too (a copy leaves the product).
        await vscode.env.clipboard.writeText(safeText(msg.text));
        vscode.window.setStatusBarMessage(`PayGate: ${msg.what === 'rows' ? 'rows' : msg.what} copied`, 2000);
        break;
      case 'export':
        await this.export(msg);
        break;
      case 'exportImage':
        await this.exportImage(msg);
        break;
      case 'log':
        log()[msg.level](said`Results page: ${typed.text(msg.message)}`);
        break;
      case 'reconcile':
        if (this.content && this.content.kind !== 'submission' && this.content.kind !== 'reconciliation')
          this.actions.reconcile?.(this.content);
        break;
      case 'reveal':
        this.actions.reveal?.(msg.key);
        break;
    }
  }

  private post(msg: HostToPage): Thenable<boolean> {
    return this.panel.webview.postMessage(msg);
  }

  private async send(content: PanelContent): Promise<void> {
    const generation = ++this.sendGeneration;
    const stale = () => generation !== this.sendGeneration;
    // postMessage answers false when no live page received it (hidden meanwhile): not delivered then.
    let ok = true;
    const post = async (msg: HostToPage) => {
      ok = (await this.post(msg)) && ok;
    };
    switch (content.kind) {
      case 'rows':
        await post({
          type: 'table',
          title: content.title,
          columns: content.columns,
          rows: content.rows,
          source: content.details ? { kind: 'inline', details: true } : { kind: 'inline' },
          info: content.info,
        });
        break;
      case 'submission':
        await post({ type: 'submission', view: content.view });
        break;
      case 'reconciliation':
        await post({ type: 'reconciliation', view: content.view });
        break;
      case 'file': {
        const size = await Promise.resolve(vscode.workspace.fs.stat(content.uri)).then(
          (st) => st.size,
          () => undefined,
        );
        await post({
          type: 'csvStart',
          title: content.title,
          delimiter: content.delimiter,
          totalBytes: size,
          // A report the editor ran is restored as one held in memory: its file goes with the window.
          source: content.ran ? { kind: 'inline' } : { kind: 'file', uri: content.uri.toString() },
          info: content.info,
        });
        try {
          for await (const bytes of streamUriBytes(content.uri, content.encoding)) {
            if (stale()) return;
            await post({ type: 'csvChunk', bytes });
          }
          await post({ type: 'csvEnd' });
        } catch (err) {
          const message = errorMessage(err);
          log().error(said`Results panel: reading ${typed.text(content.uri.toString())} failed: ${typed.text(message)}`);
          await post({ type: 'csvFailed', message: said`${typed.text(message)}` });
        }
        break;
      }
    }
    if ('views' in content && content.views && content.views.length > 0 && !stale()) await post({ type: 'views', views: content.views });
    if (ok && !stale()) this.delivered = content;
  }

  /** The grouped summary's chart, as the page drew it, to a PNG file the user picks. */
  private async exportImage(msg: Extract<PageToHost, { type: 'exportImage' }>): Promise<void> {
    await saveAs({
      suggestedName: msg.suggestedName,
      filters: { PNG: ['png'] },
      saveLabel: 'Export PNG',
      bytes: () => dataUrlBytes(msg.dataUrl),
      tell: this.exportDone,
      words: exportWords((file) => said`Exported the chart to ${typed.text(file)}.`),
      logAs: 'Results panel: export',
      // Said where it shows whatever the page shows (its status line sits above a summary scrolled away).
      afterSave: (target) => void showInfo(said`PayGate: exported the chart to ${typed.text(target.fsPath)}.`),
    });
  }

  private async export(msg: Extract<PageToHost, { type: 'export' }>): Promise<void> {
    const rows = msg.rows.length.toLocaleString('en-US');
    // On unless the user turned it off by name (docs/results-table.md, "Export").
    const neutraliseFormulas = exportNeutralisesFormulas();
    const note = ourWords(msg.format === 'csv' && !neutraliseFormulas ? ' (formulas kept: paygate.export.neutraliseFormulas is off)' : '');
    await saveAs({
      suggestedName: msg.suggestedName,
      filters: msg.format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      saveLabel: `Export ${rows} rows`,
      bytes: () => new TextEncoder().encode(serialiseExport(msg.format, msg.columns, msg.rows, { neutraliseFormulas })),
      tell: this.exportDone,
      words: exportWords((file) => said`Exported ${typed.count(rows)} rows to ${typed.text(file)}${note}.`),
      logAs: 'Results panel: export',
      afterSave: (target) => void showInfo(said`PayGate: exported ${typed.count(rows)} rows to ${typed.text(target.fsPath)}${note}.`),
    });
  }

  private readonly exportDone = (ok: boolean, message: Said) => this.post({ type: 'exportDone', ok, message });

  override dispose(): void {
    this.sendGeneration++;
    this.markReady(); // a caller still waiting for the handshake of a closed panel is released
    this.content = undefined;
    super.dispose();
  }
}
