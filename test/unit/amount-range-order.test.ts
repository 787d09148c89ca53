import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint } from '../../src/core/rules/lint';
import { FULL, line, SRC, TODAY } from '../fixtures/lint-cases/helpers';

// amount-range compares amount-from and amount-to read in place (in thousandths): it must order every pair
// of valid amounts (up to the columns' 10 characters) as their numbers do.

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }).map(String), { minLength: min, maxLength: max }).map((a) => a.join(''));
const amount = fc
  .tuple(digits(1, 6), fc.option(digits(1, 3), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`))
  .filter((v) => /[1-9]/.test(v));

test('amount-range is reported exactly when amount-from is the greater number', () => {
  const header = [...FULL, 'amount-from', 'amount-to'].filter((c) => c !== 'amount');
  fc.assert(
    fc.property(fc.array(fc.tuple(amount, amount), { minLength: 1, maxLength: 20 }), (pairs) => {
      const rows = pairs.map(([from, to], i) => line(header, { ...SRC, 'client-orderid': `o${i}`, 'amount-from': from, 'amount-to': to }));
      const found = lint([header.join(';'), ...rows].join('\n'), { today: TODAY })
        .diagnostics.filter((d) => d.code === 'amount-range')
        .map((d) => d.range.start.line);
      const expected = pairs.flatMap(([from, to], i) => (Number(from) > Number(to) ? [i + 1] : []));
      assert.deepEqual(found, expected, JSON.stringify(pairs));
    }),
    { numRuns: 300 },
  );
});
