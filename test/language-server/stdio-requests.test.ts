// The language server over stdio, as stdio.test.ts drives it: hover and completion, quick fixes of short
// rows, the cap on diagnostics for big files, changes sent back to back, closing, settings from the
// client, and `paygate lsp`'s arguments.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeAction, CompletionItem, Diagnostic, Hover, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { CLI, ROOT, TestClient, cellRange } from './client';
import { CAPABILITIES, Doc } from './doc';
import { PROCESS_MS } from '../fixtures/deadlines';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'lint');

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const message = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);
const hoverText = (h: Hover | null) => (h ? (h.contents as MarkupContent).value.replace(/\\([!-/:-@[-`{-~])/g, '$1') : '');

describe('language server over stdio: requests, big files, closing (paygate lsp --stdio)', () => {
  let client: TestClient;
  let n = 0;
  const uri = (name: string) => `file:///work/${++n}/${name}`;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    client = new TestClient();
    const caps = await client.initialize(CAPABILITIES);
    assert.equal((caps.textDocumentSync as { change: number }).change, 2, 'incremental sync');
  });

  after(async () => {
    const code = await client.stop();
    assert.equal(code, 0, `the server exits cleanly after shutdown and exit: ${client.stderr}`);
  });

  it('hovers a header cell with the column documentation and a row with its charges', async () => {
    const text = readFileSync(path.join(FIXTURES, 'valid.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('valid.rpcsv'), text);
    const cell = cellRange(text, 0, 'currency');
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: { line: 0, character: cell.start.character + 3 },
    })) as Hover;
    assert.match(hoverText(hover), /3 upper-case letters/);
    assert.match(hoverText(hover), /Max length \| 3 /);
    assert.deepEqual(hover.range, cell);
    const row = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: { line: 1, character: 1 },
    })) as Hover;
    assert.match(hoverText(row), /Charges/);
    assert.match(hoverText(row), /Row 1 · order ord-1/);
    assert.match(hoverText(row), /411111\*{6}1111/);
    assert.doesNotMatch(hoverText(row), /4111111111111111/);
  });

  it('a row whose schedule cannot be computed says which value is malformed, not a guess', async () => {
    const text =
      'client-orderid;rp_card_type;credit-card-number;currency;amount;period;interval;start-date\nA1;DST;4111111111111111;EUR;10.00;month;1;2027-01-15\n';
    const doc = new Doc(client, uri('bad-date.rpcsv'), text);
    await doc.diagnostics('linted', (ds) => ds.some((d) => d.code === 'invalid-value'));
    const row = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: { line: 1, character: 1 },
    })) as Hover;
    assert.match(hoverText(row), /The schedule cannot be computed/);
    assert.match(hoverText(row), /start-date "2027-01-15" is not a real date written DD\.MM\.YYYY/);
    assert.doesNotMatch(hoverText(row), /No start-date|today/);
  });

  it('after an edit inside a row, hovers and completes on the right row and cell', async () => {
    const text = readFileSync(path.join(FIXTURES, 'valid.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('valid.rpcsv'), text);
    await doc.diagnostics('clean', (ds) => ds.length === 0);
    await doc.edit([{ range: cellRange(text, 2, 'ord-2'), newText: 'ord-22' }]);
    await doc.diagnostics('still clean', (ds) => ds.length === 0);
    const row = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: { line: 2, character: 2 },
    })) as Hover;
    assert.match(hoverText(row), /Row 2 · order ord-22 · DST/);
    assert.deepEqual(row.range, cellRange(doc.text, 2, 'ord-22'));
    const cell = cellRange(doc.text, 2, 'DST');
    const items = (await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri: doc.uri },
      position: cell.end,
    })) as CompletionItem[];
    assert.deepEqual(items.map((i) => i.label).sort(), ['DST', 'SRC']);
    assert.deepEqual((items[0].textEdit as { replace: unknown }).replace, cell, 'a value replaces the whole cell, on its line');
  });

  it('completes missing column names in the header, replacing a half-typed one', async () => {
    const text = readFileSync(path.join(FIXTURES, 'valid.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('valid.rpcsv'), text);
    const end = { line: 0, character: text.split('\n')[0].length };
    await doc.edit([{ range: { start: end, end }, newText: ';cv' }]);
    const at = { line: 0, character: end.character + 3 };
    const items = (await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri: doc.uri },
      position: at,
    })) as CompletionItem[];
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('cvv2') && labels.includes('order_desc'));
    assert.ok(!labels.includes('client-orderid') && !labels.includes('currency'), 'columns the header has are not offered');
    const cvv = items.find((i) => i.label === 'cvv2')!;
    const edit = cvv.textEdit as { replace: { start: { character: number } }; newText: string };
    assert.equal(edit.newText, 'cvv2');
    assert.equal(edit.replace.start.character, end.character + 1, 'replaces "cv"');
    assert.match((cvv.documentation as MarkupContent).value, /3 or 4 digits/);
  });

  it('field-count on short rows: a quick fix per row, and one to add the missing empty fields to every short row', async () => {
    const text =
      'client-orderid;rp_card_type;credit-card-number;currency;amount;order_desc\nA1;DST;4111111111111111;EUR;1.00\nA2;DST;5555555555554444;EUR;2.00\n';
    const doc = new Doc(client, uri('short-rows.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('two short rows', (ds) => ds.filter((d) => d.code === 'field-count').length === 2);
    const first = diagnostics.find((d) => d.code === 'field-count')!;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: first.range,
      context: { diagnostics: [first], only: ['quickfix'] },
    })) as CodeAction[];
    assert.ok(
      actions.some((a) => a.title === 'Add the missing empty field at the end of the row'),
      actions.map((a) => a.title).join(' | '),
    );
    const sweep = actions.find((a) => a.title === 'Add the missing empty fields to every short row (2 rows)');
    assert.ok(sweep?.edit, actions.map((a) => a.title).join(' | '));
    await doc.apply(sweep.edit);
    await doc.diagnostics('no field-count left', (ds) => !ds.some((d) => d.code === 'field-count'));
  });

  it('a column completed at the end of the header brings an empty field to every row, in the same edit', async () => {
    const text =
      'client-orderid;rp_card_type;credit-card-number;currency;amount\nA1;DST;4111111111111111;EUR;1.00\r\n"A\n2";DST;5555555555554444;EUR;2.00\n\nA3;DST;5555555555554444;EUR;3.00;\n';
    const doc = new Doc(client, uri('add-column.rpcsv'), text);
    const end = { line: 0, character: text.split('\n')[0].length };
    await doc.edit([{ range: { start: end, end }, newText: ';ord' }]);
    await doc.diagnostics('rows short of the new column', (ds) => ds.filter((d) => d.code === 'field-count').length === 2);
    const items = (await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri: doc.uri },
      position: { line: 0, character: end.character + 4 },
    })) as CompletionItem[];
    const chosen = items.find((i) => i.label === 'order_desc')!;
    // The row already as long as the header (A3 carries its empty field) is left alone; the blank line too.
    assert.deepEqual(
      chosen.additionalTextEdits?.map((e) => [e.range.start.line, e.newText]),
      [
        [1, ';'],
        [3, ';'],
      ],
    );
    const edit = chosen.textEdit as { replace: TextEdit['range']; newText: string };
    await doc.edit([{ range: edit.replace, newText: edit.newText }, ...chosen.additionalTextEdits!]);
    const after = await doc.diagnostics('no field-count left', (ds) => !ds.some((d) => d.code === 'field-count'));
    assert.ok(!codes(after.diagnostics).includes('field-count'));
    assert.match(
      doc.text,
      /^client-orderid;rp_card_type;credit-card-number;currency;amount;order_desc\nA1;DST;4111111111111111;EUR;1\.00;\r\n"A\n2";DST;5555555555554444;EUR;2\.00;\n/,
    );
  });

  it('publishes at most 1,000 diagnostics and says how many more there are', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `ord-${i};XYZ;4111111111111111;5.00;EUR`);
    const doc = new Doc(client, uri('big.rpcsv'), `client-orderid;rp_card_type;credit-card-number;amount;currency\n${rows.join('\n')}\n`);
    const { diagnostics } = await doc.diagnostics('capped diagnostics', (ds) => ds.length > 0);
    assert.equal(diagnostics.length, 1001);
    const note = diagnostics.find((d) => d.code === undefined)!;
    assert.equal(note.severity, 3);
    assert.match(message(note), /500 more problems/);
    assert.match(message(note), /paygate lint big\.rpcsv/);
    assert.equal(diagnostics.filter((d) => d.code === 'invalid-value').length, 1000);
  });

  it('changes sent back to back are linted once, after the last of them', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `ord-${i};SRC;4111111111111111;5.00;EUR`);
    const doc = new Doc(client, uri('burst.rpcsv'), `client-orderid;rp_card_type;credit-card-number;amount;currency\n${rows.join('\n')}\n`);
    await doc.diagnostics('the open', () => true);
    // Five edits written at once, as an editor does while the server is busy: each as its own didChange.
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      const range = cellRange(doc.text, 1 + i * 1000, 'EUR');
      doc.version++;
      sent.push(
        client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: doc.uri, version: doc.version },
          contentChanges: [{ range, text: 'E1X' }],
        }),
      );
    }
    await Promise.all(sent);
    const last = await client.diagnostics(doc.uri, 'the five edits', (p) => p.version === 6);
    assert.equal(last.diagnostics.filter((d) => d.code === 'invalid-value').length, 5);
    const versions = client.published.filter((p) => p.uri === doc.uri && p.version !== 1).map((p) => p.version);
    assert.deepEqual(versions, [6], 'one lint, of the last version');
  });

  it('clears the problems of a closed document', async () => {
    const d = new Doc(client, uri('mistakes.rpcsv'), readFileSync(path.join(FIXTURES, 'mistakes.rpcsv'), 'utf8'));
    await d.diagnostics('diagnostics', (ds) => ds.length === 4);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: d.uri } });
    await client.diagnostics(d.uri, 'cleared', (p) => p.diagnostics.length === 0);
  });
});

