import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { LANGUAGE_ID } from '../../shared/lintProtocol';
import { DetectionState } from './detectState';

// Language detection while the text changes. The manifest's `firstLine` is read only when a document is
// opened, so a new file with the gateway's header typed or pasted in stayed Plain Text until reopened.
// Here a Plain Text or CSV document whose first line holds `client-orderid` and `rp_card_type` switches to
// paygate-recurring-csv as soon as that line appears (typing, paste, save): once per document, and never
// after the user picked a language for it by hand (see detectState.ts for how that is told).

export class LanguageDetection extends Disposable {
  private readonly state = new DetectionState();

  constructor() {
    super();
    this.register(
      vscode.Disposable.from(
        vscode.workspace.onDidOpenTextDocument((d) => {
          this.state.prune();
          this.state.opened(d.uri.toString(), d.languageId, d.getText());
          this.check(d);
        }),
        vscode.workspace.onDidCloseTextDocument((d) => this.state.closed(d.uri.toString(), d.getText())),
        vscode.workspace.onDidChangeTextDocument((e) => {
          // Only an edit that reaches the first line can change what it holds.
          if (e.contentChanges.some((c) => c.range.start.line === 0)) this.check(e.document);
        }),
        vscode.workspace.onDidSaveTextDocument((d) => this.check(d)),
      ),
    );
    for (const d of vscode.workspace.textDocuments) {
      this.state.opened(d.uri.toString(), d.languageId, d.getText());
      this.check(d);
    }
  }

  private check(d: vscode.TextDocument): void {
    if (d.isClosed || d.lineCount === 0) return;
    const key = d.uri.toString();
    if (!this.state.shouldSwitch(key, d.languageId, d.lineAt(0).text)) return;
    vscode.languages.setTextDocumentLanguage(d, LANGUAGE_ID).then(undefined, () => this.state.switchFailed(key));
  }
}

export function registerDetection(context: vscode.ExtensionContext): void {
  context.subscriptions.push(new LanguageDetection());
}
