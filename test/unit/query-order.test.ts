import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { moneyKind } from '../../src/core/query/kinds';
import { rankValues } from '../../src/core/query/order';
import { QueryStream } from '../../src/core/query/stream';
import { sortByKey } from '../fixtures/query/keyOrder';

// Issue 40: a query's groups are put in order by ranking each column's interned values once and a counting
// sort per column (src/core/query/order.ts), and the tree of groups takes the currency and kind the query
// added first. Both must leave the answer as it was: the same groups, each with its own rows, in the order
// the old comparison of keys gave (test/fixtures/query/keyOrder.ts), however numbers, long numbers, equal
// numbers written differently and text mix.

const value = fc.oneof(
  fc.integer({ min: -30, max: 30 }).map(String),
  fc.constantFrom('1.5', '1.50', '01.5', '-0', '0', '0.0', '2', '2.000', '10', '9.99'),
  // More than 15 digits: compared exactly, not as doubles.
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 22n }).map((n) => `${n}`),
  fc.constantFrom('12345678901234567.5', '12345678901234567.50', '12345678901234568'),
  fc.constantFrom('', 'a', 'A', 'b', 'T1', 'T10', 'T2', 'é', 'Zz', '1a', '1.2.3', '-', ' 7'),
);

const row = fc.record({
  id: value,
  note: value,
  currency: fc.constantFrom('EUR', 'USD', 'GBP'),
  type: fc.constantFrom('Sale approved', 'Refund', 'Payout', 'Chargeback', 'Other thing'),
});

const csv = (rows: { id: string; note: string; currency: string; type: string }[]) =>
  [
    '"Transaction_id","Note","Amount","Currency","Transaction_type"',
    ...rows.map((r) => [r.id, r.note, '1.00', r.currency, r.type].map((v) => `"${v}"`).join(',')),
  ].join('\r\n') + '\r\n';

describe("the order of a query's groups", () => {
  it('is the old comparison of keys, and each group holds its own rows', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 80 }), fc.boolean(), (rows, two) => {
        const groupBy = two ? ['Transaction_id', 'Note'] : ['Transaction_id'];
        const stream = new QueryStream({ groupBy, sum: ['Amount'] });
        stream.push(csv(rows));
        const outcome = stream.end()!;
        const keys = outcome.groups.slice().map((g) => g.key.join('\u0000'));
        // The reference order, from the groups in another order (their reverse).
        const reference = sortByKey(outcome.groups.slice().reverse(), outcome.plan.groups.length).map((g) => g.key.join('\u0000'));
        assert.deepEqual(keys, reference);
        // Each group's rows: counted by hand, by the user's columns, the currency and the kind of money.
        const counts = new Map<string, number>();
        for (const r of rows) {
          const k = [...(two ? [r.id, r.note] : [r.id]), r.currency, moneyKind(r.type)].join('\u0000');
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        assert.deepEqual(new Map(outcome.groups.slice().map((g) => [g.key.join('\u0000'), g.count])), counts);
      }),
      { numRuns: 300 },
    );
  });

  it('ranks numbers first, in order, then text; equal numbers by their text', () => {
    const values = ['b', '10', '2', 'A', '1.50', '1.5', '-3', '12345678901234567890', '1e3'];
    const rank = rankValues(values);
    const ordered = [...values].sort((a, b) => rank[values.indexOf(a)] - rank[values.indexOf(b)]);
    assert.deepEqual(ordered, ['-3', '1.5', '1.50', '2', '10', '12345678901234567890', '1e3', 'A', 'b']);
  });
});
