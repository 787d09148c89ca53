import * as vscode from 'vscode';

// Language detection while the text changes. The manifest's `firstLine` is read only when a document is
// opened, so a new file with the gateway's header typed or pasted in stayed Plain Text until reopened.
// Here a Plain Text or CSV document whose first line holds `client-orderid` and `rp_card_type` switches to
// paygate-recurring-csv as soon as that line appears (typing, paste, save): once per document, and never
// after the user picked a language for it by hand.

const TARGET = 'paygate-recurring-csv';
const FROM = new Set(['plaintext', 'csv']);
/** The manifest's firstLine pattern, so both ways of detection agree. */
export const HEADER = /^(?=.*client-orderid)(?=.*rp_card_type)/;
/** A language change is a close immediately followed by an open of the same document. */
const CHANGE_WINDOW_MS = 2000;

interface Seen {
  language: string;
  closedAt?: number;
}

export class LanguageDetection implements vscode.Disposable {
  private readonly seen = new Map<string, Seen>();
  /** Documents switched by this class (once each) or set by the user: never switched again. */
  private readonly settled = new Set<string>();
  private readonly ours = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.opened(d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        const s = this.seen.get(d.uri.toString());
        if (s) s.closedAt = Date.now();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // Only an edit that reaches the first line can change what it holds.
        if (e.contentChanges.some((c) => c.range.start.line === 0)) this.check(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => this.check(d)),
    );
    for (const d of vscode.workspace.textDocuments) this.opened(d);
  }

  private opened(d: vscode.TextDocument): void {
    const key = d.uri.toString();
    const before = this.seen.get(key);
    const changed = before !== undefined && before.language !== d.languageId && (before.closedAt === undefined || Date.now() - before.closedAt < CHANGE_WINDOW_MS);
    if (changed && !this.ours.delete(key)) this.settled.add(key); // the user chose this language
    this.seen.set(key, { language: d.languageId });
    this.check(d);
  }

  private check(d: vscode.TextDocument): void {
    const key = d.uri.toString();
    if (!FROM.has(d.languageId) || this.settled.has(key) || d.lineCount === 0) return;
    if (!HEADER.test(d.lineAt(0).text)) return;
    this.settled.add(key);
    this.ours.add(key);
    vscode.languages.setTextDocumentLanguage(d, TARGET).then(undefined, () => this.ours.delete(key));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export function registerDetection(context: vscode.ExtensionContext): void {
  context.subscriptions.push(new LanguageDetection());
}
