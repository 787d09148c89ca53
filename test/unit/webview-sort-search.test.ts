// The results page's sort and search at the edges that matter for large reports: decimal keys sorted as
// 32-bit integers, and the characters where a case-insensitive regular expression and lower-casing disagree.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { sortIndices } from '../../webview-ui/columnKinds';
import { radixSortIndices } from '../../webview-ui/radixSort';
import { ColumnStore } from '../../webview-ui/store';

describe('radix sort of decimal keys', () => {
  it('radix-sorts decimal keys (sorted as 32-bit integers when they fit) like the comparison sort (property)', () => {
    // Amount-like keys with 0-3 places, in ranges below and above 2^32 once scaled, with ties and NaN.
    const decimal = fc
      .tuple(fc.integer({ min: -(2 ** 33), max: 2 ** 33 }), fc.constantFrom(1, 10, 100, 1000), fc.integer({ min: 0, max: 40 }))
      .map(([n, scale, shift]) => Math.trunc(n / 2 ** shift) / scale);
    fc.assert(
      fc.property(fc.array(fc.oneof(decimal, fc.constant(NaN)), { maxLength: 300 }), fc.boolean(), (values, desc) => {
        const keys = Float64Array.from(values);
        assert.deepEqual([...radixSortIndices(keys.length, keys, desc)], [...sortIndices(keys.length, keys, desc)]);
      }),
    );
  });
});

describe('case-insensitive search without a lower-cased copy', () => {
  it('matches each character where the i flag and lower-casing disagree as lower-casing does', () => {
    // [value, needle]: the i flag alone says the opposite of lower-casing for each.
    const cases: [string, string][] = [
      ['\u212a', 'k'],
      ['\u212b', 'å'],
      ['\u039c', 'µ'],
      ['\u03bc', 'µ'],
      ['\u1e9e', 'ß'],
      ['x\u0130', 'i'],
    ];
    for (const [value, needle] of cases) {
      const expected = value.toLowerCase().includes(needle) ? 1 : 0;
      assert.notEqual(new RegExp(needle, 'i').test(value) ? 1 : 0, expected);
      const store = new ColumnStore();
      store.reset(['v']);
      store.addRows([['zzz'], [value]]);
      const hits = new Uint8Array(2);
      store.matchPiece(0, needle, -1, hits);
      assert.deepEqual([...hits], [0, expected], `${JSON.stringify(value)} and ${needle}`);
    }
  });
});
