import * as vscode from 'vscode';
import { log } from '../log';
import { ResultsPanel, type PanelActions, type PanelContent } from './panel';
import { isPersistedState, VIEW_TYPE, type ReconciliationView, type SubmissionView } from '../../shared/resultsProtocol';
import { sanitiseSubmissionView } from './sanitise';

/** What the other faces may ask of the results panel. */
export interface ResultsPanelApi {
  showReport(
    r: { title: string; columns: string[]; rows: string[][] } | { title: string; csvText: string; delimiter?: string },
  ): Promise<void>;
  showSubmission(s: SubmissionView): Promise<void>;
  openCsvFile(uri: vscode.Uri): Promise<void>;
  /** Shows a reconciliation; the panel is returned so its closing can clear what goes with it. */
  showReconciliation(view: ReconciliationView, reveal: (key: string) => void): Promise<ResultsPanel>;
  /** What "Reconcile…" on a report's page does (the reconciliation feature sets it). */
  onReconcileRequest(handler: (report: PanelContent) => void): void;
}

export const OPEN_CSV_COMMAND = 'paygate.openCsvInTable';

export function tableTitle(uri: vscode.Uri): string {
  const name = uri.path.split('/').pop() || uri.toString();
  return `Table: ${name}`;
}

export function registerResultsPanel(context: vscode.ExtensionContext): ResultsPanelApi {
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

  const showIn = async (key: string, content: PanelContent): Promise<ResultsPanel> => {
    let panel = panels.get(key);
    if (!panel) {
      panel = ResultsPanel.create(extensionUri, 'view' in content ? content.view.title : content.title);
      panel.actions.reconcile = (report) => reconcileRequest?.(report);
      track(key, panel);
    }
    await panel.show(content);
    return panel;
  };

  const api: ResultsPanelApi = {
    showReport: async (r) => {
      await ('csvText' in r
        ? showIn(`report:${r.title}`, { kind: 'csvText', title: r.title, text: r.csvText, delimiter: r.delimiter })
        : showIn(`report:${r.title}`, { kind: 'rows', title: r.title, columns: r.columns, rows: r.rows }));
    },
    showSubmission: async (s) => {
      const view = sanitiseSubmissionView(s);
      await showIn(`submission:${view.title}`, { kind: 'submission', view });
    },
    openCsvFile: async (uri) => {
      await showIn(`file:${uri.toString()}`, { kind: 'file', title: tableTitle(uri), uri });
    },
    showReconciliation: async (view, reveal) => {
      const key = `reconciliation:${view.title}`;
      const existing = panels.get(key);
      if (existing) existing.actions.reveal = reveal;
      const panel = await showIn(key, { kind: 'reconciliation', view });
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
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        const panel = new ResultsPanel(webviewPanel, extensionUri);
        panel.actions.reconcile = (report) => reconcileRequest?.(report);
        if (isPersistedState(state)) {
          panel.restoreFrom(state.source, state.title);
          track(state.source.kind === 'file' ? `file:${state.source.uri}` : `restored:${state.title}`, panel);
        } else {
          log().info('Results panel: restored a panel without usable state');
        }
      },
    }),
    { dispose: () => panels.forEach((p) => p.panel.dispose()) },
  );
  return api;
}
