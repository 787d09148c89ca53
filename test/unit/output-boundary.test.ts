import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hideCvvs, maskCardNumbers, maskText, safeCsv, safeJson, terminalField, terminalSafe, terminalValue } from '../../src/core/output';
import { terminalText } from '../../src/core/output/terminal';
// Parts of the boundary the faces reach through the functions above, tested where they live.
import { neutraliseFormula } from '../../src/core/output/formulas';
import { maskField } from '../../src/core/output/mask';

// The boundary's own pieces, one shape at a time. test/unit/output-hostile*.test.ts drives every face.

test('a card number is masked in every shape: bare, spaced, dashed, dotted, glued to letters', () => {
  assert.equal(maskCardNumbers('4111111111111111'), '411111******1111');
  assert.equal(maskCardNumbers('4111 1111 1111 1111'), '4111 11** **** 1111');
  assert.equal(maskCardNumbers('4111-1111-1111-1111'), '4111-11**-****-1111');
  assert.equal(maskCardNumbers('4111.1111.1111.1111'), '4111.11**.****.1111');
  assert.equal(maskCardNumbers('card5105105105105100x'), 'card510510******5100x');
  assert.equal(maskCardNumbers('amex 378282246310005.'), 'amex 378282*****0005.');
  assert.equal(maskCardNumbers('id=4012888888881881&x=1'), 'id=401288******1881&x=1');
});

test('a card number followed by more digit groups is found between the separators', () => {
  assert.equal(maskCardNumbers('4111 1111 1111 1111 2031'), '4111 11** **** 1111 2031');
});

test('long ids that fail Luhn, dates, amounts and addresses stay as they are', () => {
  for (const s of [
    '4111111111111112',
    '1234567890123456789',
    '2026-11-26 10:00:00',
    '1688.430',
    '192.168.100.200',
    '30000000000000000001',
  ]) {
    assert.equal(maskCardNumbers(s), s, s);
  }
});

test('a large amount is no card number though its digits pass Luhn; a card number before a decimal tail still is', () => {
  // A query's total of a billion has 13 digits at the report's scale of 3: one in ten passed Luhn.
  for (const s of ['4997482253.120', '-4997482253.12', '{"EUR":"4997482253.120"}', 'sum Amount 4997482253.1', '499748225.31200001'])
    assert.equal(maskCardNumbers(s), s, s);
  assert.equal(maskCardNumbers('4111111111111111.5'), '411111******1111.5');
  assert.equal(maskCardNumbers('4111.1111.1111.1111'), '4111.11**.****.1111', 'four groups are a card shape');
});

test('masking keeps the length, is idempotent and leaves no Luhn-valid card run behind', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('4', '1', '0', '5', ' ', '-', '.', 'a', '9', '7'), { maxLength: 80 }), (chars) => {
      const text = chars.join('');
      const once = maskCardNumbers(text);
      assert.equal(once.length, text.length);
      assert.equal(maskCardNumbers(once), once);
    }),
    { numRuns: 2000 },
  );
});

test('a UUID with a letter is an id, kept whole; a card number beside it or a UUID of digits alone is not', () => {
  // Digit groups 8183-4276-9800-034019 pass Luhn: masked before, the error id a merchant quotes to support broke.
  const id = 'error ID 7bac2e02-8183-4276-9800-034019f2ba4b';
  assert.equal(maskCardNumbers(id), id);
  assert.equal(maskCardNumbers(`${id} card 4111 1111 1111 1111`), `${id} card 4111 11** **** 1111`);
  assert.notEqual(maskCardNumbers('41111111-1111-1111-1111-111111111111'), '41111111-1111-1111-1111-111111111111');
});

test('an id column is exact unless it holds a card number', () => {
  assert.equal(maskField('serial-number', '4012888888881881'), '401288******1881');
  assert.equal(maskField('client-orderid', '4111111111111111'), '411111******1111');
  assert.equal(maskField('recurring-payment-id', '7000001'), '7000001');
  assert.equal(maskField('Transaction_id', '1234567890123456789'), '1234567890123456789');
});

