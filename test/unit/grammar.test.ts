// The TextMate grammar, run by the same engine VS Code uses (vscode-textmate + vscode-oniguruma), so a
// broken regex or a column cycle that drifts shows here instead of as wrong colours in the editor.
import { test, before } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';
import { LANGUAGE_ID } from '../../src/shared/lintProtocol';

const root = path.resolve(__dirname, '..', '..');
const grammarPath = path.join(root, 'syntaxes', 'paygate-recurring-csv.tmLanguage.json');
const SCOPE = 'source.paygate-recurring-csv';

let grammar: vsctm.IGrammar;

before(async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) =>
      scopeName === SCOPE ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const g = await registry.loadGrammar(SCOPE);
  assert.ok(g, 'grammar loads');
  grammar = g;
});

interface Tok {
  text: string;
  scopes: string[];
}

/** Tokenizes a document line by line, carrying the rule stack across lines as the editor does. */
function tokenize(text: string): Tok[][] {
  let stack = vsctm.INITIAL;
  return text.split(/\r\n|\n|\r/).map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}

/** The innermost scope that says which column colour a token gets (`...column-N...`), or undefined. */
function columnOf(tok: Tok): number | undefined {
  for (let i = tok.scopes.length - 1; i >= 0; i--) {
    const m = /\.column-(\d+)\./.exec(tok.scopes[i]);
    if (m) return Number(m[1]);
  }
  return undefined;
}

function has(tok: Tok, prefix: string): boolean {
  return tok.scopes.some((s) => s.startsWith(prefix));
}

/** Column colour of every non-delimiter token on a line, as [text, column] pairs. */
function cells(line: Tok[]): [string, number | undefined][] {
  return line.filter((t) => t.text !== ';' && !has(t, 'string.quoted')).map((t) => [t.text, columnOf(t)]);
}

test('the grammar file is valid JSON with the language scope', () => {
  const raw = JSON.parse(fs.readFileSync(grammarPath, 'utf8'));
  assert.equal(raw.scopeName, SCOPE);
});

test('the header line is scoped as a header, not as data columns', () => {
  const [header] = tokenize('client-orderid;rp_card_type;amount\n');
  const names = header.filter((t) => t.text !== ';');
  assert.deepEqual(
    names.map((t) => t.text),
    ['client-orderid', 'rp_card_type', 'amount'],
  );
  for (const t of names) {
    assert.ok(has(t, 'meta.header.'), `${t.text} in the header meta scope`);
    assert.ok(has(t, 'markup.heading.column-name.'), `${t.text} scoped as a column name`);
    assert.equal(columnOf(t), undefined, 'header cells do not take the data-column cycle');
  }
  const delims = header.filter((t) => t.text === ';');
  assert.equal(delims.length, 2);
  for (const d of delims) assert.ok(has(d, 'punctuation.separator.delimiter.'));
});

test('data fields cycle through six column scopes and start over at the seventh', () => {
  const row = Array.from({ length: 14 }, (_, i) => `v${i + 1}`).join(';');
  const lines = tokenize(`h\n${row}`);
  const got = cells(lines[1]);
  // Field k (1-based) takes colour ((k - 1) mod 6) + 1.
  assert.deepEqual(
    got,
    Array.from({ length: 14 }, (_, i) => [`v${i + 1}`, (i % 6) + 1]),
  );
});

test('empty fields keep the cycle aligned', () => {
  const lines = tokenize('h\na;;;d;;;g');
  const got = cells(lines[1]);
  assert.deepEqual(got, [
    ['a', 1],
    ['d', 4],
    ['g', 1],
  ]);
});

test('every delimiter is punctuation; the second line starts the cycle again', () => {
  const lines = tokenize('h\na;b\nc;d');
  for (const l of [lines[1], lines[2]]) {
    const delims = l.filter((t) => t.text === ';');
    assert.equal(delims.length, 1);
    assert.ok(has(delims[0], 'punctuation.separator.delimiter.'));
  }
  assert.deepEqual(cells(lines[2]), [
    ['c', 1],
    ['d', 2],
  ]);
});

