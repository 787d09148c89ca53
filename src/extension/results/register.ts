import * as vscode from 'vscode';
import { log } from '../log';
import { ResultsPanel, type PanelContent } from './panel';
import { Panels } from './panels';
import { isPersistedState, VIEW_TYPE, type ReconciliationView } from '../../shared/resultsProtocol';
import { type SubmissionView } from '../../shared/submissionView';
import { sanitiseSubmissionView } from './sanitise';
import { PdfPanel, type PdfContent } from './pdfPanel';
import { pdfTitle, readReportFile } from './reportFile';
import { isPdfPersistedState, PDF_VIEW_TYPE } from '../../shared/pdfProtocol';
import { viewsBeside } from './views';
import type { FeatureHost } from '../lazy';
import { ourWords, said, saidKey, typed, type Said } from '../../core/output';

/** What the other faces may ask of the results panel. */
export interface ResultsPanelApi {
  /** One record's properties as a property/value table (a callback): not a report, so nothing to reconcile. */
  showDetails(r: { title: Said; columns: string[]; rows: string[][] }): Promise<void>;
  /**
   * A CSV report the editor ran, streamed to the table from its file like a saved one; the panel is
   * returned so whoever owns the file can remove it once the panel no longer shows it.
   */
  showReportFile(r: Omit<Extract<PanelContent, { kind: 'file' }>, 'kind' | 'ran'>): Promise<ResultsPanel>;
  showSubmission(s: SubmissionView): Promise<void>;
  openCsvFile(uri: vscode.Uri): Promise<void>;
  /** A PDF report in the pane, drawn page by page; the bytes are kept as received for "Save PDF…". */
  showPdf(content: PdfContent): Promise<void>;
  /** A saved report, CSV (the table) or PDF (the PDF page), chosen by its name or its first bytes. */
  openReportFile(uri: vscode.Uri): Promise<void>;
  /** Shows a reconciliation; the panel is returned so its closing can clear what goes with it. */
  showReconciliation(view: ReconciliationView, reveal: (key: string) => void): Promise<ResultsPanel>;
  /** The CSV report shown last ("Run a report now" in the reconcile picker reconciles with it). */
  lastReport(): PanelContent | undefined;
  /** What "Reconcile…" on a report's page does (the reconciliation feature sets it). */
  onReconcileRequest(handler: (report: PanelContent) => void): void;
}

export const OPEN_CSV_COMMAND = 'paygate.openCsvInTable';
export const OPEN_REPORT_FILE_COMMAND = 'paygate.openReportFile';

export function tableTitle(uri: vscode.Uri): Said {
  const name = uri.path.split('/').pop() || uri.toString();
  return said`Table: ${typed.text(name)}`;
}

export function registerResultsPanel(context: vscode.ExtensionContext, host: FeatureHost): ResultsPanelApi {
  const panels = new Panels(context.extensionUri);
  const api = resultsApi(panels);
  context.subscriptions.push(panels);
  for (const command of openCommands(api)) context.subscriptions.push(command);
  // The serializers are registered at activation (extension.ts), so a restored panel finds them; they
  // hand the panel over to these.
  host.serializer(PDF_VIEW_TYPE, { deserializeWebviewPanel: (webviewPanel, state) => restorePdf(panels, webviewPanel, state) });
  host.serializer(VIEW_TYPE, { deserializeWebviewPanel: (webviewPanel, state) => restoreTable(panels, webviewPanel, state) });
  return api;
}

