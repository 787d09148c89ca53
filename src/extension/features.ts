// The entry of dist/features.js: every feature behind a command, a tree view or a restored panel. The
// entry bundle (extension.ts) loads it on first use and hands over what it owns (the log, the status bar,
// the target's change event, the language client); nothing here creates a second one of those.
import type * as vscode from 'vscode';
import { registerCallbacks } from './callbacks/register';
import type { EntryState } from './entryState';
import { registerEnvironments } from './environments/register';
import { registerForecast } from './forecast/register';
import { registerLedger } from './ledger/register';
import type { FeatureHost } from './lazy';
import { useLog } from './log';
import { ReadOnlyDocuments } from './readOnlyDocs';
import { registerReconcile } from './reconcile/register';
import { registerReport } from './report/register';
import { registerResultsPanel } from './results/register';
import { registerSubmit } from './submit/register';

// Wiring only: each feature registers its own providers and commands, and every disposable they create
// goes into context.subscriptions inside their register functions.
export function activateFeatures(context: vscode.ExtensionContext, entry: EntryState, host: FeatureHost): void {
  useLog(entry.log);
  const docs = new ReadOnlyDocuments();
  context.subscriptions.push(docs);
  const results = registerResultsPanel(context, host);
  const environments = registerEnvironments(context, { docs, entry });
  const ledger = registerLedger(context, results, host);
  // submit's deps still call it `history` (branch outcomes rewrites that use case).
  registerSubmit(context, { environments, ledger, results, docs });
  registerReport(context, { environments, results });
  registerForecast(context, environments);
  registerCallbacks(context, { results, local: environments.target.local, client: entry.client(), host });
  registerReconcile(context, { ledger, results, localStateDir: environments.localStateDir });
  entry.log.info('PayGate Toolkit: features loaded');
}
