import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareAmounts, type Amount } from '../../src/core/amounts';
import { AmountAccumulator, type AmountReading } from '../../src/core/query/aggregate';
import { AmountColumn } from '../../src/core/query/amountColumn';
import { readDecimal } from '../../src/core/query/cells';
import { QueryStream } from '../../src/core/query/stream';

// Issue 40: a query's groups keep their amounts column by column (src/core/query/amountColumn.ts: typed
// arrays per group, a group moved into an accumulator of its own at its first amount that is not of its
// scale, of more than 15 digits, or would carry its sum past 2^52), not an AmountAccumulator per group.
// The accumulator per group is the reference: every group's count, skipped rows, scale, sum, least and
// most, and the totals made from the groups, must be exactly the same amounts.

const amountText = fc.oneof(
  // The usual: one scale, a few digits.
  fc.integer({ min: -99_999, max: 99_999 }).map((n) => (n / 100).toFixed(2)),
  fc.integer({ min: 0, max: 999_999 }).map((n) => (n / 1000).toFixed(3)),
  // Other scales in the same group, and more than eight decimals.
  fc.constantFrom('5', '12.5', '-0.1', '0.000000001', '3.123456789', '+7.00'),
  // Fifteen digits: sums that pass 2^52, and 2^53, within a few rows.
  fc.constantFrom('999999999999999', '999999999999997', '-999999999999999', '9999999999999.99', '4503599627370495', '4503599627370496'),
  fc.integer({ min: 900_000_000_000_001, max: 999_999_999_999_999 }).map(String),
  // More than 15 digits: exact only as BigInt.
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n }).map((n) => `${n}.5`),
  // Not amounts: skipped.
  fc.constantFrom('', '  ', 'abc', '1.2.3', '5.', '.5', '-'),
);

/** Amounts of one scale, each of 15 digits: a group's sum passes 2^52 and 2^53 with no other reason to move it. */
const bigOfOneScale = fc.integer({ min: 100_000_000_000_001, max: 999_999_999_999_999 }).map(String);

const same = (a: Amount | undefined, b: Amount | undefined, what: string) => {
  assert.equal(a === undefined, b === undefined, what);
  if (a && b) assert.equal(compareAmounts(a, b), 0, `${what}: ${a.units}e-${a.scale} ≠ ${b.units}e-${b.scale}`);
};

function sameReading(got: AmountReading, want: AmountReading, what: string): void {
  assert.equal(got.n, want.n, `${what} n`);
  assert.equal(got.skipped, want.skipped, `${what} skipped`);
  assert.equal(got.scale, want.scale, `${what} scale`);
  same(got.sum(), want.sum(), `${what} sum`);
  same(got.min(), want.min(), `${what} min`);
  same(got.max(), want.max(), `${what} max`);
}

describe('amounts kept column by column', () => {
  it('are, group by group and in the totals, exactly what an accumulator per group keeps', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), amountText), { minLength: 1, maxLength: 150 }),
          fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), bigOfOneScale), { minLength: 1, maxLength: 60 }),
        ),
        fc.boolean(),
        (rows, range) => {
          const groups = 1 + rows.reduce((m, [g]) => Math.max(m, g), 0);
          // A small capacity: the columns grow while the rows come.
          const column = new AmountColumn(range, 1);
          let capacity = 1;
          const reference = Array.from({ length: groups }, () => new AmountAccumulator(range));
          for (const [g, text] of rows) {
            while (g >= capacity) column.grow((capacity *= 2));
            if (readDecimal(text, 0, text.length)) {
              column.addRead(g);
              reference[g].addRead();
            } else {
              column.skip(g);
              reference[g].skipped++;
            }
          }
          const totalGot = new AmountAccumulator();
          const totalWant = new AmountAccumulator();
          for (let g = 0; g < groups; g++) {
            sameReading(column.at(g), reference[g], `group ${g}`);
            column.mergeInto(g, totalGot);
            totalWant.merge(reference[g]);
          }
          sameReading(totalGot, totalWant, 'total');
          assert.equal(
            column.maxScale(groups),
            reference.reduce((m, r) => Math.max(m, r.scale), 0),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keep a sum past 2^53 exact in a query', () => {
    // Thirteen rows of 999,999,999,999.999 (15 digits each) in group T0: their sum in thousandths passes
    // 2^53 and is odd, so no double holds it.
    const rows = Array.from({ length: 18 }, (_, i) => `"T${i < 13 ? 0 : 1}","999999999999.999","EUR"`);
    const stream = new QueryStream({ groupBy: ['Id'], sum: ['Amount'], min: ['Amount'], currency: 'Currency' });
    stream.push(`"Id","Amount","Currency"\r\n${rows.join('\r\n')}\r\n`);
    const o = stream.end()!;
    assert.equal(o.groups.length, 2);
    assert.deepEqual(o.groups.amount(0, 0).sum(), { units: 12999999999999987n, scale: 3 });
    assert.deepEqual(o.totals[0].amounts[0].sum(), { units: 17999999999999982n, scale: 3 });
    assert.deepEqual(o.groups.amount(1, 0).min(), { units: 999999999999999n, scale: 3 });
  });
});
