import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { renderCodeTable, renderColumnTable } from '../../src/core/rules/docs';
import { CodeInfo } from '../../src/core/rules/codes';
import { COLUMNS } from '../../src/core/rules/columns';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

function region(name: string): string {
  const m = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(readme);
  assert.ok(m, `README.md has the ${name} region`);
  return m[1];
}

test('README column table is the one generated from the column table (run npm run readme)', () => {
  assert.equal(region('rules:columns'), renderColumnTable());
});

test('README code table is the one generated from the code table (run npm run readme)', () => {
  assert.equal(region('rules:codes'), renderCodeTable());
});

test('every column and every code has its row, and every code its anchor for the editor links', () => {
  for (const c of COLUMNS) assert.match(readme, new RegExp(`\\| \`${c.name}\` \\|`));
  for (const code of Object.keys(CodeInfo)) assert.ok(readme.includes(`<a id="rule-${code}"></a>`), code);
});

test('the rule book codes are exactly the published contract', () => {
  // The rule book's public codes; renaming one breaks users' scripts and suppressions.
  assert.deepEqual(Object.keys(CodeInfo).sort(), [
    'amount-mode', 'amount-range', 'blank-line', 'bom', 'callback-exclusive', 'card-data-in-git', 'card-expired', 'card-luhn',
    'column-alias', 'csv-syntax', 'date-order', 'delimiter', 'dst-unsupported', 'duplicate-column',
    'duplicate-order-id', 'field-count', 'invalid-value', 'max-length', 'missing-column', 'period-interval',
    'required-value', 'start-date-past', 'state-required', 'unknown-column',
  ]);
});
