import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { renderCodeIndex, renderCodeTable, renderColumnTable, renderTestCards } from '../tools/ruleDocs';
import { ruleDocUrl } from '../../src/core/rules/links';
import { CodeInfo, type Code } from '../../src/core/rules/codes';
import { COLUMNS } from '../../src/core/rules/columns';
import { renderCommandTable } from '../tools/cli-docs';

// The rule book (docs/rules.md) and the README's code index are generated from the core's tables; these
// tests fail when a document drifts from them (`npm run readme` rewrites both).
const root = join(__dirname, '..', '..');
const rules = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function region(text: string, file: string, name: string): string {
  const m = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(text);
  assert.ok(m, `${file} has the ${name} region`);
  return m[1];
}

test('docs/rules.md column table is the one generated from the column table (run npm run readme)', () => {
  assert.equal(region(rules, 'docs/rules.md', 'rules:columns'), renderColumnTable());
});

test('docs/rules.md code table is the one generated from the code table (run npm run readme)', () => {
  assert.equal(region(rules, 'docs/rules.md', 'rules:codes'), renderCodeTable());
});

test('README code index is the one generated from the code table (run npm run readme)', () => {
  assert.equal(region(readme, 'README.md', 'rules:index'), renderCodeIndex());
});

test("README command-line table is the one generated from the CLI's command registry (run npm run readme)", () => {
  assert.equal(region(readme, 'README.md', 'cli:commands'), renderCommandTable());
});

test('every column and every code has its row, and every code its anchors for the editor links', () => {
  for (const c of COLUMNS) assert.match(rules, new RegExp(`\\| \`${c.name}\` \\|`));
  for (const code of Object.keys(CodeInfo)) {
    // The anchor ruleDocUrl links to, and the old one links made before the rule book moved use.
    assert.ok(rules.includes(`<a id="${code}"></a>`), code);
    assert.ok(rules.includes(`<a id="rule-${code}"></a>`), `rule-${code}`);
    assert.ok(readme.includes(`(docs/rules.md#${code})`), `README links ${code}`);
  }
});

test('ruleDocUrl points at the code anchor of docs/rules.md on the repository', () => {
  for (const code of Object.keys(CodeInfo) as Code[]) {
    const url = new URL(ruleDocUrl(code));
    assert.equal(url.origin + url.pathname, 'https://github.com/paygate/paygate-toolkit/blob/main/docs/rules.md');
    assert.equal(url.hash, `#${code}`);
  }
});

test('the rule book codes are exactly the published contract', () => {
  // The rule book's public codes; renaming one breaks users' scripts and suppressions.
  assert.deepEqual(Object.keys(CodeInfo).sort(), [
    'already-sent',
    'amount-mode',
    'amount-range',
    'batch-too-large',
    'blank-line',
    'bom',
    'callback-exclusive',
    'callback-port',
    'card-data-in-git',
    'card-expired',
    'card-luhn',
    'column-alias',
    'csv-syntax',
    'cvv-after-send',
    'date-order',
    'delimiter',
    'dst-unsupported',
    'duplicate-column',
    'duplicate-order-id',
    'field-count',
    'id-whitespace',
    'invalid-value',
    'max-length',
    'missing-column',
    'period-interval',
    'required-value',
    'same-payer',
    'start-date-past',
    'state-required',
    'unknown-column',
  ]);
});

test('the documents cite nothing outside the repository', () => {
  // Users have the repository, not the project's working notes.
  for (const [file, text] of [
    ['README.md', readme],
    ['docs/rules.md', rules],
  ] as const) {
    assert.doesNotMatch(text, /shared\/(design|spec)|\.\.\/shared/, file);
  }
});

test('docs/rules.md lists the published test numbers card-data-in-git leaves alone (run npm run readme)', () => {
  assert.equal(region(rules, 'docs/rules.md', 'rules:test-cards'), renderTestCards());
});
