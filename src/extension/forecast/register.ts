// "PayGate: Show Charge Forecast": the command (palette, editor title bar of a batch) and its CodeLens
// beside "Submit". Only this small file loads at activation; the panel and the core's forecast load on
// first use.
import * as vscode from 'vscode';
import { documentFor } from '../commandArgs';
import { LANGUAGE_ID } from '../../shared/lintProtocol';
import { headerLine } from '../submit/codeLens';
import type { ForecastPanel } from './panel';

export const SHOW_FORECAST_COMMAND = 'paygate.showForecast';

class ForecastCodeLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const header = headerLine(document);
    if (header === undefined) return [];
    return [
      new vscode.CodeLens(new vscode.Range(header, 0, header, 0), {
        title: '$(graph) Forecast',
        tooltip: "Show this batch's charges by day, week or month per currency",
        command: SHOW_FORECAST_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }
}

export function registerForecast(context: vscode.ExtensionContext): void {
  const panels = new Map<string, ForecastPanel>();
  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, new ForecastCodeLensProvider()),
    vscode.commands.registerCommand(SHOW_FORECAST_COMMAND, async (...args: unknown[]) => {
      const document = await documentFor(args);
      if (!document) {
        void vscode.window.showWarningMessage('PayGate: open a recurring-payments batch to see its charge forecast.');
        return;
      }
      const key = document.uri.toString();
      const open = panels.get(key);
      if (open) return open.reveal();
      const { ForecastPanel } = await import('./panel.js');
      const panel = ForecastPanel.open(document, context.extensionUri);
      panels.set(key, panel);
      // Closed panels leave the map; the ones still open go with the extension (the entry below).
      panel.panel.onDidDispose(() => panels.delete(key));
    }),
    { dispose: () => panels.forEach((p) => p.dispose()) },
  );
}