test('labelled CVVs are hidden in form, query, JSON and text shapes', () => {
  assert.equal(hideCvvs('a=1&cvv=123&b=2'), 'a=1&cvv=•••&b=2');
  assert.equal(hideCvvs('/cb?cvv2=4567'), '/cb?cvv2=•••');
  assert.equal(hideCvvs('{"cvv2": "123", "x": 1}'), '{"cvv2": "•••", "x": 1}');
  assert.equal(hideCvvs('CVC: 123 thanks'), 'CVC: ••• thanks');
  assert.equal(hideCvvs('card_cvv=999'), 'card_cvv=•••');
  assert.equal(hideCvvs('order 12345 in ccvv'), 'order 12345 in ccvv');
  // Percent-encoded, as in a query string or an OAuth base string (`&` itself encoded as %26).
  assert.equal(hideCvvs('a%26cvv%3D7319%26b cvv2%253D123 CVC%3a 999'), 'a%26cvv%3D•••%26b cvv2%253D••• CVC%3a •••');
  // maskText, the masker of free text, hides them too.
  assert.equal(maskText('error: cvv 737 wrong for 4111111111111111'), 'error: cvv ••• wrong for 411111******1111');
});

test('control characters reach no terminal raw; one value stays on one line', () => {
  assert.equal(terminalText('a\x1b]52;c;aGk=\x07b'), 'a\\x1b]52;c;aGk=\\x07b');
  assert.equal(terminalText('x\r\ny\rz\u202e\u0085\u007f'), 'x\r\ny\\rz\\u202e\\u0085\\u007f');
  // A JSON document that passes a terminal stays JSON.
  assert.deepEqual(JSON.parse(terminalText(JSON.stringify({ a: 'x\u009b\u202e\u007f' }))), { a: 'x\u009b\u202e\u007f' });
  assert.equal(terminalText('col\tcol\n'), 'col\tcol\n');
  assert.equal(terminalValue('line1\nline2\ttab\r'), 'line1\\nline2\\ttab\\r');
  assert.equal(terminalSafe('pan 4111111111111111 \x1b[2J'), 'pan 411111******1111 \\x1b[2J');
  assert.equal(terminalField('cvv=123\n4111111111111111'), 'cvv=•••\\n411111******1111');
});

test('formulas are neutralised, plain numbers keep their sign', () => {
  for (const s of ['=HYPERLINK("http://x")', '+cmd|" /C calc"!A0', '@SUM(A1)', '\t=1+1', ' =1', '\r@x', '-1+cmd|x', '-', '=1+1']) {
    assert.equal(neutraliseFormula(s), `'${s}`, JSON.stringify(s));
  }
  for (const s of ['-12.50', '+3', '29.900', 'CB-0001', 'a=b', '']) assert.equal(neutraliseFormula(s), s, s);
});

test('JSON we print is masked, has no CVV member and no raw terminal control', () => {
  const text = safeJson({
    Transaction_id: '4111111111111111',
    cvv2: '123',
    note: 'x\u009b31m\u202e',
    nested: [{ CVC: '999', d: 'cvv 123' }],
  });
  assert.doesNotMatch(text, /4111111111111111|123"|999/);
  assert.match(text, /411111\*{6}1111/);
  assert.doesNotMatch(text, /[\u007f-\u009f\u202e]/);
  assert.deepEqual(JSON.parse(text).nested, [{ d: 'cvv •••' }]);
});

test('a CSV we write: masked in every cell, CVV columns left out, formulas neutralised unless raw', () => {
  const records = [
    ['order', 'CVV2', 'note', 'amount'],
    ['=1+1', '737', 'card 4111 1111 1111 1111, cvv=123', '-12.50'],
    ['\t=HYPERLINK("x")', '', '@SUM(A1)', '+3'],
  ];
  assert.equal(
    safeCsv(records),
    'order,note,amount\r\n\'=1+1,"card 4111 11** **** 1111, cvv=•••",-12.50\r\n"\'\t=HYPERLINK(""x"")",\'@SUM(A1),+3\r\n',
  );
  const raw = safeCsv(records, { raw: true, delimiter: ';' });
  assert.equal(raw.split('\r\n')[1], '=1+1;card 4111 11** **** 1111, cvv=•••;-12.50');
  assert.equal(safeCsv([]), '');
});
