import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackControl, callbackQuery, checkControl, repeatKey, withQuery } from '../../src/core/callbacks';
import { demoControlKey, loadOrCreateDemoMerchant } from '../../src/local-gateway';

// Facts from the gateway family's public documentation ("Merchant Callbacks", "Merchant callback
// parameters") and its official PHP library (payneteasy/php-library-payneteasy-api): the required fields of
// Callback/ServerCallbackUrlCallback.php are orderid, merchant_order, client_orderid, amount, status, type
// and control, merchant_order and client_orderid both the merchant's order id; Callback/AbstractCallback.php
// checks `control` as "SHA-1 checksum of the concatenation status + orderid + client_orderid +
// merchant-control". The expected values below are computed with node:crypto here, not with our function.

const charge = { type: 'sale', status: 'approved', orderid: '42', client_orderid: 'ORD-1', amount: '10.000', currency: 'EUR' };
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

test("a callback carries the required fields under the gateway's names, control = SHA-1(status + orderid + client_orderid + key)", () => {
  const fields = Object.fromEntries(new URLSearchParams(callbackQuery(charge, 'k3y')));
  for (const name of ['orderid', 'merchant_order', 'client_orderid', 'amount', 'status', 'type', 'control'])
    assert.ok(fields[name] !== undefined && fields[name] !== '', `${name} is sent`);
  assert.equal(fields['merchant_order'], 'ORD-1');
  assert.equal(fields['client_orderid'], 'ORD-1');
  assert.equal(fields['type'], 'sale');
  assert.equal(fields['control'], sha1('approved42ORD-1k3y'));
  assert.equal(callbackControl('declined', '7', 'X', 'key'), sha1('declined7Xkey'));
  assert.equal(fields['client-orderid'], undefined, 'no hyphenated name beside the real one');
});

test('control: valid with the right key (either case), invalid with another key or an altered field, absent without, unknown without a key', () => {
  const key = 'merchant-control-key';
  const fields = { status: 'approved', orderid: '9001', client_orderid: 'INV-7', type: 'sale', amount: '5.00' };
  const signed = { ...fields, control: sha1(`approved9001INV-7${key}`) };
  assert.equal(checkControl(signed, key), 'valid');
  assert.equal(checkControl({ ...signed, control: signed.control.toUpperCase() }, key), 'valid');
  assert.equal(checkControl(signed, 'another-key'), 'invalid');
  for (const altered of ['status', 'orderid', 'client_orderid'] as const)
    assert.equal(checkControl({ ...signed, [altered]: `${signed[altered]}x` }, key), 'invalid', altered);
  // amount and type are not in the formula: changing them keeps the control valid (the formula, not our wish).
  assert.equal(checkControl({ ...signed, amount: '6.00' }, key), 'valid');
  assert.equal(checkControl(fields, key), 'absent');
  assert.equal(checkControl(signed, undefined), undefined);
});

test('callbacks kept before this change (client-orderid, recurring-payment-id) are still checked', () => {
  const key = 'k';
  const old = { status: 'approved', 'recurring-payment-id': '77', 'client-orderid': 'OLD-1', control: sha1('approved77OLD-1k') };
  assert.equal(checkControl(old, key), 'valid');
  assert.equal(checkControl({ ...old, 'client-orderid': 'OLD-2' }, key), 'invalid');
});

test('a repeat is the same status, type, orderid and client_orderid, whatever the other fields or the name spelling', () => {
  const a = { status: 'approved', type: 'sale', orderid: '1', client_orderid: 'A', amount: '1.00' };
  assert.equal(repeatKey(a), repeatKey({ ...a, amount: '2.00', control: 'x' }));
  assert.equal(repeatKey(a), repeatKey({ status: 'approved', type: 'sale', orderid: '1', 'client-orderid': 'A' }));
  for (const k of ['status', 'type', 'orderid', 'client_orderid'] as const)
    assert.notEqual(repeatKey(a), repeatKey({ ...a, [k]: 'other' }), k);
  assert.equal(repeatKey({ amount: '1' }), undefined, 'a call without status and orderid is no callback to repeat');
});

test("withQuery keeps the URL's own query and adds the fields after it", () => {
  assert.equal(withQuery('/hook', 'a=1'), '/hook?a=1');
  assert.equal(withQuery('/hook?shop=7', 'a=1'), '/hook?shop=7&a=1');
  assert.equal(withQuery('/hook?', 'a=1'), '/hook?a=1');
  assert.equal(withQuery('/hook?x=1', ''), '/hook?x=1');
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
