import * as vscode from 'vscode';
import { Disposable } from './disposable';

// Documents the user reads but never edits or is asked to save (signature details, a history record):
// a TextDocumentContentProvider makes them read-only, and they vanish with the window.

export const SCHEME = 'paygate-gateway';

export class ReadOnlyDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
    this.register({ dispose: () => this.contents.clear() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  /** Opens (or refreshes) the document named `title` with `content`; the name's extension picks the language. */
  async show(title: string, content: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${title.replace(/[\\/]/g, '-')}` });
    this.contents.set(uri.path, content);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.getText() !== content) {
      // Already open with older content: the editor re-reads it after the change event.
      const refreshed = new Promise<void>((resolve) => {
        // A safety net only: the change event normally arrives at once.
        const timer = setTimeout(done, 5000);
        const sub = vscode.workspace.onDidChangeTextDocument((e) => {
          if (e.document.uri.toString() === uri.toString()) done();
        });
        function done(): void {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
      this.changed.fire(uri);
      await refreshed;
      doc = await vscode.workspace.openTextDocument(uri);
    }
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return uri;
  }
}
