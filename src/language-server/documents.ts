import type { Connection, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { LineDocument } from './lineDocument';

export interface DocumentEvents {
  opened(document: TextDocument): void;
  /** After the changes are applied; `changes` are as the client sent them, for the incremental lint. */
  changed(document: TextDocument, changes: readonly TextDocumentContentChangeEvent[]): void;
  saved(document: TextDocument): void;
  closed(uri: string): void;
}

/**
 * The open documents, synced incrementally. Like vscode-languageserver's TextDocuments, but it hands on
 * each change's range, which the incremental lint needs to know which rows an edit touched, and holds
 * each text as a LineDocument, which does not build a million-row text again at every keystroke.
 */
export class Documents {
  private readonly documents = new Map<string, LineDocument>();

  get(uri: string): LineDocument | undefined {
    return this.documents.get(uri);
  }

  listen(connection: Connection, events: DocumentEvents): void {
    connection.onDidOpenTextDocument(({ textDocument: t }) => {
      const document = LineDocument.create(t.uri, t.languageId, t.version, t.text);
      this.documents.set(t.uri, document);
      events.opened(document);
    });
    connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
      const document = this.documents.get(textDocument.uri);
      if (!document || textDocument.version === null) return;
      document.update(contentChanges, textDocument.version);
      events.changed(document, contentChanges);
    });
    connection.onDidSaveTextDocument(({ textDocument }) => {
      const document = this.documents.get(textDocument.uri);
      if (document) events.saved(document);
    });
    connection.onDidCloseTextDocument(({ textDocument }) => {
      this.documents.delete(textDocument.uri);
      events.closed(textDocument.uri);
    });
  }
}
