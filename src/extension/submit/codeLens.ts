import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import { LANGUAGE_ID } from '../../shared/lintProtocol';

// "Submit to ‹env›" above the header line of a recurring-payments file, naming the environment the
// click will send to, so the target is visible before anything leaves.

export class SubmitCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const header = headerLine(document);
    if (header === undefined) return [];
    const range = new vscode.Range(header, 0, header, 0);
    const env = activeEnvironmentName();
    const lenses: vscode.CodeLens[] = [];
    // An untrusted workspace cannot submit (the command refuses), so it is not offered there.
    if (vscode.workspace.isTrusted) {
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(cloud-upload) Submit to ${env}${isProduction(env) ? ' (production)' : ''}`,
          tooltip: `Lint, sign and send this file to the "${env}" environment`,
          command: 'paygate.submit',
          arguments: [document.uri],
        }),
      );
    }
    lenses.push(
      new vscode.CodeLens(range, {
        title: 'Signature details',
        tooltip: 'Show the OAuth base string, signature and Authorization header (no secret)',
        command: 'paygate.showSignatureDetails',
        arguments: [document.uri],
      }),
    );
    return lenses;
  }
}

/** Registered at activation: the lens names the target, so it follows what decides the target. */
export function registerSubmitLens(context: vscode.ExtensionContext, onDidChangeTarget: vscode.Event<void>): void {
  const lenses = new SubmitCodeLensProvider();
  context.subscriptions.push(
    lenses,
    onDidChangeTarget(() => lenses.refresh()),
    vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, lenses),
  );
}

/** The header is the first record; blank lines before it carry nothing. */
export function headerLine(document: vscode.TextDocument): number | undefined {
  const limit = Math.min(document.lineCount, 50);
  for (let i = 0; i < limit; i++) {
    if (
      document
        .lineAt(i)
        .text.replace(/^\uFEFF/, '')
        .trim() !== ''
    )
      return i;
  }
  return undefined;
}
