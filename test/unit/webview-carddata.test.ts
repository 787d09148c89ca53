import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowMasker } from '../../src/core/output';

test('a CSV table masks card numbers and hides CVVs by column name, in any spelling', () => {
  const guard = rowMasker(['client-orderid', 'Credit_Card_Number', 'CVV2', 'amount']);
  assert.ok(guard);
  const row = ['ORD-1', '4111111111111111', '123', '10.00'];
  guard(row);
  assert.deepEqual(row, ['ORD-1', '411111******1111', '•••', '10.00']);
  const empty = ['ORD-2', '', '', '5'];
  guard(empty);
  assert.deepEqual(empty, ['ORD-2', '', '', '5'], 'empty cells stay empty');
});

test('tables without card columns are left alone (no guard at all)', () => {
  assert.equal(rowMasker(['Merchant_Name', 'Transaction_id', 'Amount']), undefined);
});
