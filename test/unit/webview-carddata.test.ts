import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowMasker } from '../../src/core/output';
import { Dataset } from '../../webview-ui/dataset';

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

test('the page gives every row out with card numbers masked in every column, ids and descriptions too', () => {
  const ds = new Dataset();
  const columns = ['Transaction_id', 'Merchant_OID', 'Order_description', 'Amount'];
  ds.reset(columns, rowMasker(columns));
  ds.append([['4111111111111111', 'card5105105105105100x', 'paid with 4012 8888 8888 1881', '10.00']]);
  ds.finish();
  assert.deepEqual(ds.row(0), ['411111******1111', 'card510510******5100x', 'paid with 4012 88** **** 1881', '10.00']);
});
