import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addAmounts, compareAmounts, formatAmount, parseAmount, unitsAt, ZERO } from '../../src/core/amounts';
import { sameAmount } from '../../src/core/reconcile/amounts';

// The one amount rule: sign, digits, optionally a dot and digits. Nothing else is guessed.

test('amounts are read exactly, by one rule', () => {
  assert.deepEqual(parseAmount('12.500'), { units: 12500n, scale: 3 });
  assert.deepEqual(parseAmount(' -0 '), { units: 0n, scale: 0 });
  assert.deepEqual(parseAmount('+7.5'), { units: 75n, scale: 1 });
  for (const s of ['1,000', '1,5', '1e3', '0x10', '.5', '5.', '1 000', '', '-', 'NaN', '12.5 EUR'])
    assert.equal(parseAmount(s), undefined, s);
});

test('compare, add and format are exact at any scale', () => {
  assert.equal(compareAmounts(parseAmount('29.900')!, parseAmount('29.90')!), 0);
  assert.equal(compareAmounts(parseAmount('29.901')!, parseAmount('29.90')!), 1);
  assert.equal(formatAmount(addAmounts(parseAmount('0.1')!, parseAmount('0.2')!), 3), '0.300');
  assert.equal(formatAmount(parseAmount('-5')!, 2), '-5.00');
  assert.equal(formatAmount(parseAmount('0.005')!, 2), '0.005', 'a digit is never cut');
  assert.equal(unitsAt(parseAmount('12.5')!, 0), undefined);
  assert.equal(sameAmount('1,000', '1.000'), false, 'a thousands separator is never read as a decimal point');
});

test('sums of random amounts equal the sum of their thousandths as integers', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(10 ** 9), fc.nat(999)), { maxLength: 50 }), (parts) => {
      let sum = ZERO;
      let expected = 0n;
      for (const [neg, whole, frac] of parts) {
        const text = `${neg ? '-' : ''}${whole}.${String(frac).padStart(3, '0')}`;
        sum = addAmounts(sum, parseAmount(text)!);
        expected += (neg ? -1n : 1n) * (BigInt(whole) * 1000n + BigInt(frac));
      }
      assert.equal(unitsAt(sum, 3), expected);
    }),
  );
});