describe('language server settings over stdio', () => {
  it('with run onSave from initializationOptions, checks on open and save, not on change', async () => {
    const client = new TestClient();
    try {
      await client.initialize(CAPABILITIES, { paygate: { lint: { run: 'onSave' } } });
      const text = readFileSync(path.join(FIXTURES, 'valid.rpcsv'), 'utf8');
      const doc = new Doc(client, 'file:///work/onsave.rpcsv', text);
      await doc.diagnostics('checked on open', (ds) => ds.length === 0);
      await doc.edit([{ range: cellRange(text, 1, 'SRC'), newText: 'XYZ' }]);
      // A request answered after the change: an onType server would have linted by now (no debounce).
      await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: doc.uri }, position: { line: 0, character: 1 } });
      const saved = client.mark();
      await client.connection.sendNotification('textDocument/didSave', { textDocument: { uri: doc.uri } });
      const after = await doc.diagnostics('invalid-value after save', (ds) => ds.some((d) => d.code === 'invalid-value'));
      assert.ok(after.seq > saved, 'published after the save');
      assert.ok(!client.published.some((p) => p.version === 2 && p.seq < saved), 'nothing published for the change before the save');

      // didChangeConfiguration back to onType: the current text is checked at once, and edits again.
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { paygate: { lint: { run: 'onType' } } } });
      await doc.edit([{ range: cellRange(doc.text, 1, 'XYZ'), newText: 'SRC' }]);
      await doc.diagnostics('clean after an unsaved edit', (ds) => ds.length === 0);
    } finally {
      await client.stop();
    }
  });

  it('lints a document of another language id when it is named like a batch, and not a plain CSV', async () => {
    const client = new TestClient();
    try {
      await client.initialize(CAPABILITIES);
      const text = readFileSync(path.join(FIXTURES, 'mistakes.rpcsv'), 'utf8');
      const named = new Doc(client, 'untitled:batch.recurring.csv', text, 'csv');
      await named.diagnostics('diagnostics by name', (ds) => ds.length === 4);
      const plain = new Doc(client, 'file:///work/other.csv', text, 'csv');
      const hover = await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: plain.uri },
        position: { line: 0, character: 1 },
      });
      assert.equal(hover, null, 'a plain CSV is not ours');
      assert.ok(!client.published.some((p) => p.uri === plain.uri));
    } finally {
      await client.stop();
    }
  });
});

describe('paygate lsp arguments', () => {
  it('needs --stdio, and --help says how to configure an editor', () => {
    const bare = spawnSync(process.execPath, [CLI, 'lsp'], { encoding: 'utf8', timeout: PROCESS_MS });
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /--stdio is required/);
    const help = spawnSync(process.execPath, [CLI, 'lsp', '--help'], { encoding: 'utf8', timeout: PROCESS_MS });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: paygate lsp --stdio/);
    assert.match(help.stdout, /paygate-recurring-csv/);
    const listed = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8', timeout: PROCESS_MS });
    assert.match(listed.stdout, /lsp\s+language server/);
  });
});
