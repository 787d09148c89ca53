import * as vscode from 'vscode';
import { log } from '../log';
import { ResultsPanel, type PanelActions, type PanelContent } from './panel';
import { isPersistedState, VIEW_TYPE, type ReconciliationView, type SubmissionView } from '../../shared/resultsProtocol';
import { sanitiseSubmissionView } from './sanitise';
import { PdfPanel, type PdfContent } from './pdfPanel';
import { pdfTitle, readReportFile } from './reportFile';
import { isPdfPersistedState, PDF_VIEW_TYPE } from '../../shared/pdfProtocol';
import type { ReportInfo } from '../../shared/reportInfo';
import type { SavedView } from '../../shared/resultsProtocol';
import { viewsBeside } from './views';
import type { FeatureHost } from '../lazy';

/** What the other faces may ask of the results panel. */
export interface ResultsPanelApi {
  /** One record's properties as a property/value table (a callback): not a report, so nothing to reconcile. */
  showDetails(r: { title: string; columns: string[]; rows: string[][] }): Promise<void>;
  /**
   * A CSV report the editor ran, streamed to the table from its file like a saved one; the panel is
   * returned so whoever owns the file can remove it once the panel no longer shows it.
   */
  showReportFile(r: {
    title: string;
    uri: vscode.Uri;
    info?: ReportInfo;
    views?: SavedView[];
    delimiter?: string;
    encoding?: string;
  }): Promise<ResultsPanel>;
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

export function tableTitle(uri: vscode.Uri): string {
  const name = uri.path.split('/').pop() || uri.toString();
  return `Table: ${name}`;
}

export function registerResultsPanel(context: vscode.ExtensionContext, host: FeatureHost): ResultsPanelApi {
  const extensionUri = context.extensionUri;
  // One panel per thing shown: opening the same file or re-running the same report reuses its panel.
  const panels = new Map<string, ResultsPanel>();
  let reconcileRequest: PanelActions['reconcile'];

  const track = (key: string, panel: ResultsPanel) => {
    panels.set(key, panel);
    panel.onDidDispose(() => {
      if (panels.get(key) === panel) panels.delete(key);
    });
  };

  const openIn = async (key: string, content: PanelContent): Promise<ResultsPanel> => {
    let panel = panels.get(key);
    if (!panel) {
      panel = ResultsPanel.create(extensionUri, 'view' in content ? content.view.title : content.title);
      panel.actions.reconcile = (report) => reconcileRequest?.(report);
      track(key, panel);
    }
    await panel.show(content);
    return panel;
  };
  const showIn = async (key: string, content: PanelContent): Promise<void> => {
    await openIn(key, content);
  };

  const pdfPanels = new Map<string, PdfPanel>();
  const trackPdf = (key: string, panel: PdfPanel) => {
    pdfPanels.set(key, panel);
    panel.onDidDispose(() => {
      if (pdfPanels.get(key) === panel) pdfPanels.delete(key);
    });
  };
  const pdfPanelFor = (key: string, title: string): PdfPanel => {
    let panel = pdfPanels.get(key);
    if (!panel) {
      panel = PdfPanel.create(extensionUri, title);
      trackPdf(key, panel);
    }
    return panel;
  };

  let lastReport: PanelContent | undefined;
  const api: ResultsPanelApi = {
    showDetails: (r) => showIn(`details:${r.title}`, { kind: 'rows', ...r, details: true }),
    showReportFile: async (r) => {
      const content: PanelContent = { kind: 'file', ...r, ran: true };
      lastReport = content;
      const panel = await openIn(`report:${r.title}`, content);
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
      pdfPanelFor(content.file ? `file:${content.file.toString()}` : `report:${content.title}`, content.title).show(content),
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
      log().warn(`Open report file: ${read.message}`);
      return pdfPanelFor(`file:${uri.toString()}`, read.title).fail(read.title, read.message);
    },
    showReconciliation: async (view, reveal) => {
      const key = `reconciliation:${view.title}`;
      const existing = panels.get(key);
      if (existing) existing.actions.reveal = reveal;
      const panel = await openIn(key, { kind: 'reconciliation', view });
      panel.actions.reveal = reveal;
      return panel;
    },
    onReconcileRequest: (handler) => {
      reconcileRequest = handler;
    },
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_CSV_COMMAND, async (uri?: vscode.Uri) => {
      const target =
        uri instanceof vscode.Uri
          ? uri
          : (vscode.window.activeTextEditor?.document.uri ??
            (
              await vscode.window.showOpenDialog({
                canSelectMany: false,
                filters: { 'CSV files': ['csv', 'rpcsv'] },
                openLabel: 'Open in PayGate Table',
              })
            )?.[0]);
      if (!target) return;
      await api.openCsvFile(target);
    }),
    vscode.commands.registerCommand(OPEN_REPORT_FILE_COMMAND, async (uri?: vscode.Uri) => {
      const target =
        uri instanceof vscode.Uri
          ? uri
          : (
              await vscode.window.showOpenDialog({
                canSelectMany: false,
                filters: { 'Reports (CSV, PDF)': ['csv', 'pdf'], 'All files': ['*'] },
                openLabel: 'Open Report',
              })
            )?.[0];
      if (!target) return;
      await api.openReportFile(target);
    }),
    { dispose: () => panels.forEach((p) => p.panel.dispose()) },
    { dispose: () => pdfPanels.forEach((p) => p.panel.dispose()) },
  );
  // The serializers are registered at activation (extension.ts), so a restored panel finds them; they
  // hand the panel over to these.
  host.serializer(PDF_VIEW_TYPE, {
    async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
      const panel = new PdfPanel(webviewPanel, extensionUri);
      if (isPdfPersistedState(state) && state.file) {
        const uri = vscode.Uri.parse(state.file, true);
        trackPdf(`file:${uri.toString()}`, panel);
        const read = await readReportFile(uri);
        if (read.kind === 'pdf') await panel.show(read.content);
        else await panel.fail(pdfTitle(uri.path.split('/').pop() ?? ''), read.kind === 'refused' ? read.message : 'This is no PDF.');
      } else {
        // The bytes of a report answer are not kept across a reload of the window.
        const title = isPdfPersistedState(state) ? state.title : 'PDF report';
        trackPdf(`restored:${title}`, panel);
        await panel.fail(
          title,
          'This PDF report was held in memory only: run the report template again, or open a saved PDF with "PayGate: Open Report File…".',
        );
      }
    },
  });
  host.serializer(VIEW_TYPE, {
    async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
      const panel = new ResultsPanel(webviewPanel, extensionUri);
      panel.actions.reconcile = (report) => reconcileRequest?.(report);
      if (isPersistedState(state)) {
        panel.restoreFrom(state.source, state.title);
        if (state.source.kind === 'file') await panel.addViews(await viewsBeside(vscode.Uri.parse(state.source.uri, true)));
        track(state.source.kind === 'file' ? `file:${state.source.uri}` : `restored:${state.title}`, panel);
      } else {
        log().info('Results panel: restored a panel without usable state');
      }
    },
  });
  return api;
}
