import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackBody, callbackControl, checkControl } from '../../src/core/callbacks';
import { demoControlKey, loadOrCreateDemoMerchant } from '../../src/local-gateway';

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

test('the demo merchant gets a control key once; an older merchant.json keeps its secret and gains a key', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-merchant-'));
  try {
    const older = { consumerKey: 'demo-merchant', endpointId: '1001', consumerSecret: 'kept-secret' };
    fs.writeFileSync(path.join(dir, 'merchant.json'), JSON.stringify(older));
    assert.equal(demoControlKey(dir), undefined);
    const m = loadOrCreateDemoMerchant(dir);
    assert.equal(m.consumerSecret, 'kept-secret');
    assert.ok(m.controlKey.length >= 16);
    assert.equal(demoControlKey(dir), m.controlKey);
    assert.equal(loadOrCreateDemoMerchant(dir).controlKey, m.controlKey, 'stable across starts');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
