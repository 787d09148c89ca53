import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FirstSeen } from '../../src/core/rules/firstSeen';

test('FirstSeen answers like a Map of first occurrences, through growth and collisions', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 300 }), fc.nat(8), (keys, expected) => {
      const seen = new FirstSeen(expected);
      const model = new Map<string, number>();
      keys.forEach((k, i) => {
        const row = i + 1;
        const want = model.get(k) ?? 0;
        if (!model.has(k)) model.set(k, row);
        assert.equal(seen.firstRow(k, row), want);
      });
    }),
  );
});

test('FirstSeen with keys crowding one slot (a crafted file): still a Map of first occurrences, through the overflow map and growth', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 3 }), { maxLength: 400 }),
      fc.nat(8),
      fc.integer({ min: 0, max: 3 }),
      (keys, expected, maxProbe) => {
        const seen = new FirstSeen(expected, maxProbe);
        const model = new Map<string, number>();
        keys.forEach((k, i) => {
          const row = i + 1;
          const want = model.get(k) ?? 0;
          if (!model.has(k)) model.set(k, row);
          assert.equal(seen.firstRow(k, row), want);
        });
      },
    ),
  );
});
