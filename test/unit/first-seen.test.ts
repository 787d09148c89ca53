import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FirstSeen, type FirstRowTable } from '../../src/core/rules/firstSeen';
import { IdTable } from '../../src/language-server/idTable';
// The hash the tables use (to craft ids that share their first slots).
import { fnv1a } from '../../src/core/fnv';

// Both tables share the core's probe (FirstRowTable) and keep their keys apart: each must answer like a Map
// of first occurrences.
const TABLES: [name: string, make: (expected: number, maxProbe?: number) => FirstRowTable][] = [
  ['FirstSeen', (expected, maxProbe) => new FirstSeen(expected, maxProbe)],
  ['IdTable', (_expected, maxProbe) => new IdTable(maxProbe)],
];

function answersLikeAMap(seen: FirstRowTable, keys: readonly string[]): void {
  const model = new Map<string, number>();
  keys.forEach((k, i) => {
    const row = i + 1;
    const want = model.get(k) ?? 0;
    if (!model.has(k)) model.set(k, row);
    assert.equal(seen.firstRow(k, row), want);
  });
}

for (const [name, make] of TABLES) {
  test(`${name} answers like a Map of first occurrences, through growth and collisions`, () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 300 }), fc.nat(8), (keys, expected) =>
        answersLikeAMap(make(expected), keys),
      ),
    );
  });

  test(`${name} with keys crowding one slot (a crafted file): still a Map of first occurrences, through the overflow map and growth`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 400 }),
        fc.nat(8),
        fc.integer({ min: 0, max: 3 }),
        (keys, expected, maxProbe) => answersLikeAMap(make(expected, maxProbe), keys),
      ),
    );
  });

  test(`${name} past its first thousand slots: still a Map of first occurrences`, () => {
    fc.assert(
      fc.property(fc.array(fc.nat(4000), { minLength: 1000, maxLength: 3000 }), fc.integer({ min: 0, max: 3 }), (ids, maxProbe) =>
        answersLikeAMap(make(0, maxProbe), ids.map(String)),
      ),
      { numRuns: 20 },
    );
  });
}

// Ids crafted to share four neighbouring slots at every size, among ordinary ones: those past maxProbe go to the
// overflow map, and every id is still found, in the slots or in the map, after each doubling.
const CRAFTED: string[] = [];
for (let n = 0; CRAFTED.length < 64; n++) if ((fnv1a(`id${n}`) & 4095) < 4) CRAFTED.push(`id${n}`);

for (const [name, make] of TABLES) {
  test(`${name} with crafted ids crowding four slots through every doubling: still a Map of first occurrences`, () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(CRAFTED, { minLength: 32 }), fc.integer({ min: 1, max: 3 }), (crafted, maxProbe) => {
        const keys = [...crafted, ...Array.from({ length: 3000 }, (_, i) => `row${i}`), ...crafted];
        answersLikeAMap(make(0, maxProbe), keys);
      }),
      { numRuns: 10 },
    );
  });
}
