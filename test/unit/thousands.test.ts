import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { thousands } from '../../src/core/thousands';

// thousands() stands in for toLocaleString('en-US') in the messages lint prints (issue 40): the same text.

test('a whole number is grouped exactly as toLocaleString("en-US") groups it', () => {
  for (const n of [0, 1, 12, 123, 1234, 12345, 123456, 1234567, 25_165_824, -1, -1234, -1234567, Number.MAX_SAFE_INTEGER])
    assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
  fc.assert(fc.property(fc.maxSafeInteger(), (n) => thousands(n) === n.toLocaleString('en-US')));
});

test('a fraction or a number beyond the safe integers is written as toLocaleString("en-US") writes it', () => {
  for (const n of [1.5, 1234.5678, -0.25, 1e21, Number.MAX_SAFE_INTEGER * 4, Infinity, NaN])
    assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
});
