import * as vscode from 'vscode';
import type { EnvironmentsApi } from '../environments/register';
import type { SubmissionHistory } from '../history/history';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import type { ResultsPanelApi } from '../results/register';
import { LANGUAGE_ID } from '../../shared/lintProtocol';
import { SubmitCodeLensProvider } from './codeLens';
import { showSignatureDetailsCommand } from './signatureDetails';
import { submitCommand } from './submit';

// Submitting a batch: the command, its CodeLens and the signature details of a request.
export interface SubmitFeatureDeps {
  environments: EnvironmentsApi;
  history: SubmissionHistory;
  results: ResultsPanelApi;
  docs: ReadOnlyDocuments;
}

export function registerSubmit(context: vscode.ExtensionContext, deps: SubmitFeatureDeps): void {
  const subs = context.subscriptions;
  const lenses = new SubmitCodeLensProvider();
  subs.push(
    lenses,
    deps.environments.onDidChangeTarget(() => lenses.refresh()),
  );
  subs.push(vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, lenses));
  const target = deps.environments.target;
  subs.push(
    vscode.commands.registerCommand('paygate.submit', (...args: unknown[]) =>
      submitCommand({ ...target, history: deps.history, results: deps.results }, ...args),
    ),
    vscode.commands.registerCommand('paygate.showSignatureDetails', (...args: unknown[]) =>
      showSignatureDetailsCommand({ ...target, docs: deps.docs }, ...args),
    ),
  );
}
