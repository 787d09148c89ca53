// The language server driven over stdio by a plain JSON-RPC client, as any editor would: `paygate lsp
// --stdio` from this checkout's build (npm run test:lsp builds first). Incremental sync, diagnostics with
// codes, ranges and rule links, quick fixes applied as edits, lazily resolved edits. Hover, completion,
// settings from the client and the cap on diagnostics for big files: stdio-requests.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { CLI, ROOT, TestClient, cellRange } from './client';
import { CAPABILITIES, Doc } from './doc';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'lint');
// Each code links to its entry in the rule book, docs/rules.md, whose anchor is the code.
const RULE_LINK = 'https://github.com/paygate/paygate-toolkit/blob/main/docs/rules.md#';

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const message = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);
const sortByStart = (ds: Diagnostic[]) =>
  [...ds].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);

describe('language server over stdio (paygate lsp --stdio)', () => {
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

  it('publishes diagnostics on open with codes, exact ranges, severities and rule links', async () => {
    const text = readFileSync(path.join(FIXTURES, 'mistakes.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('mistakes.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('four diagnostics', (ds) => ds.length === 4);
    const got = sortByStart(diagnostics);
    assert.deepEqual(codes(got), ['column-alias', 'column-alias', 'dst-unsupported', 'dst-unsupported']);
    assert.deepEqual(
      got.map((d) => d.range),
      [cellRange(text, 0, 'Rp_Card_Type'), cellRange(text, 0, 'notify-url'), cellRange(text, 1, 'DE'), cellRange(text, 1, 'Berlin')],
    );
    for (const d of got) {
      assert.equal(d.severity, 1);
      assert.equal(d.source, 'paygate');
      assert.equal(d.codeDescription?.href, RULE_LINK + d.code);
    }
  });

  it('follows incremental edits: a new problem appears at its cell and goes when undone', async () => {
    const text = readFileSync(path.join(FIXTURES, 'valid.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('valid.rpcsv'), text);
    await doc.diagnostics('a clean file', (ds) => ds.length === 0);
    const cell = cellRange(text, 1, 'SRC');
    await doc.edit([{ range: cell, newText: 'XYZ' }]);
    const { diagnostics } = await doc.diagnostics('invalid-value', (ds) => ds.length > 0);
    assert.deepEqual(codes(diagnostics), ['invalid-value']);
    assert.deepEqual(diagnostics[0].range, cell);
    // Two changes in one notification (typing a character, then deleting it again elsewhere).
    await doc.edit([
      { range: cell, newText: 'SRC' },
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '' },
    ]);
    await doc.diagnostics('clean again', (ds) => ds.length === 0);
    assert.equal(doc.text, text);
  });

  it("a quick fix's edit, applied, fixes the problem; fix-all-of-this-kind and source.fixAll too", async () => {
    const text = readFileSync(path.join(FIXTURES, 'mistakes.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('mistakes.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('diagnostics', (ds) => ds.length === 4);
    const alias = diagnostics.find((d) => d.range.start.character === cellRange(text, 0, 'notify-url').start.character)!;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: alias.range,
      context: { diagnostics: [alias], only: ['quickfix'] },
    })) as CodeAction[];
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, actions.map((a) => a.title).join(' | '));
    assert.ok(
      actions.some((a) => /fix all safe/i.test(a.title)),
      'the file-wide safe fixes are offered too',
    );
    assert.ok(
      actions.some((a) => /fix all 2 column-alias/i.test(a.title)),
      'fix all of this kind',
    );
    await doc.apply(preferred[0].edit);
    assert.equal(doc.text.split('\n')[0], text.split('\n')[0].replace('notify-url', 'notify_url'));
    await doc.diagnostics(
      'three left',
      (ds) => ds.length === 3 && !ds.some((d) => d.range.start.character === alias.range.start.character && d.range.start.line === 0),
    );

    // Clear every DST-unsupported value, offered next to the single-cell clear.
    const dst = (await doc.diagnostics('dst', () => true)).diagnostics.filter((d) => d.code === 'dst-unsupported');
    const dstActions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: dst[0].range,
      context: { diagnostics: [dst[0]] },
    })) as CodeAction[];
    const sweep = dstActions.find((a) => /every DST-unsupported/.test(a.title));
    assert.ok(sweep, dstActions.map((a) => a.title).join(' | '));
    await doc.apply(sweep.edit);
    await doc.diagnostics('one alias left', (ds) => codes(ds).join() === 'column-alias');

    const fixAll = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.paygate'] },
    })) as CodeAction[];
    assert.deepEqual(
      fixAll.map((a) => a.kind),
      ['source.fixAll.paygate'],
    );
    await doc.apply(fixAll[0].edit);
    await doc.diagnostics('clean', (ds) => ds.length === 0);
  });

  it("a problem handed back a version late (the client's marker not yet moved) still gets its fixes", async () => {
    const text = readFileSync(path.join(FIXTURES, 'mistakes.rpcsv'), 'utf8');
    const doc = new Doc(client, uri('mistakes-late.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('diagnostics', (ds) => ds.length === 4);
    const alias = diagnostics.find((d) => d.range.start.character === cellRange(text, 0, 'notify-url').start.character)!;
    // Three characters typed at the start of the header move the cell; the client asks with its old marker.
    await doc.edit([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'ab;' }]);
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: alias.range,
      context: { diagnostics: [alias], only: ['quickfix'] },
    })) as CodeAction[];
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, `offered: ${actions.map((a) => a.title).join(' | ')}`);
    await doc.apply(preferred[0].edit);
    assert.equal(
      doc.text.split('\n')[0],
      'ab;' + text.split('\n')[0].replace('notify-url', 'notify_url'),
      'the fix lands on the cell where it is now',
    );
  });

  it('builds the every-row edits of a missing column only when the action is resolved', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `ord-${i};DST;4111111111111111;5.00`);
    const text = `client-orderid;rp_card_type;credit-card-number;amount\n${rows.join('\n')}\n`;
    const doc = new Doc(client, uri('no-currency.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('missing-column', (ds) => ds.some((d) => d.code === 'missing-column'));
    const missing = diagnostics.find((d) => d.code === 'missing-column' && message(d).includes('currency'))!;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: missing.range,
      context: { diagnostics: [missing], only: ['quickfix'] },
    })) as CodeAction[];
    const add = actions.find((a) => a.title.startsWith('Add column currency'));
    assert.ok(add, actions.map((a) => a.title).join(' | '));
    assert.equal(add.edit, undefined, 'no edit yet: it is built on resolve');
    assert.ok(add.data, 'the action says what to resolve');
    const resolved = (await client.connection.sendRequest('codeAction/resolve', add)) as CodeAction;
    assert.equal(resolved.edit?.changes?.[doc.uri]?.length, 51, 'the header and every row');
    await doc.apply(resolved.edit);
    assert.equal(doc.text.split('\n')[0], 'client-orderid;rp_card_type;credit-card-number;amount;currency');
    assert.ok(
      doc.text
        .split('\n')
        .slice(1, 51)
        .every((l) => l.endsWith(';')),
    );
    // The column is there; its cells are empty, which is the next problem (required-value), not this one.
    const after = await doc.diagnostics('no missing-column', (ds) => !ds.some((d) => d.code === 'missing-column'));
    assert.ok(after.diagnostics.some((d) => d.code === 'required-value'));
  });

  it('a resolve after the document changed gives no edit (it would land on the wrong text)', async () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount\nord-1;DST;4111111111111111;5.00\n';
    const doc = new Doc(client, uri('stale.rpcsv'), text);
    const { diagnostics } = await doc.diagnostics('missing-column', (ds) => ds.some((d) => d.code === 'missing-column'));
    const missing = diagnostics.find((d) => d.code === 'missing-column')!;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: missing.range,
      context: { diagnostics: [missing], only: ['quickfix'] },
    })) as CodeAction[];
    const add = actions.find((a) => a.data !== undefined)!;
    await doc.edit([{ range: cellRange(text, 1, 'ord-1'), newText: 'ord-2' }]);
    const resolved = (await client.connection.sendRequest('codeAction/resolve', add)) as CodeAction;
    assert.equal(resolved.edit, undefined);
  });
});
