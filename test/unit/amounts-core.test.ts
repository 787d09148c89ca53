import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addAmounts,
  compareAmounts,
  decimalsOf,
  formatAmount,
  formatThousandths,
  isRuleBookDecimal,
  isRuleBookDecimalIn,
  parseAmount,
  sumAmountTexts,
  thousandthsIn,
  thousandthsOf,
  unitsAt,
  ZERO,
} from '../../src/core/amounts';
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

test("the rule book's decimal: one reader for the linter, the schedule, the forecast and the local gateway", () => {
  for (const s of ['1', '0.5', '12.345', '10.50', '0010']) assert.equal(isRuleBookDecimal(s), true, s);
  for (const s of ['0', '0.000', '.5', '5.', '1.2345', '-1', '+1', '1,5', '1e3', ' 1', '']) assert.equal(isRuleBookDecimal(s), false, s);
  // In place: the span of a larger text, as the linter reads a cell.
  assert.equal(isRuleBookDecimalIn('x;12.5;y', 2, 6), true);
  assert.equal(thousandthsIn('x;12.5;y', 2, 6), 12500);
  assert.equal(thousandthsOf('9999999999'), 9_999_999_999_000);
  assert.equal(thousandthsOf('0'), undefined);
  assert.equal(decimalsOf('12.50'), 2);
  assert.equal(decimalsOf('12'), 0);
});

test('thousandths are written cut to the asked decimals, never through floating point', () => {
  assert.equal(formatThousandths(12500), '12.500');
  assert.equal(formatThousandths(12500n, 2), '12.50');
  assert.equal(formatThousandths(12345n, 2), '12.34');
  assert.equal(formatThousandths(12000, 0), '12');
  assert.equal(formatThousandths(-5n, 3), '-0.005');
  assert.equal(formatThousandths(9_007_199_254_740_993n * 1000n, 2), '9007199254740993.00');
});

test('amount texts sum exactly at the most decimals any has; a text that is no amount spoils the sum', () => {
  assert.equal(sumAmountTexts(['0.10', '0.20', '1.005']), '1.305');
  assert.equal(sumAmountTexts(['120.00', '120.00']), '240.00');
  assert.equal(sumAmountTexts([]), '0');
  assert.equal(sumAmountTexts(['1.00', 'x']), undefined);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 10 ** 12 }), { maxLength: 20 }), (cents) => {
      const sum = sumAmountTexts(cents.map((c) => formatThousandths(c * 10, 2)));
      return cents.length === 0 || sum === formatThousandths(BigInt(cents.reduce((s, c) => s + c, 0)) * 10n, 2);
    }),
    { numRuns: 200 },
  );
});
