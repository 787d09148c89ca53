import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FNV_OFFSET, fnv1a, fnvMix } from '../../src/core/fnv';
import { codeCacheName } from '../../src/cli/codeCache';

// The one FNV-1a (src/core/fnv.ts) that the first-seen tables, the query's interner, card-data-in-git's
// test numbers and the code cache's file name share.

test('FNV-1a 32 gives the published vectors (draft-eastlake-fnv, section 8.1: ASCII text, one byte a character)', () => {
  const cases: [string, number][] = [
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ];
  for (const [text, want] of cases) assert.equal(fnv1a(text) >>> 0, want, JSON.stringify(text));
  assert.equal(FNV_OFFSET, 0x811c9dc5);
});

test('a range is hashed as its slice, a seed as the hash already mixed, and the answer is a signed 32-bit integer', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(), fc.nat(), (s, a, b) => {
      const from = a % (s.length + 1);
      const to = from + (b % (s.length - from + 1));
      const h = fnv1a(s, from, to);
      assert.equal(h, fnv1a(s.slice(from, to)));
      assert.equal(h, h | 0);
      let byHand = FNV_OFFSET;
      for (let i = from; i < to; i++) byHand = fnvMix(byHand, s.charCodeAt(i));
      assert.equal(h, byHand | 0);
      const cut = from + ((to - from) >> 1);
      assert.equal(h, fnv1a(s, cut, to, fnv1a(s, from, cut)));
    }),
  );
});

test("the code cache's file name is the one it had before the hash moved to the core (an upgrade keeps its cache)", () => {
  const name = codeCacheName('/usr/lib/node_modules/paygate-toolkit/dist/cli-main.js');
  assert.equal(name, `cli-main-db83159d-${process.version}-${process.arch}.bin`);
});