test('quoted fields are strings with "" as an escape, and stay in their column', () => {
  const lines = tokenize('h\nx;"a;""b""";z');
  const l = lines[1];
  const quoted = l.filter((t) => has(t, 'string.quoted.double.'));
  assert.equal(quoted.map((t) => t.text).join(''), '"a;""b"""');
  const escapes = quoted.filter((t) => has(t, 'constant.character.escape.'));
  assert.deepEqual(
    escapes.map((t) => t.text),
    ['""', '""'],
  );
  // The quoted field is the second column; the delimiter inside it does not advance the cycle.
  for (const t of quoted) assert.equal(columnOf(t), 2);
  assert.deepEqual(cells(l).at(-1), ['z', 3]);
});

test('a quoted field may span lines; the cycle resumes after it closes', () => {
  const lines = tokenize('h\na;"first\nsecond";c;d');
  assert.ok(lines[1].some((t) => t.text === '"first' || (t.text === 'first' && has(t, 'string.quoted.'))));
  const second = lines[2];
  const inString = second.filter((t) => has(t, 'string.quoted.'));
  assert.equal(inString.map((t) => t.text).join(''), 'second"');
  assert.deepEqual(cells(second), [
    ['c', 3],
    ['d', 4],
  ]);
  // A later record is back at column 1.
  const after = tokenize('h\na;"x\ny";c\nnext;row');
  assert.deepEqual(cells(after[3]), [
    ['next', 1],
    ['row', 2],
  ]);
});

test('a quote in the middle of an unquoted field is plain text, not a string', () => {
  const lines = tokenize('h\nab"cd;e');
  assert.ok(!lines[1].some((t) => has(t, 'string.quoted.')));
  assert.deepEqual(cells(lines[1]), [
    ['ab"cd', 1],
    ['e', 2],
  ]);
});

test('text after a closing quote is marked illegal', () => {
  const lines = tokenize('h\n"ab"cd;e');
  const bad = lines[1].filter((t) => has(t, 'invalid.illegal.'));
  assert.deepEqual(
    bad.map((t) => t.text),
    ['cd'],
  );
});

test('the header scope applies to the first line only', () => {
  const lines = tokenize('client-orderid;rp_card_type\nclient-orderid;rp_card_type');
  assert.ok(lines[0].every((t) => has(t, 'meta.header.')));
  assert.ok(lines[1].every((t) => !has(t, 'meta.header.')));
});

test('the language contribution detects a first line with both key column names, in either order', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === LANGUAGE_ID);
  assert.ok(lang, 'the manifest declares the language id the code uses');
  assert.deepEqual(lang.extensions, ['.rpcsv']);
  assert.deepEqual(lang.filenamePatterns, ['*.recurring.csv']);
  const firstLine = new RegExp(lang.firstLine);
  assert.ok(firstLine.test('client-orderid;rp_card_type;amount'));
  assert.ok(firstLine.test('amount;rp_card_type;currency;client-orderid'));
  assert.ok(!firstLine.test('client-orderid;amount;currency'));
  assert.ok(!firstLine.test('rp_card_type;amount'));
  assert.ok(!firstLine.test('id,name,email'));
  const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === LANGUAGE_ID);
  assert.equal(grammar.scopeName, SCOPE);
  assert.ok(fs.existsSync(path.join(root, grammar.path)), 'grammar path exists');
  assert.ok(fs.existsSync(path.join(root, lang.configuration)), 'language configuration path exists');
});

test('the language configuration pairs quotes and has no comments or brackets', () => {
  const conf = JSON.parse(fs.readFileSync(path.join(root, 'syntaxes', 'language-configuration.json'), 'utf8'));
  assert.deepEqual(conf.brackets, []);
  assert.deepEqual(conf.comments, {});
  assert.ok(conf.autoClosingPairs.some((p: { open: string; close: string }) => p.open === '"' && p.close === '"'));
  // Column names contain - and _; a word is a whole cell name, never crossing a delimiter.
  const word = new RegExp(conf.wordPattern, 'g');
  assert.deepEqual('client-orderid;rp_card_type;"x"'.match(word), ['client-orderid', 'rp_card_type', 'x']);
});
