import * as vscode from 'vscode';
import { createLog } from './log';
import { registerLinting } from './lint/register';
import { registerGateway } from './gateway/register';
import { registerResultsPanel } from '../webview/register';

// Wiring only: each face registers its own providers and commands, and every disposable they create
// goes into context.subscriptions inside their register functions.
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = createLog(context);
  log.info(`PayGate Toolkit ${context.extension.packageJSON.version} activating`);
  const results = registerResultsPanel(context);
  registerLinting(context);
  await registerGateway(context, { results });
  log.info('PayGate Toolkit active');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
