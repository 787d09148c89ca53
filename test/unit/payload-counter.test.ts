import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PayloadCounter, payloadLength } from '../../src/core/payload';

// A batch checked from disk is weighed piece by piece (batch-too-large in the editor for a file over
// 50 MB): the count must be the whole text's, wherever the pieces are cut (a CRLF split between two, a
// BOM, line breaks of every kind at the end, characters of every UTF-8 length).

const alphabet = fc.constantFrom('a', ';', '"', '\r', '\n', '\r\n', 'é', '€', '😀', '\ufeff', ' ');
const text = fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join(''));

function counted(t: string, cuts: number[]): number {
  const counter = new PayloadCounter();
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    // Never inside a surrogate pair: the decoder gives whole characters.
    const at = Math.min(cut, t.length);
    if (at <= from || (at < t.length && t.charCodeAt(at) >= 0xdc00 && t.charCodeAt(at) <= 0xdfff)) continue;
    counter.push(t.slice(from, at));
    from = at;
  }
  counter.push(t.slice(from));
  return counter.length();
}

test('the payload counted piece by piece is the whole text payload, wherever it is cut', () => {
  fc.assert(
    fc.property(text, fc.array(fc.nat({ max: 80 }), { maxLength: 8 }), (t, cuts) => {
      assert.equal(counted(t, cuts), payloadLength(t));
    }),
    { numRuns: 2000 },
  );
});

test('examples: a CRLF cut in two is one break, the final run of breaks one CRLF, a leading BOM nothing', () => {
  assert.equal(counted('a;b\r\nc\r\n\r\n\n', [4]), payloadLength('a;b\r\nc\r\n'));
  assert.equal(counted('\ufeffh\nr', [1, 2]), payloadLength('h\r\nr'));
  assert.equal(counted('', []), 0);
});
