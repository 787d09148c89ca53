// field-count on rows short by trailing fields (what adding a column to the header leaves): a fix adds
// the empty fields at the row's end. Offered, never applied by fix-all: the missing field may be inside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySafeFixes } from '../../src/core/rules/fixAll';
import { lint } from '../../src/core/rules/lint';
import { saidText } from '../../src/core/output';
import { applyFix } from '../fixtures/lint-cases/helpers';

const TEXT = [
  'client-orderid;rp_card_type;credit-card-number;currency;amount;order_desc;purpose',
  'A1;DST;4111111111111111;EUR;1.00',
  'A2;DST;4111111111111111;EUR;1.00;x',
  '"A\n3";DST;4111111111111111;EUR;1.00;x;y;z',
].join('\r\n');

test('a short row is offered its missing empty fields at its end; a long row no fix', () => {
  const counts = lint(TEXT).diagnostics.filter((d) => d.code === 'field-count');
  assert.equal(counts.length, 3);
  const [two, one, long] = counts;
  assert.deepEqual(
    two.fixes.map((f) => [saidText(f.title), f.safe]),
    [['Add the missing empty fields at the end of the row', false]],
  );
  assert.deepEqual(
    one.fixes.map((f) => saidText(f.title)),
    ['Add the missing empty field at the end of the row'],
  );
  assert.deepEqual(long.fixes, []);
  const fixed = applyFix(TEXT, [...two.fixes[0].edits, ...one.fixes[0].edits]);
  assert.equal(fixed.split('\r\n').slice(1, 3).join('\n'), 'A1;DST;4111111111111111;EUR;1.00;;\nA2;DST;4111111111111111;EUR;1.00;x;');
  assert.deepEqual(lint(fixed).diagnostics.filter((d) => d.code === 'field-count').length, 1, 'only the long row is left');
});

test('fix-all leaves short rows alone: adding fields is a person’s decision', () => {
  assert.equal(applySafeFixes(TEXT).text, TEXT);
});
