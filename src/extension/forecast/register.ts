// "PayGate: Show Charge Forecast": the command (palette, editor title bar of a batch, the CodeLens that
// codeLens.ts registers at activation). It loads with the features; the panel and the core's forecast
// load on first use.
import * as vscode from 'vscode';
import { documentFor } from '../commandArgs';
import { SHOW_FORECAST_COMMAND } from './codeLens';
import type { ForecastPanel } from './panel';
import { showWarning } from '../say';

export function registerForecast(context: vscode.ExtensionContext): void {
  const panels = new Map<string, ForecastPanel>();
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_FORECAST_COMMAND, async (...args: unknown[]) => {
      const document = await documentFor(args);
      if (!document) {
        void showWarning('PayGate: open a recurring-payments batch to see its charge forecast.');
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