function resultsApi(panels: Panels): ResultsPanelApi {
  const showIn = async (key: string, content: PanelContent): Promise<void> => {
    await panels.openIn(key, content);
  };
  let lastReport: PanelContent | undefined;
  const api: ResultsPanelApi = {
    showDetails: (r) => showIn(`details:${saidKey(r.title)}`, { kind: 'rows', ...r, details: true }),
    showReportFile: async (r) => {
      const content: PanelContent = { kind: 'file', ...r, ran: true };
      lastReport = content;
      const panel = await panels.openIn(`report:${saidKey(r.title)}`, content);
      // A closed report's file is gone (its owner removes it): "Run a report now" must not offer it.
      panel.onDidDispose(() => {
        if (lastReport === content) lastReport = undefined;
      });
      return panel;
    },
    lastReport: () => lastReport,
    showSubmission: (s) => {
      const view = sanitiseSubmissionView(s);
      return showIn(`submission:${view.title}`, { kind: 'submission', view });
    },
    openCsvFile: async (uri) =>
      showIn(`file:${uri.toString()}`, { kind: 'file', title: tableTitle(uri), uri, views: await viewsBeside(uri) }),
    showPdf: (content) =>
      panels
        .pdfPanelFor(content.file ? `file:${content.file.toString()}` : `report:${saidKey(content.title)}`, content.title)
        .show(content),
    openReportFile: async (uri) => {
      const read = await readReportFile(uri);
      if (read.kind === 'csv')
        return showIn(`file:${uri.toString()}`, {
          kind: 'file',
          title: tableTitle(uri),
          uri,
          info: read.info,
          views: await viewsBeside(uri),
        });
      if (read.kind === 'pdf') return api.showPdf(read.content);
      log().warn(said`Open report file: ${read.message}`);
      return panels.pdfPanelFor(`file:${uri.toString()}`, read.title).fail(read.title, read.message);
    },
    showReconciliation: async (view, reveal) => {
      const key = `reconciliation:${saidKey(view.title)}`;
      const existing = panels.table(key);
      if (existing) existing.actions.reveal = reveal;
      const panel = await panels.openIn(key, { kind: 'reconciliation', view });
      panel.actions.reveal = reveal;
      return panel;
    },
    onReconcileRequest: (handler) => {
      panels.reconcileRequest = handler;
    },
  };
  return api;
}

/** Open CSV in PayGate Table and Open Report File…: the file given, the active editor's, or one the user picks. */
function openCommands(api: ResultsPanelApi): vscode.Disposable[] {
  const pick = async (filters: Record<string, string[]>, openLabel: string) =>
    (await vscode.window.showOpenDialog({ canSelectMany: false, filters, openLabel }))?.[0];
  return [
    vscode.commands.registerCommand(OPEN_CSV_COMMAND, async (uri?: vscode.Uri) => {
      const target =
        uri instanceof vscode.Uri
          ? uri
          : (vscode.window.activeTextEditor?.document.uri ?? (await pick({ 'CSV files': ['csv', 'rpcsv'] }, 'Open in PayGate Table')));
      if (target) await api.openCsvFile(target);
    }),
    vscode.commands.registerCommand(OPEN_REPORT_FILE_COMMAND, async (uri?: vscode.Uri) => {
      const target =
        uri instanceof vscode.Uri ? uri : await pick({ 'Reports (CSV, PDF)': ['csv', 'pdf'], 'All files': ['*'] }, 'Open Report');
      if (target) await api.openReportFile(target);
    }),
  ];
}

/** A PDF panel VS Code restored: its saved file read again; a report held in memory only is gone. */
async function restorePdf(panels: Panels, webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> {
  const panel = new PdfPanel(webviewPanel, panels.extensionUri);
  if (isPdfPersistedState(state) && state.file) {
    const uri = vscode.Uri.parse(state.file, true);
    panels.trackPdf(`file:${uri.toString()}`, panel);
    const read = await readReportFile(uri);
    if (read.kind === 'pdf') await panel.show(read.content);
    else await panel.fail(pdfTitle(uri.path.split('/').pop() ?? ''), read.kind === 'refused' ? read.message : ourWords('This is no PDF.'));
    return;
  }
  // The bytes of a report answer are not kept across a reload of the window.
  // The title the page laid out and kept: one value, read whole.
  const title = isPdfPersistedState(state) ? said`${typed.text(state.title)}` : ourWords('PDF report');
  panels.trackPdf(`restored:${saidKey(title)}`, panel);
  await panel.fail(
    title,
    ourWords(
      'This PDF report was held in memory only: run the report template again, or open a saved PDF with "PayGate: Open Report File…".',
    ),
  );
}

/** A table panel VS Code restored: a file's is read again, with the views saved beside it. */
async function restoreTable(panels: Panels, webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> {
  const panel = new ResultsPanel(webviewPanel, panels.extensionUri);
  if (!isPersistedState(state)) {
    log().info(said`Results panel: restored a panel without usable state`);
    return;
  }
  panel.restoreFrom(state.source, state.title);
  if (state.source.kind === 'file') await panel.addViews(await viewsBeside(vscode.Uri.parse(state.source.uri, true)));
  panels.track(state.source.kind === 'file' ? `file:${state.source.uri}` : `restored:${state.title}`, panel);
}
