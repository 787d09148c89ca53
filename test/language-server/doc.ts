// An open document on the client side of the stdio tests (stdio*.test.ts, code-action-race.test.ts): its
// text follows every change it sends to the server, and the client capabilities they initialise with.
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClientCapabilities, Diagnostic, MarkupContent, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LANGUAGE_ID, type Published, type TestClient } from './client';

export const CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { didSave: true },
    codeAction: {
      resolveSupport: { properties: ['edit'] },
      dataSupport: true,
      codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } },
    },
    completion: { completionItem: { insertReplaceSupport: true, labelDetailsSupport: true } },
    hover: { contentFormat: ['markdown', 'plaintext'] as MarkupContent['kind'][] },
  },
  workspace: {},
};

/** An open document on the client side: its text follows every change sent to the server. */
export class Doc {
  version = 1;
  private doc: TextDocument;
  constructor(
    private readonly client: TestClient,
    readonly uri: string,
    text: string,
    languageId = LANGUAGE_ID,
  ) {
    this.doc = TextDocument.create(uri, languageId, 1, text);
    void client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }
  get text(): string {
    return this.doc.getText();
  }
  /** Sends edits as incremental changes, last first, so each range is valid in the text it applies to. */
  async edit(edits: TextEdit[]): Promise<void> {
    const changes = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
    this.version++;
    this.doc = TextDocument.update(
      this.doc,
      changes.map((e) => ({ range: e.range, text: e.newText })),
      this.version,
    );
    await this.client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: this.uri, version: this.version },
      contentChanges: changes.map((e) => ({ range: e.range, text: e.newText })),
    });
  }
  async apply(edit: WorkspaceEdit | undefined): Promise<void> {
    const edits = edit?.changes?.[this.uri];
    assert.ok(edits && edits.length > 0, 'the action carries edits for this document');
    await this.edit(edits);
  }
  diagnostics(what: string, ok: (ds: Diagnostic[]) => boolean): Promise<Published> {
    return this.client.diagnostics(this.uri, what, (p) => p.version === this.version && ok(p.diagnostics));
  }
}
