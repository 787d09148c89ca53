// What a new user meets first, in a running editor: a pasted batch switching to the recurring-payment
// language, the environment picker's way to add an environment, and the status item read aloud in plain
// words. Only the public `vscode` API; waits poll with a deadline.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LANGUAGE_ID } from '../../src/shared/lintProtocol';
import type { SelectEnvironmentResult } from '../../src/extension/environments/statusBar';
import { TEST_TIMEOUT_MS, until } from './wait';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const HEADER = 'client-orderid;rp_card_type;credit-card-number;cvv2;amount;currency';

/** Probes until `check` gives a value, waking on every document event (a language switch closes and reopens). */
function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const events = [
    vscode.workspace.onDidOpenTextDocument,
    vscode.workspace.onDidCloseTextDocument,
    vscode.workspace.onDidChangeTextDocument,
  ];
  return until(what, check, { events });
}

/** Waits until the document (by URI) is open with `language`; the open document object changes with it. */
const languageOf = (uri: vscode.Uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId;

describe('a new user', function () {
  this.timeout(TEST_TIMEOUT_MS);
  let scratch = '';

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-newuser-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  describe('language detection', () => {
    it('switches a Plain Text document to the recurring-payment language as soon as the header is pasted', async () => {
      const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
      const editor = await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'plaintext');
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), `${HEADER}\nA-1;SRC;4111111111111111;737;10.00;EUR\n`));
      assert.equal(
        await eventually('the language to switch', () => (languageOf(doc.uri) === LANGUAGE_ID ? LANGUAGE_ID : undefined)),
        LANGUAGE_ID,
      );
    });

    it('switches while typing the header, once the second name is complete', async () => {
      const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
      const editor = await vscode.window.showTextDocument(doc);
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'client-orderid;rp_card'));
      assert.equal(languageOf(doc.uri), 'plaintext', 'half a header is not a header');
      await editor.edit((e) => e.insert(new vscode.Position(0, 'client-orderid;rp_card'.length), '_type'));
      await eventually('the language to switch', () => (languageOf(doc.uri) === LANGUAGE_ID ? true : undefined));
    });

    it('switches a saved .csv file when the header is written and saved, and never against the user’s choice', async () => {
      const file = path.join(scratch, 'batch.csv');
      fs.writeFileSync(file, 'notes\n');
      const doc = await vscode.workspace.openTextDocument(file);
      assert.ok(['plaintext', 'csv'].includes(doc.languageId), doc.languageId);
      const editor = await vscode.window.showTextDocument(doc);
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, 0, 5), HEADER));
      await eventually('the language to switch', () => (languageOf(doc.uri) === LANGUAGE_ID ? true : undefined));
      // The user picks Plain Text by hand: further edits and saves leave it so.
      const switched = vscode.workspace.textDocuments.find((d) => d.uri.toString() === doc.uri.toString())!;
      const back = await vscode.languages.setTextDocumentLanguage(switched, 'plaintext');
      assert.equal(back.languageId, 'plaintext');
      const again = await vscode.window.showTextDocument(back);
      await again.edit((e) => e.insert(new vscode.Position(0, 0), ' '));
      await back.save();
      // Give a wrong switch every chance to happen: wait for a later, unrelated document event.
      const marker = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'marker' });
      await eventually('the marker document', () => (languageOf(marker.uri) ? true : undefined));
      assert.equal(languageOf(back.uri), 'plaintext', 'the language the user picked is kept');
    });

    it('leaves a document in another language alone', async () => {
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: `${HEADER}\n` });
      await vscode.window.showTextDocument(doc);
      await (await vscode.window.showTextDocument(doc)).edit((e) => e.insert(new vscode.Position(0, 0), ' '));
      const marker = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'marker' });
      await eventually('the marker document', () => (languageOf(marker.uri) ? true : undefined));
      assert.equal(languageOf(doc.uri), 'markdown');
    });
  });

  describe('environments', () => {
    it('says the environment in plain words to a screen reader', async () => {
      const r = await vscode.commands.executeCommand<SelectEnvironmentResult>('paygate.selectEnvironment', 'local');
      assert.ok(r?.ok, JSON.stringify(r));
      assert.match(r.statusLabel, /^PayGate environment local\. Built-in local gateway/);
      assert.doesNotMatch(r.statusLabel, /\\|&nbsp;|\$\(/, 'no Markdown escapes, entities or icon names');
    });

    it('Add environment opens settings JSON with an entry to fill in, keeping what was there', async () => {
      const r = await vscode.commands.executeCommand<{ inserted: boolean; uri?: vscode.Uri }>('paygate.addEnvironment');
      assert.ok(r?.inserted, JSON.stringify(r));
      const editor = vscode.window.activeTextEditor;
      assert.ok(editor && editor.document.uri.toString() === r.uri?.toString());
      const text = editor.document.getText();
      assert.match(text, /"paygate\.environments": \[/);
      assert.match(text, /"endpointId": "endpoint id from your support manager"/);
      // The first field is selected for typing the name.
      assert.equal(editor.document.getText(editor.selection), 'staging');
      // Nothing is saved for the user: undo the insertion and leave the file as it was.
      await vscode.commands.executeCommand('undo');
      await eventually('the insertion undone', () =>
        !editor.document.getText().includes('endpoint id from your support manager') ? true : undefined,
      );
      if (editor.document.isDirty) await editor.document.save();
    });
  });
});
