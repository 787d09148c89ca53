// The local gateway's answers as it composes them (issue 38, item 1: mask values, not layouts): a validation
// error is its place (two counts), the rule's message (a Said, each value checked alone) and the rule's code,
// laid out once where the answer leaves, the same in the form-encoded and the JSON answer and in its log line;
// a value a request brings (the endpoint id in its path) is free text, a card number in it masked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saidText } from '../../src/core/output';
import { lint } from '../../src/core/rules/lint';
import { batch, createUrl, formFields, postCreate, START, withGateway } from '../fixtures/local-gateway/helpers';

/** The first error's message as the rules say it, laid out value by value. */
function firstMessage(text: string): string {
  const d = lint(text, { today: START }).diagnostics.find((x) => x.severity === 'error');
  assert.ok(d);
  return saidText(d.message);
}

test("validation-error: line, column, the rule's message and its code, the same words in form and JSON answers and the log", async () => {
  await withGateway(async (gw, _dir, logs) => {
    // rp_card_type is the second field, after "ORD-1;": column 7 of line 2.
    const text = batch([{ rp_card_type: 'XXX' }]);
    const expected = `line 2, column 7: ${firstMessage(text)} [invalid-value]`;
    assert.equal(formFields((await postCreate(gw, text)).text)['error-message'], expected);
    const json = await postCreate(gw, text, { accept: 'application/json' });
    assert.equal((JSON.parse(json.text) as Record<string, string>)['error-message'], expected);
    assert.ok(logs.includes(`create validation-error 118: ${expected}`), logs.join('\n'));
  });
});

test('validation-error: a card number in the quoted cell is masked', async () => {
  await withGateway(async (gw) => {
    const message = formFields((await postCreate(gw, batch([{ email: '4111 1111 1111 1111' }]))).text)['error-message'];
    assert.equal(
      message,
      'line 2, column 68: email must be an e-mail address local@domain.tld (got "4111 11** **** 1111") [invalid-value]',
    );
  });
});

test('an unknown endpoint id holding a card number is masked in the answer and the log (it was answered whole)', async () => {
  await withGateway(async (gw, _dir, logs) => {
    const url = createUrl(gw).replace(`/${gw.merchant.endpointId}/`, '/4111111111111111/');
    const a = await postCreate(gw, batch([{}]), { url });
    assert.equal(a.status, 403);
    const message = formFields(a.text)['error-message'];
    assert.equal(
      message,
      `unknown endpoint id 411111******1111: the consumer key and signature are right, but the endpoint of ${gw.merchant.consumerKey} on this local gateway is ${gw.merchant.endpointId}`,
    );
    assert.ok(!logs.join('\n').includes('4111111111111111'), logs.join('\n'));
    assert.equal(gw.payments().length, 0);
  });
});
