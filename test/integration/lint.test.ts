// The recurring-payment CSV face in a running editor: language mode, Problems, quick fixes, fix-all,
// hover, completion and the onSave setting. Runs under @vscode/test-electron and under the code-server
// harness alike: only the public `vscode` API, fixtures found through the extension's own path, edits
// made on copies in a scratch folder, and waits on the diagnostics' own event (./wait.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LANGUAGE_ID } from '../../src/shared/lintProtocol';
import { until } from './wait';

const EXTENSION_ID = 'paygate.paygate-toolkit';
// Each code links to its entry in the rule book, docs/rules.md, whose anchor is the code.
const RULE_LINK = 'https://github.com/paygate/paygate-toolkit/blob/main/docs/rules.md#';

let fixtures = '';
let scratch = '';

/** Probes until `probe` gives a value, waking whenever the editor's diagnostics change. */
function waitFor<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  return until(what, probe, { events: [vscode.languages.onDidChangeDiagnostics] });
}

function paygateDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'paygate');
}

function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c);
}

/** Diagnostics of the document once they satisfy `ok` (lint runs asynchronously after open or change). */
function diagnosticsWhere(uri: vscode.Uri, what: string, ok: (ds: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return waitFor(what, () => {
    const ds = paygateDiagnostics(uri);
    return ok(ds) ? ds : undefined;
  });
}

/** A fixture copied into the scratch folder, so tests may edit and save it. */
function copyFixture(name: string, as = name): vscode.Uri {
  const dir = fs.mkdtempSync(path.join(scratch, 'case-'));
  const target = path.join(dir, as);
  fs.copyFileSync(path.join(fixtures, name), target);
  return vscode.Uri.file(target);
}

async function openShown(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** The range of the `nth` occurrence of `needle` on `line` (what the rule book calls the exact cell). */
function cellRange(doc: vscode.TextDocument, line: number, needle: string, nth = 0): vscode.Range {
  const text = doc.lineAt(line).text;
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `"${needle}" on line ${line}`);
  }
  return new vscode.Range(line, at, line, at + needle.length);
}

async function replace(doc: vscode.TextDocument, range: vscode.Range, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, range, text);
  assert.equal(await vscode.workspace.applyEdit(edit), true, 'edit applied');
}

async function applyAction(action: vscode.CodeAction): Promise<void> {
  assert.ok(action.edit, `action "${action.title}" carries an edit`);
  assert.equal(await vscode.workspace.applyEdit(action.edit), true, `edit of "${action.title}" applied`);
}

async function codeActions(uri: vscode.Uri, range: vscode.Range, kind?: string): Promise<vscode.CodeAction[]> {
  const got =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range, kind)) ??
    [];
  // A provider may also answer with bare Commands (whose `command` is a string); ours answers with CodeActions.
  return got.filter((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string');
}

/** Hover text as a reader sees it: the Markdown of every hover joined, with backslash escapes removed. */
async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<{ text: string; hovers: vscode.Hover[] }> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  const text = hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return { text, hovers };
}

async function columnCompletions(uri: vscode.Uri, position: vscode.Position, trigger?: string): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position, trigger);
  // Word-based suggestions from the document come back too; column names are offered as fields.
  return (list?.items ?? []).filter((i) => i.kind === vscode.CompletionItemKind.Field);
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

async function setLintSetting(key: 'run' | 'debounceMs', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('paygate.lint').update(key, value, vscode.ConfigurationTarget.Global);
}

