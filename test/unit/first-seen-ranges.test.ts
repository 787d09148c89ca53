import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FirstSeen } from '../../src/core/rules/firstSeen';
import { FULL, line, SRC, TODAY } from '../fixtures/lint-cases/helpers';
import { lint } from '../../src/core/rules/lint';
import { saidText } from '../../src/core/output';

// The linter gives FirstSeen its keys as ranges of the strings they stand in (the document, or a row's own
// unescaped text), never cut: the answers must be those of a Map of the strings.

test('FirstSeen over ranges of several strings answers like a Map of the cut strings', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 300 }),
      fc.nat(8),
      fc.integer({ min: 0, max: 3 }),
      fc.boolean(),
      (sources, picks, expected, maxProbe, named) => {
        // The linter names its document as the main source; keys from any other string are kept apart.
        const seen = new FirstSeen(expected, maxProbe, named ? sources[sources.length - 1] : undefined);
        const model = new Map<string, number>();
        picks.forEach(([which, a, b], i) => {
          const source = sources[which % sources.length];
          const from = a % (source.length + 1);
          const to = from + (b % (source.length - from + 1));
          const key = source.slice(from, to);
          const want = model.get(key) ?? 0;
          if (!model.has(key)) model.set(key, i + 1);
          assert.equal(seen.firstRowIn(source, from, to, i + 1), want, JSON.stringify(key));
        });
      },
    ),
  );
});

test('duplicate-order-id finds an id written plainly and quoted with a doubled quote as the same id', () => {
  const row = (id: string) => line(FULL, { ...SRC, 'client-orderid': id });
  const text = [FULL.join(';'), row('A"1'), row('"A""1"'), row('"B;2"'), row('B;2'.replace(';', ',')), row('"B;2"')].join('\n');
  const duplicates = lint(text, { today: TODAY }).diagnostics.filter((d) => d.code === 'duplicate-order-id');
  assert.deepEqual(
    duplicates.map((d) => [d.range.start.line, saidText(d.message)]),
    [
      [2, 'client-orderid "A"1" is already used on row 1'],
      [5, 'client-orderid "B;2" is already used on row 3'],
    ],
  );
});
