// "PayGate: Show Charge Forecast": the command (palette, editor title bar of a batch, the CodeLens that
// codeLens.ts registers at activation). It loads with the features; the panel and the core's forecast
// load on first use.
import * as vscode from 'vscode';
import { documentFor } from '../diskDocument';
import { SHOW_FORECAST_COMMAND } from './codeLens';
import { gatewayToday } from '../environments/gatewayToday';
import type { ForecastPanel } from './panel';
import { showWarning } from '../say';
import { said } from '../../core/output';

/**
 * `localStateDir`: where the local gateway keeps its clock; a batch charges from the gateway's today (the
 * local gateway's simulated date with `local` active), which `onDidChangeTarget` says may have moved.
 */
export function registerForecast(
  context: vscode.ExtensionContext,
  environments: { localStateDir: () => string; onDidChangeTarget: vscode.Event<void> },
): void {
  const gateway = { today: () => gatewayToday(environments.localStateDir).today, onDidChangeToday: environments.onDidChangeTarget };
  const panels = new Map<string, ForecastPanel>();
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_FORECAST_COMMAND, async (...args: unknown[]) => {
      const document = await documentFor(args);
      if (!document) {
        void showWarning(said`PayGate: open a recurring-payments batch to see its charge forecast.`);
        return;
      }
      const key = document.uri.toString();
      const open = panels.get(key);
      if (open) return open.reveal();
      const { ForecastPanel } = await import('./panel.js');
      const panel = ForecastPanel.open(document, context.extensionUri, gateway);
      panels.set(key, panel);
      // Closed panels leave the map; the ones still open go with the extension (the entry below).
      panel.panel.onDidDispose(() => panels.delete(key));
    }),
    { dispose: () => panels.forEach((p) => p.dispose()) },
  );
}