// One outer suite, so the hooks below belong to this file and not to the whole run.
describe('lint (recurring-payment CSV in the editor)', () => {
  before(async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    await ext.activate();
    fixtures = path.join(ext.extensionPath, 'test', 'fixtures', 'lint');
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-lint-it-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  describe('language mode', () => {
    it('is chosen for a .rpcsv file', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      assert.equal(doc.languageId, LANGUAGE_ID);
      assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    });

    it('is chosen for a *.recurring.csv file', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'batch.recurring.csv')));
      assert.equal(doc.languageId, LANGUAGE_ID);
    });

    it('is chosen for a .csv whose first line holds client-orderid and rp_card_type, in any order', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'first-line.csv')));
      assert.ok(doc.lineAt(0).text.indexOf('rp_card_type') < doc.lineAt(0).text.indexOf('client-orderid'), 'fixture has the reverse order');
      assert.equal(doc.languageId, LANGUAGE_ID);
    });

    it('is not chosen for a .csv without both names', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'plain.csv')));
      assert.notEqual(doc.languageId, LANGUAGE_ID);
    });
  });

  describe('diagnostics', () => {
    it('arrive on open with rule-book codes, README links, severities and exact cell ranges', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'mistakes.rpcsv')));
      const ds = await diagnosticsWhere(doc.uri, 'four diagnostics', (d) => d.length === 4);
      const got = ds
        .map((d) => ({ code: codeOf(d), range: d.range, severity: d.severity }))
        .sort((a, b) => a.range.start.compareTo(b.range.start));
      const expected = [
        { code: 'column-alias', range: cellRange(doc, 0, 'Rp_Card_Type'), severity: vscode.DiagnosticSeverity.Error },
        { code: 'column-alias', range: cellRange(doc, 0, 'notify-url'), severity: vscode.DiagnosticSeverity.Error },
        { code: 'dst-unsupported', range: cellRange(doc, 1, 'DE'), severity: vscode.DiagnosticSeverity.Error },
        { code: 'dst-unsupported', range: cellRange(doc, 1, 'Berlin'), severity: vscode.DiagnosticSeverity.Error },
      ];
      assert.equal(got.length, expected.length);
      got.forEach((g, i) => {
        assert.equal(g.code, expected[i].code);
        assert.ok(
          g.range.isEqual(expected[i].range),
          `${g.code} at ${JSON.stringify(g.range)}, expected ${JSON.stringify(expected[i].range)}`,
        );
        assert.equal(g.severity, expected[i].severity);
      });
      for (const d of ds) {
        const code = d.code as { value: string; target: vscode.Uri };
        assert.equal(code.target.toString(true), RULE_LINK + code.value);
      }
    });

    it('follow edits: a new problem appears at its cell and goes when the edit is undone', async () => {
      const doc = await openShown(copyFixture('valid.rpcsv'));
      // A valid file gets no diagnostics; introduce one and wait for it, which proves the file was checked.
      const cell = cellRange(doc, 1, 'SRC');
      await replace(doc, cell, 'XYZ');
      const ds = await diagnosticsWhere(doc.uri, 'invalid-value on rp_card_type', (d) => d.some((x) => codeOf(x) === 'invalid-value'));
      const invalid = ds.filter((x) => codeOf(x) === 'invalid-value');
      assert.equal(invalid.length, 1);
      assert.ok(invalid[0].range.isEqual(cell));
      await replace(doc, cell, 'SRC');
      await diagnosticsWhere(doc.uri, 'no diagnostics after undoing the edit', (d) => d.length === 0);
    });

    it('keep exact cells after a quoted field spanning lines, with CRLF line ends', async () => {
      // Written here rather than as a fixture, so no checkout setting can turn the CRLFs into LFs.
      const text = [
        'client-orderid;rp_card_type;credit-card-number;amount;currency;order_desc;city',
        'ord-1;DST;4111111111111111;5;EUR;"first line\r\nsecond ""line""";',
        'ord-2;DST;5555555555554444;5;EUR;plain;Paris',
        '',
      ].join('\r\n');
      const file = path.join(fs.mkdtempSync(path.join(scratch, 'case-')), 'crlf.rpcsv');
      fs.writeFileSync(file, text);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      assert.equal(doc.eol, vscode.EndOfLine.CRLF);
      const ds = await diagnosticsWhere(doc.uri, 'dst-unsupported on Paris', (d) => d.some((x) => codeOf(x) === 'dst-unsupported'));
      assert.deepEqual(ds.map(codeOf), ['dst-unsupported']);
      // The quoted field takes lines 1-2, so the second data row is on line 3.
      assert.ok(ds[0].range.isEqual(cellRange(doc, 3, 'Paris')), JSON.stringify(ds[0].range));
    });

    it('are cleared when the document leaves the language mode', async () => {
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      await diagnosticsWhere(doc.uri, 'diagnostics', (d) => d.length > 0);
      await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
      await diagnosticsWhere(doc.uri, 'diagnostics cleared', (d) => d.length === 0);
    });
  });

  describe('code actions', () => {
    it('the preferred quick fix renames an aliased column', async () => {
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      const before = doc.getText();
      const cell = cellRange(doc, 0, 'notify-url');
      await diagnosticsWhere(doc.uri, 'column-alias on notify-url', (d) =>
        d.some((x) => codeOf(x) === 'column-alias' && x.range.isEqual(cell)),
      );
      const actions = await codeActions(doc.uri, cell, vscode.CodeActionKind.QuickFix.value);
      assert.ok(
        actions.some((a) => !a.isPreferred && /fix all safe/i.test(a.title)),
        'the file-wide safe fixes are offered too',
      );
      const preferred = actions.filter((a) => a.isPreferred);
      assert.equal(preferred.length, 1, `one preferred fix among: ${actions.map((a) => a.title).join(' | ')}`);
      // (executeCodeActionProvider hands back title, kind, edit and isPreferred, not the diagnostics list.)
      const edits = preferred[0].edit?.get(doc.uri) ?? [];
      assert.equal(edits.length, 1);
      assert.ok(edits[0].range.isEqual(cell), 'the rename edits exactly the header cell');
      await applyAction(preferred[0]);
      const header = before.split('\n')[0];
      const expected = header.slice(0, cell.start.character) + 'notify_url' + header.slice(cell.end.character);
      assert.equal(doc.lineAt(0).text, expected);
      assert.equal(doc.getText().split('\n').slice(1).join('\n'), before.split('\n').slice(1).join('\n'), 'rows untouched');
    });

    it('a DST-unsupported value can be cleared alone or together with every other one in the file', async () => {
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      const country = cellRange(doc, 1, 'DE');
      await diagnosticsWhere(doc.uri, 'dst-unsupported', (d) => d.filter((x) => codeOf(x) === 'dst-unsupported').length === 2);
      const actions = await codeActions(doc.uri, country, vscode.CodeActionKind.QuickFix.value);
      const sweep = actions.find((a) => /every/i.test(a.title));
      assert.ok(sweep, `a file-wide clear among: ${actions.map((a) => a.title).join(' | ')}`);
      const clearsOnlyCountry = (a: vscode.CodeAction): boolean => {
        const edits = a.edit?.get(doc.uri) ?? [];
        return edits.length === 1 && edits[0].range.isEqual(country) && edits[0].newText === '';
      };
      assert.ok(
        actions.some((a) => a !== sweep && clearsOnlyCountry(a)),
        'a single-cell clear too',
      );
      const row = doc.lineAt(1).text;
      await applyAction(sweep);
      assert.equal(doc.lineAt(1).text, row.replace(';DE;Berlin;', ';;;'));
      await diagnosticsWhere(doc.uri, 'no dst-unsupported left', (d) => !d.some((x) => codeOf(x) === 'dst-unsupported'));
    });

    it('source.fixAll.paygate applies every safe fix at once and nothing else', async () => {
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      const before = doc.getText();
      await diagnosticsWhere(doc.uri, 'diagnostics', (d) => d.length === 4);
      const whole = new vscode.Range(0, 0, doc.lineCount, 0);
      const actions = await codeActions(doc.uri, whole, 'source.fixAll.paygate');
      const fixAll = actions.filter((a) => a.kind?.value === 'source.fixAll.paygate');
      assert.equal(fixAll.length, 1);
      await applyAction(fixAll[0]);
      // The two alias renames are safe; clearing DST values loses data, so fix-all leaves them.
      const expected = before.replace('Rp_Card_Type', 'rp_card_type').replace('notify-url', 'notify_url');
      assert.equal(doc.getText(), expected);
      const ds = await diagnosticsWhere(doc.uri, 'only the DST problems left', (d) => d.length === 2);
      assert.deepEqual(ds.map(codeOf), ['dst-unsupported', 'dst-unsupported']);
    });

    it('editor.codeActionsOnSave runs the fix-all on save', async () => {
      const config = vscode.workspace.getConfiguration('editor');
      await config.update('codeActionsOnSave', { 'source.fixAll.paygate': 'explicit' }, vscode.ConfigurationTarget.Global);
      try {
        const doc = await openShown(copyFixture('mistakes.rpcsv'));
        await diagnosticsWhere(doc.uri, 'diagnostics', (d) => d.length === 4);
        // Saving needs a change; one in a value that no fix touches.
        await replace(doc, cellRange(doc, 2, 'ord-2'), 'ord-3');
        assert.equal(await doc.save(), true, 'saved');
        assert.equal(doc.lineAt(0).text, 'client-orderid;rp_card_type;credit-card-number;amount;currency;country;city;notify_url');
        assert.equal(fs.readFileSync(doc.uri.fsPath, 'utf8').split(/\r?\n/)[0], doc.lineAt(0).text, 'the fixed header is what was written');
      } finally {
        await config.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });

  describe('hover', () => {
    it('on a header cell shows the column documentation', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      const cell = cellRange(doc, 0, 'currency');
      const { text, hovers } = await hoverText(doc.uri, cell.start.translate(0, 3));
      assert.match(text, /currency/);
      assert.match(text, /3 upper-case letters/);
      assert.match(text, /Max length \| 3 /);
      assert.match(text, /Required/);
      const ours = hovers.find((h) => h.range?.isEqual(cell));
      assert.ok(ours, 'the hover covers exactly the header cell');
    });

    it('on an aliased header cell says which column it is read as', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'mistakes.rpcsv')));
      const { text } = await hoverText(doc.uri, cellRange(doc, 0, 'notify-url').start.translate(0, 2));
      assert.match(text, /read as \*\*notify_url\*\*/);
      assert.match(text, /absolute http\(s\) URL/);
    });

    it('shows text from the file literally: no links, no HTML', async () => {
      const doc = await vscode.workspace.openTextDocument({
        language: LANGUAGE_ID,
        content: 'client-orderid;rp_card_type;[x](command:workbench.action.quit);<img src=x onerror=alert(1)>\n',
      });
      const raw = async (needle: string): Promise<string> => {
        const hovers =
          (await vscode.commands.executeCommand<vscode.Hover[]>(
            'vscode.executeHoverProvider',
            doc.uri,
            cellRange(doc, 0, needle).start.translate(0, 1),
          )) ?? [];
        return hovers
          .flatMap((h) => h.contents)
          .map((c) => (typeof c === 'string' ? c : c.value))
          .join('\n');
      };
      const link = await raw('[x]');
      assert.match(link, /not a column/);
      // Every bracket escaped, so no `](` can start a link target.
      assert.ok(link.includes('\\[x\\]\\('), `escaped: ${link}`);
      assert.doesNotMatch(link, /(^|[^\\])\]\(/);
      const html = await raw('<img');
      assert.doesNotMatch(html, /(^|[^\\])</, 'no unescaped < that could open a tag');
      assert.ok(html.includes('\\<img'), `escaped: ${html}`);
    });

    it('on a value shows its column, with DST support', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      const { text } = await hoverText(doc.uri, cellRange(doc, 1, 'Berlin').start.translate(0, 2));
      assert.match(text, /city/);
      assert.match(text, /DST rows \| must leave it empty/);
    });

    it("on a row's first cell shows its next charges, card masked", async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      const { text } = await hoverText(doc.uri, cellRange(doc, 1, 'ord-1').start.translate(0, 1));
      assert.match(text, /Charges/);
      // Monthly from 31.01.2099: February has 28 days in 2099, then the schedule returns to the 31st.
      assert.match(text, /31\.01\.2099/);
      assert.match(text, /28\.02\.2099/);
      assert.match(text, /31\.03\.2099/);
      assert.match(text, /10\.00/);
      assert.match(text, /411111\*{6}1111/);
      assert.doesNotMatch(text, /4111111111111111/);
    });
  });

  describe('completion', () => {
    it('offers the columns the header lacks after a ";", and not those it has', async () => {
      const doc = await openShown(copyFixture('valid.rpcsv'));
      const end = doc.lineAt(0).range.end;
      await replace(doc, new vscode.Range(end, end), ';');
      const at = doc.lineAt(0).range.end;
      const labels = (await columnCompletions(doc.uri, at, ';')).map(labelOf);
      for (const missing of ['cvv2', 'order_desc', 'phone', 'state', 'notify_url'])
        assert.ok(labels.includes(missing), `${missing} offered`);
      for (const present of ['client-orderid', 'rp_card_type', 'currency', 'max-repeats-number'])
        assert.ok(!labels.includes(present), `${present} not offered`);
    });

    it('replaces a half-typed name and documents each column', async () => {
      const doc = await openShown(copyFixture('valid.rpcsv'));
      const end = doc.lineAt(0).range.end;
      await replace(doc, new vscode.Range(end, end), ';cv');
      const at = doc.lineAt(0).range.end;
      const items = await columnCompletions(doc.uri, at);
      const cvv = items.find((i) => labelOf(i) === 'cvv2');
      assert.ok(cvv, 'cvv2 offered');
      const range = cvv.range as { inserting: vscode.Range; replacing: vscode.Range } | vscode.Range | undefined;
      const replacing = range && 'replacing' in range ? range.replacing : range;
      assert.ok(replacing?.isEqual(new vscode.Range(at.translate(0, -2), at)), `replaces "cv": ${JSON.stringify(replacing)}`);
      const docText = typeof cvv.documentation === 'string' ? cvv.documentation : (cvv.documentation?.value ?? '');
      assert.match(docText, /3 or 4 digits/);
    });

    it('offers the allowed values in an rp_card_type cell', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      const cell = cellRange(doc, 1, 'SRC');
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, cell.end);
      const values = (list?.items ?? []).filter((i) => i.kind === vscode.CompletionItemKind.EnumMember);
      assert.deepEqual(values.map(labelOf).sort(), ['DST', 'SRC']);
      const range = values[0].range as { replacing: vscode.Range } | undefined;
      assert.ok(range?.replacing.isEqual(cell), 'a value replaces the whole cell');
    });

    it('offers no column names in data rows', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(fixtures, 'valid.rpcsv')));
      const items = await columnCompletions(doc.uri, cellRange(doc, 1, 'Berlin').end);
      assert.deepEqual(items.map(labelOf), []);
    });
  });

  describe('paygate.lint.run, with paygate.lint.debounceMs 0', () => {
    before(async () => {
      await setLintSetting('debounceMs', 0);
    });
    after(async () => {
      await setLintSetting('run', undefined);
      await setLintSetting('debounceMs', undefined);
    });

    /** A copy of a fixture opened now, once the language server has published its problems. */
    async function openedAndChecked(): Promise<void> {
      const other = await vscode.workspace.openTextDocument(copyFixture('mistakes.rpcsv'));
      await diagnosticsWhere(other.uri, 'the problems of a file opened after the edit', (d) => d.length === 4);
    }

    /**
     * Puts an invalid-value into row 2 and returns once the language server has certainly handled the edit
     * and sent whatever it sends for it, by opening another file after it and waiting for that file's
     * problems. That holds because the server handles messages in order and checks from timers, in order;
     * an earlier harmless edit has already made it ask the editor for this file's settings (a round trip
     * the edit's own handling would otherwise wait for); and the client shows problems in the order they
     * came. The onType test proves the wait is long enough: there the edit's problem is in by then.
     */
    async function invalidValueThenBarrier(doc: vscode.TextDocument): Promise<vscode.Range> {
      await replace(doc, cellRange(doc, 2, 'ord-2'), 'ord-3'); // no rule reads this value
      await openedAndChecked();
      const cell = cellRange(doc, 2, 'DST');
      await replace(doc, cell, 'XYZ');
      await openedAndChecked();
      return cell;
    }

    it('onType: an edit is checked before a file opened after it is', async () => {
      await setLintSetting('run', 'onType');
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      await diagnosticsWhere(doc.uri, 'diagnostics on open', (d) => d.length === 4);
      const cell = await invalidValueThenBarrier(doc);
      const invalid = paygateDiagnostics(doc.uri).filter((d) => codeOf(d) === 'invalid-value');
      assert.equal(invalid.length, 1, `checked as typed: ${paygateDiagnostics(doc.uri).map(codeOf).join(', ')}`);
      assert.ok(invalid[0].range.isEqual(cell));
    });

    it('onSave: checks on open, leaves edits unchecked until the file is saved', async () => {
      await setLintSetting('run', 'onSave');
      const doc = await openShown(copyFixture('mistakes.rpcsv'));
      const opened = await diagnosticsWhere(doc.uri, 'diagnostics on open', (d) => d.length === 4);
      const cell = await invalidValueThenBarrier(doc);
      // The same wait that shows the edit's problem with onType: with onSave, the problems are still those of the open.
      assert.deepEqual(paygateDiagnostics(doc.uri).map(codeOf), opened.map(codeOf), 'not checked before save');
      assert.equal(await doc.save(), true);
      const ds = await diagnosticsWhere(doc.uri, 'invalid-value after save', (d) => d.some((x) => codeOf(x) === 'invalid-value'));
      assert.ok(ds.find((d) => codeOf(d) === 'invalid-value')?.range.isEqual(cell));
    });
  });
});
