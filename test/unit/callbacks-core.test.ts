import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { callbackBody, callbackControl, checkControl } from '../../src/core/callbacks';

const charge = { status: 'approved', orderid: '42', 'client-orderid': 'ORD-1', amount: '10.000', currency: 'EUR' };

test('control is SHA-1 over status + orderid + client-orderid + control key, lowercase hex', () => {
  const expected = createHash('sha1').update('approved42ORD-1k3y').digest('hex');
  assert.equal(callbackControl('approved', '42', 'ORD-1', 'k3y'), expected);
  const fields = Object.fromEntries(new URLSearchParams(callbackBody(charge, 'k3y')));
  assert.equal(fields['control'], expected);
  assert.equal(fields['orderid'], '42');
  assert.equal(fields['recurring-payment-id'], '42');
});

test('a received callback is valid with the right key, invalid with another or when altered, absent without control', () => {
  const fields = Object.fromEntries(new URLSearchParams(callbackBody(charge, 'k3y')));
  assert.equal(checkControl(fields, 'k3y'), 'valid');
  assert.equal(checkControl({ ...fields, control: fields['control']!.toUpperCase() }, 'k3y'), 'valid');
  assert.equal(checkControl(fields, 'other'), 'invalid');
  assert.equal(checkControl({ ...fields, status: 'declined' }, 'k3y'), 'invalid');
  assert.equal(checkControl(Object.fromEntries(new URLSearchParams(callbackBody(charge))), 'k3y'), 'absent');
  assert.equal(checkControl(fields, undefined), undefined);
});

test('callbacks carry no card number', () => {
  assert.doesNotMatch(callbackBody(charge, 'k'), /\d{12,}/);
});
