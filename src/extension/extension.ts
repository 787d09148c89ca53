import type * as vscode from 'vscode';
import { registerEnvironments } from './environments/register';
import { registerForecast } from './forecast/register';
import { registerHistory } from './history/register';
import { registerLinting } from './lint/register';
import { registerPreviewToday } from './lint/previewToday';
import { createLog } from './log';
import { ReadOnlyDocuments } from './readOnlyDocs';
import { registerReconcile } from './reconcile/register';
import { registerReport } from './report/register';
import { registerResultsPanel } from './results/register';
import { registerSubmit } from './submit/register';
import { registerCallbacks } from './callbacks/register';

// Wiring only: each feature registers its own providers and commands, and every disposable they create
// goes into context.subscriptions inside their register functions.
export function activate(context: vscode.ExtensionContext): void {
  const log = createLog(context);
  log.info(`PayGate Toolkit ${context.extension.packageJSON.version} activating`);
  const docs = new ReadOnlyDocuments();
  context.subscriptions.push(docs);
  const results = registerResultsPanel(context);
  const client = registerLinting(context);
  const environments = registerEnvironments(context, docs);
  registerPreviewToday(context, client, environments);
  const history = registerHistory(context, results);
  registerSubmit(context, { environments, history, results, docs });
  registerReport(context, { environments, results });
  registerForecast(context);
  registerCallbacks(context, { results, local: environments.target.local, client });
  registerReconcile(context, { history, results });
  log.info('PayGate Toolkit active');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
