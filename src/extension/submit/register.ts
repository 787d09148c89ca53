import * as vscode from 'vscode';
import type { EnvironmentsApi } from '../environments/register';
import type { EditorLedger } from '../ledger/editorLedger';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import type { ResultsPanelApi } from '../results/register';
import { approveCommand } from './approve';
import { showSignatureDetailsCommand } from './signatureDetails';
import { submitCommand } from './submit';

// Submitting a batch: the command and the signature details of a request. Its CodeLens is on the first
// screen, so it is registered at activation (codeLens.ts, registerSubmitLens).
export interface SubmitFeatureDeps {
  environments: EnvironmentsApi;
  ledger: EditorLedger;
  results: ResultsPanelApi;
  docs: ReadOnlyDocuments;
}

export function registerSubmit(context: vscode.ExtensionContext, deps: SubmitFeatureDeps): void {
  const subs = context.subscriptions;
  const target = deps.environments.target;
  /* eslint-disable no-restricted-syntax -- bounded: a command's arguments forwarded as they came */
  subs.push(
    vscode.commands.registerCommand('paygate.submit', (...args: unknown[]) =>
      submitCommand({ ...target, ledger: deps.ledger, results: deps.results }, ...args),
    ),
    vscode.commands.registerCommand('paygate.approve', (...args: unknown[]) => approveCommand(deps.ledger, ...args)),
    vscode.commands.registerCommand('paygate.showSignatureDetails', (...args: unknown[]) =>
      showSignatureDetailsCommand({ ...target, docs: deps.docs }, ...args),
    ),
  );
  /* eslint-enable no-restricted-syntax */
}
