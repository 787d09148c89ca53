// already-sent and cvv-after-send from the language server, as an editor sees them over stdio: the ledger
// and target given at initialize (as the VS Code client's notification gives them), the error on each
// client-orderid cell of a row already sent, the warning on each CVV of an accepted batch with the fix
// that empties them, the fix that moves the sent rows to a new file, a row typed with a sent id found a
// moment later, and another target clearing them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CodeAction, Diagnostic, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { prepareSubmission } from '../../src/core/gateway';
import { guardedSend, Ledger } from '../../src/core/ledger';
import { LEDGER_TARGET_NOTIFICATION } from '../../src/shared/lintProtocol';
import { newSubmission } from '../fixtures/ledger/entry';
import { CLI, LANGUAGE_ID, messageText, ROOT, TestClient } from './client';

const valid = readFileSync(path.join(ROOT, 'examples', 'valid.rpcsv'), 'utf8');
const sentText = valid.replace(/[A-Z]{3}-2027-/g, 'LS-');

describe('the ledger in the language server', () => {
  let client: TestClient;
  let dir: string;
  let version = 1;
  const target = () => ({ directory: dir, environment: 'local', endpointId: '1001' });

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    dir = mkdtempSync(path.join(tmpdir(), 'paygate-lsp-sent-'));
    const prepared = prepareSubmission(sentText);
    const r = await guardedSend({
      ledger: new Ledger(dir),
      entry: newSubmission({ contentHash: prepared.contentHash, rowCount: prepared.rowCount }),
      batch: prepared.lint.batch,
      send: async () => 'sent',
      completion: () => ({ outcome: 'accepted', serialNumbers: ['s-42'] }),
    });
    assert.equal(r.status, 'sent');
    client = new TestClient();
    await client.initialize(
      {
        textDocument: {
          synchronization: { didSave: true },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
        },
        workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
      },
      { paygate: { ledger: target() } },
    );
  });

  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (name: string, text: string) => {
    const uri = `file:///nowhere/${name}`;
    void client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text } });
    return uri;
  };
  const withCode = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code);
  const actions = (uri: string, diagnostics: Diagnostic[]) =>
    client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics, only: ['quickfix'] },
    }) as Promise<CodeAction[]>;

  it('puts already-sent on the client-orderid cell of every row of a reordered resend, naming date, serial-number and outcome', async () => {
    const rows = sentText.split(/(?<=\r\n)(?=LS-)/);
    const text = [rows[0], ...rows.slice(1).reverse()].join('');
    const uri = open('reordered.rpcsv', text);
    const { diagnostics } = await client.diagnostics(uri, 'four already-sent', (p) => withCode(p.diagnostics, 'already-sent').length === 4);
    const sent = withCode(diagnostics, 'already-sent');
    for (const d of sent) {
      assert.equal(d.severity, 1, 'an error');
      assert.equal(d.range.start.character, 0);
      assert.match(
        messageText(d),
        /^client-orderid "LS-000\d" was already sent on \d{4}-\d\d-\d\d \d\d:\d\d UTC to local, endpoint 1001 \(serial-number s-42, accepted\)/,
      );
    }
    assert.equal(withCode(diagnostics, 'cvv-after-send').length, 0, 'another content: not the accepted one');
    const [move] = (await actions(uri, sent)).filter((a) => a.title.startsWith('Move the 4 already-sent rows'));
    assert.ok(move, 'the move fix is offered');
    const changes = (move.edit as WorkspaceEdit).documentChanges as {
      kind?: string;
      uri?: string;
      textDocument?: { uri: string };
      edits?: { newText: string }[];
    }[];
    assert.equal(changes[0].kind, 'create');
    assert.equal(changes[0].uri, 'file:///nowhere/reordered.already-sent.rpcsv');
    assert.equal(changes[1].edits![0].newText.split('\r\n')[0], valid.split('\r\n')[0], 'the new file starts with the header');
    assert.equal(changes[2].textDocument!.uri, uri);
    const after = TextDocument.applyEdits(TextDocument.create(uri, LANGUAGE_ID, 1, text), changes[2].edits as never);
    assert.equal(after, `${valid.split('\r\n')[0]}\r\n`, 'only the header stays: every row was sent');
  });

  it('puts cvv-after-send on each CVV of the accepted content, with the fix that empties them all', async () => {
    const uri = open('accepted.rpcsv', sentText);
    const { diagnostics } = await client.diagnostics(
      uri,
      'two cvv-after-send',
      (p) => withCode(p.diagnostics, 'cvv-after-send').length === 2,
    );
    const cvv = withCode(diagnostics, 'cvv-after-send');
    assert.ok(cvv.every((d) => d.severity === 2));
    const fix = (await actions(uri, cvv)).find((a) => a.title === 'Empty every cvv2 value (the column stays)');
    assert.ok(fix?.edit?.changes?.[uri]);
    const stripped = TextDocument.applyEdits(TextDocument.create(uri, LANGUAGE_ID, 1, sentText), fix.edit.changes[uri]);
    assert.equal(stripped, sentText.replace(';123;', ';;').replace(';456;', ';;'));
  });

  it('finds a row typed with an id already sent a moment after the edit, and clears it all for another target', async () => {
    const header = valid.split('\r\n')[0];
    const text = `${header}\r\nNEW-1;DST;x;;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;\r\n`;
    const uri = open('typed.rpcsv', text);
    await client.diagnostics(uri, 'a clean file', (p) => p.version === 1 && p.diagnostics.length === 0);
    version = 2;
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } }, text: 'LS-0002' }],
    });
    await client.diagnostics(uri, 'already-sent on the typed id', (p) => withCode(p.diagnostics, 'already-sent').length === 1);
    await client.connection.sendNotification(LEDGER_TARGET_NOTIFICATION, { ...target(), endpointId: '2002' });
    await client.diagnostics(uri, 'nothing for another endpoint', (p) => withCode(p.diagnostics, 'already-sent').length === 0);
  });
});
