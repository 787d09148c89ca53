import * as vscode from 'vscode';
import { registerCodeActions } from './codeActions';
import { registerCompletion } from './completion';
import { registerDetection } from './detect';
import { registerDiagnostics } from './diagnostics';
import { registerHover } from './hover';
import { LintStore } from './store';

// Diagnostics, code actions, hover and completion for paygate-recurring-csv, all reading one lint per
// document version from the shared store.
export function registerLinting(context: vscode.ExtensionContext): void {
  const store = new LintStore();
  context.subscriptions.push({ dispose: () => store.clear() });
  registerDiagnostics(context, store);
  registerCodeActions(context, store);
  registerHover(context, store);
  registerCompletion(context, store);
  registerDetection(context);
}
