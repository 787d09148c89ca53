import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskCardNumber } from '../../src/core/output';

test('card numbers keep their first 6 and last 4 digits only', () => {
  assert.equal(maskCardNumber('4111111111111111'), '411111******1111');
  assert.equal(maskCardNumber('378282246310005'), '378282*****0005');
  assert.equal(maskCardNumber('411111111111'), '411111**1111');
});

test('anything shorter than a card number is hidden whole (11 characters would otherwise show 10)', () => {
  assert.equal(maskCardNumber('41111111111'), '***********');
  assert.equal(maskCardNumber('123'), '***');
  assert.equal(maskCardNumber(''), '');
});
