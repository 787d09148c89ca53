import * as vscode from 'vscode';
import { log } from '../log';
import { ResultsPanel, type PanelContent } from './panel';
import { isPersistedState, VIEW_TYPE, type SubmissionView } from '../../shared/resultsProtocol';
import { sanitiseSubmissionView } from './sanitise';

/** What the other faces may ask of the results panel. */
export interface ResultsPanelApi {
  showReport(
    r: { title: string; columns: string[]; rows: string[][] } | { title: string; csvText: string; delimiter?: string },
  ): Promise<void>;
  showSubmission(s: SubmissionView): Promise<void>;
  openCsvFile(uri: vscode.Uri): Promise<void>;
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

  const track = (key: string, panel: ResultsPanel) => {
    panels.set(key, panel);
    panel.onDidDispose(() => {
      if (panels.get(key) === panel) panels.delete(key);
    });
  };

  const showIn = async (key: string, content: PanelContent): Promise<void> => {
    let panel = panels.get(key);
    if (!panel) {
      panel = ResultsPanel.create(extensionUri, content.kind === 'submission' ? content.view.title : content.title);
      track(key, panel);
    }
    await panel.show(content);
  };

  const api: ResultsPanelApi = {
    showReport: (r) =>
      'csvText' in r
        ? showIn(`report:${r.title}`, { kind: 'csvText', title: r.title, text: r.csvText, delimiter: r.delimiter })
        : showIn(`report:${r.title}`, { kind: 'rows', title: r.title, columns: r.columns, rows: r.rows }),
    showSubmission: (s) => {
      const view = sanitiseSubmissionView(s);
      return showIn(`submission:${view.title}`, { kind: 'submission', view });
    },
    openCsvFile: (uri) => showIn(`file:${uri.toString()}`, { kind: 'file', title: tableTitle(uri), uri }),
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
