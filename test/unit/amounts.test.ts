import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountColumns } from '../../src/shared/amounts';
import { amountForDisplay, currencyDigits } from '../../src/core/amounts';
import { formatTable } from '../../src/cli/output';

// Issue 19, item 8: report amounts in the currency's own minor units where a person reads them; the raw
// value everywhere else.

test("minor units come from the currency's ISO 4217 data", () => {
  assert.deepEqual(
    ['EUR', 'JPY', 'BHD', 'USD'].map((c) => currencyDigits(c)),
    [2, 0, 3, 2],
  );
  assert.equal(currencyDigits('eur'), undefined);
  assert.equal(currencyDigits('XXQ'), undefined);
});

test('only zeros beyond the minor units are dropped; anything else is shown as it came', () => {
  assert.equal(amountForDisplay('29.900', 'EUR'), '29.90');
  assert.equal(amountForDisplay('1000.000', 'JPY'), '1000');
  assert.equal(amountForDisplay('1.234', 'BHD'), '1.234');
  assert.equal(amountForDisplay('29.9', 'EUR'), '29.90');
  assert.equal(amountForDisplay('-5.000', 'EUR'), '-5.00');
  assert.equal(amountForDisplay('29.905', 'EUR'), '29.905', 'a non-zero digit is never cut');
  assert.equal(amountForDisplay('29.900', 'eur'), '29.900', 'no currency known: as it came');
  assert.equal(amountForDisplay('n/a', 'EUR'), 'n/a');
});

test('a table with Amount and Currency columns shows amounts in minor units; other columns as they are', () => {
  const shown = amountColumns(['Amount', 'Currency', 'Other'])!;
  assert.equal(shown(['29.900', 'EUR', '1.000'], 0), '29.90');
  assert.equal(shown(['29.900', 'EUR', '1.000'], 2), '1.000');
  assert.equal(amountColumns(['Amount', 'Note']), undefined);
});

test('the CLI table shows minor units and explains the ⏎ marker once, only when it appears', () => {
  const table = formatTable(
    ['Amount', 'Currency', 'Order_description'],
    [
      ['29.900', 'EUR', 'line one\nline two'],
      ['1000.000', 'JPY', 'x\ny'],
    ],
  );
  const lines = table.trimEnd().split('\n');
  assert.match(lines[2], /^29\.90\s+EUR\s+line one ⏎ line two$/);
  assert.match(lines[3], /^1000\s+JPY/);
  assert.equal(lines.filter((l) => l.includes('marks a line break')).length, 1);
  assert.doesNotMatch(formatTable(['a'], [['plain']]), /marks a line break/);
});
