import { test } from 'node:test';
import { lint } from '../../src/core/rules/lint';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hideCvvs, isCvvName, maskCardNumbers, maskText, safeBody, safeCsv, safeJson } from '../../src/core/output';
import { withoutSeparators } from '../../src/core/output/cardNumbers';
import { maskCardValue, maskQuotedValue } from '../../src/core/output/mask';
import { neutraliseFormula } from '../../src/core/output/formulas';
import { luhnValidIn } from '../../src/core/luhn';
import { cardNumber, oneOf, SCRIPTS, SEPARATORS, written } from '../fixtures/cardShapes';
import { saidText } from '../../src/core/output';

// What a person reads as a card number (issue 38): digits of any script, groups joined by any separator a
// person writes or cannot see, percent-encoded; and what is not one though its digits pass Luhn (dates
// beside amounts, hashes, row keys, UUIDs). The one notion lives in src/core/output/cardNumbers.ts.

const inScript = (digits: string, script: string) => [...digits].map((d) => [...script][+d]).join('');

/** A card number whole in `text`: after folding digits to ASCII and removing separators. */
const holdsWhole = (text: string, pan: string) => withoutSeparators(text).includes(pan);

test('digit groups joined by any separator are one card number, masked in place', () => {
  for (const [name, sep] of Object.entries(SEPARATORS)) {
    const text = `card ${['4111', '1111', '1111', '1111'].join(sep)} ok`;
    const masked = maskCardNumbers(text);
    assert.equal(masked, `card ${['4111', '11**', '****', '1111'].join(sep)} ok`, name);
  }
  // Mixed, and runs of several.
  assert.equal(maskCardNumbers('5105\u200b \u20131051\u00a0\u2060 0510-_5100'), '5105\u200b \u201310**\u00a0\u2060 ****-_5100');
});

test('digits of every script are counted by their value and kept in their script', () => {
  for (const [name, script] of Object.entries(SCRIPTS)) {
    const text = inScript('4111111111111111', script);
    const masked = maskCardNumbers(text);
    assert.equal(withoutSeparators(masked), '411111******1111', name);
    assert.ok(masked.startsWith(inScript('411111', script)), name);
  }
  // Scripts mixed in one number, with separators.
  assert.equal(maskCardNumbers('４１１１ 1111 ١١١١ 1111'), '４１１１ 11** **** 1111');
  // A Luhn-failing number in any script is no card.
  assert.equal(maskCardNumbers(inScript('4111111111111112', SCRIPTS.fullwidth)), inScript('4111111111111112', SCRIPTS.fullwidth));
});

test('a card number percent-encoded after a bracket, #, a control character or once more is found', () => {
  assert.equal(maskCardNumbers('d%3D%284453331478932885%29'), 'd%3D%28445333******2885%29');
  assert.equal(
    maskCardNumbers('d%253D%25284453331478932885%2529'),
    'd%253D%2528445333******2885%2529',
    'as an OAuth base string encodes it',
  );
  assert.equal(maskCardNumbers('x=%234111111111111111'), 'x=%23411111******1111');
  assert.equal(maskCardNumbers('x=%014111111111111111%0A'), 'x=%01411111******1111%0A');
  assert.equal(maskCardNumbers('n=4111%E2%80%8B1111%E2%80%8B1111%E2%80%8B1111'), 'n=4111%E2%80%8B11**%E2%80%8B****%E2%80%8B1111');
  assert.equal(maskCardNumbers('n=4111+1111+1111+1111'), 'n=4111+11**+****+1111');
  // Encoded digits: each hidden one's escape becomes one `*`.
  assert.equal(maskCardNumbers('n=%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31'), 'n=%34%31%31%31%31%31******%31%31%31%31');
  assert.equal(maskCardNumbers('100%25 of 4111111111111112'), '100%25 of 4111111111111112');
});

test('dates beside amounts, content hashes, row keys and UUIDs are not card numbers', () => {
  for (const s of [
    // Date and amount joined on one line: 2812202529990 passes Luhn (issue 38).
    '28.12.2025 29.990 EUR',
    '29.990 28.12.2025',
    '2025-12-28 29.990',
    '12/28/2025 29.990',
    '28.12.2025\t29.990\tEUR',
    // A content hash with a long digit run, a row key, a checksum, a UUID.
    'sha256 3f610918441111111111111111975a0cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'row 4111111111111111abcdef01',
    'checksum 4111111111111111abcdef0123456789abcdef01',
    'error 7bac2e02-8183-4276-9800-034019f2ba4b',
  ]) {
    assert.equal(maskCardNumbers(s), s, s);
  }
  // A card number beside a date is still one.
  assert.equal(maskCardNumbers('28.12.2025 4111 1111 1111 1111'), '28.12.2025 4111 11** **** 1111');
  // A run of 13 digits ending in a date-like group is not a date: checked whole.
  assert.equal(maskCardNumbers('4111.1111.1111.1111'), '4111.11**.****.1111');
  // Hex of the wrong length, or glued to more letters, is scanned.
  assert.equal(maskCardNumbers('key 4111111111111111abcdef0'), 'key 411111******1111abcdef0');
});

test('free text and quoted values: the same notion, looser where a mistyped number is still a card', () => {
  assert.equal(maskText('call ４１１１ １１１１ １１１１ １１１２ now'), 'call ４１１１ １１** **** １１１２ now');
  assert.equal(maskQuotedValue('x4111\u200b1111\u200b1111\u200b1112y'), 'x4111\u200b11**\u200b****\u200b1112y');
  assert.equal(maskCardValue('４１１１\u00a01111\u20131111 1111'), '411111******1111');
  assert.equal(
    maskText('amount 29.990 on 28.12.2025, id 7bac2e02-8183-4276-9800-034019f2ba4b'),
    'amount 29.990 on 28.12.2025, id 7bac2e02-8183-4276-9800-034019f2ba4b',
  );
});

test('a callback body holding card numbers of other scripts under a neutral name is masked', () => {
  // Kept raw before: the store let values with fewer than 3 ASCII digits through unscanned.
  const body = JSON.stringify({ note: '４１１１１１１１１１１１１１１１', more: ['٣٧٨٢٨٢٢٤٦٣١٠٠٠٥'] });
  assert.equal(safeBody(body, 'application/json'), JSON.stringify({ note: '４１１１１１******１１１１', more: ['٣٧٨٢٨٢*****٠٠٠٥'] }));
  assert.equal(
    safeBody(
      'note=%EF%BC%94%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91%EF%BC%91',
      'application/x-www-form-urlencoded',
    ).includes('******'),
    true,
  );
});

test('one table of CVV names, matched whatever the case and separators', () => {
  for (const name of [
    'cvv2',
    'CVV',
    'cvc',
    'CVC2',
    'cid',
    'CSC',
    'card_cvc',
    'Card-CVC',
    'cvv_code',
    'cvvNumber',
    'cvv number',
    'security_code',
    'Security Code',
    'card verification value',
    'Card_Verification_Code',
    'cardCode',
    'cvv-2',
  ]) {
    assert.ok(isCvvName(name), name);
  }
  for (const name of ['cvc_check', 'card', 'code', 'city', 'acid', 'currency', 'security']) assert.ok(!isCvvName(name), name);
  assert.equal(
    hideCvvs(
      'cid: 1234, card_cvc=737 cvv_code 123 "cvv_number":"456" Card Verification Value 789 security-code ７３１９ CVV-2 999 cvc%3D321',
    ),
    'cid: •••, card_cvc=••• cvv_code ••• "cvv_number":"•••" Card Verification Value ••• security-code ••• CVV-2 ••• cvc%3D•••',
  );
  assert.equal(hideCvvs('acid 123, city 456'), 'acid 123, city 456');
  // Its pre-scan (fewer than 3 characters that may be digits: nothing to hide) holds for every script:
  // below U+0660 the only decimal digits are ASCII's.
  for (let c = 0; c < 0x660; c++) assert.equal(/\p{Nd}/u.test(String.fromCharCode(c)), c >= 0x30 && c <= 0x39, c.toString(16));
  for (const [script, digits] of Object.entries(SCRIPTS))
    assert.equal(hideCvvs(`cvv: ${[...digits].slice(1, 4).join('')}`), 'cvv: •••', script);
  assert.equal(hideCvvs('march.rpcsv, cvv2 12'), 'march.rpcsv, cvv2 12');
  // The pre-scan folds case as the label pattern does: a long s (U+017F) reads as `s` to both.
  assert.equal(hideCvvs('ſecurity code: 1234'), 'ſecurity code: •••');
  // Every door drops the member or column by the same table.
  assert.equal(safeJson({ card_cvc: '737', cvv_code: '1', CID: '2', ok: 'y' }), '{"ok":"y"}');
  assert.equal(
    safeCsv([
      ['a', 'cvv_number', 'Security Code'],
      ['1', '2', '3'],
    ]),
    'a\r\n1\r\n',
  );
});

test('a cell starting with tab or CR before a formula character is neutralised', () => {
  for (const s of ['\t=1+1', '\r=1+1', '\t\r@SUM(A1)', '\r\t+cmd', '\t-1+cmd|x'])
    assert.equal(neutraliseFormula(s), `'${s}`, JSON.stringify(s));
});

test('the one Luhn check serves the rules and the boundary', () => {
  assert.ok(luhnValidIn('4111111111111111', 0, 16));
  assert.ok(!luhnValidIn('4111111111111112', 0, 16));
  assert.ok(luhnValidIn('x4111111111111111x', 1, 17));
});

test('property: a card number in any script, split by any separators, never leaves whole', () => {
  const seps = Object.values(SEPARATORS);
  const scripts = Object.values(SCRIPTS);
  fc.assert(
    fc.property(
      cardNumber,
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
      fc.array(oneOf(seps), { minLength: 8, maxLength: 8 }),
      fc.array(oneOf(scripts), { minLength: 20, maxLength: 20 }),
      fc.constantFrom('', 'card ', 'x', 'paid: ', '"'),
      fc.constantFrom('', ' ok', 'y', '.', '"'),
      fc.boolean(),
      (pan, cuts, sepPick, scriptPick, before, after, encode) => {
        // Groups of the chosen sizes (the rest one group), each digit in its own script, joined by separators.
        const shape = written(pan, cuts, sepPick, scriptPick);
        const text = `${before}${encode ? encodeURIComponent(shape) : shape}${after}`;
        for (const out of [maskCardNumbers(text), maskText(text), safeJson({ v: text }), safeCsv([['v'], [text]])]) {
          const seen = encode ? decodeURIComponent(out.replace(/\*/g, '%2A')) : out;
          assert.ok(!holdsWhole(seen, pan), `${JSON.stringify(text)} → ${JSON.stringify(out)}`);
        }
      },
    ),
    { numRuns: 1500 },
  );
});

/** Typed values a layout puts side by side: dates, amounts, counts, hashes, UUIDs. */
const date = fc
  .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1990, max: 2099 }), fc.boolean())
  .map(([d, m, y, iso]) => {
    const p = (n: number) => String(n).padStart(2, '0');
    return iso ? `${y}-${p(m)}-${p(d)}` : `${p(d)}.${p(m)}.${y}`;
  });
const amount = fc
  .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 999 }))
  .map(([w, f]) => `${w}.${String(f).padStart(3, '0')}`);
const hex = (n: number) => fc.array(oneOf([...'0123456789abcdef']), { minLength: n, maxLength: n }).map((a) => a.join(''));
const hash = hex(64).filter((h) => /[a-f]/.test(h));
const rowKey = hex(24).filter((h) => /[a-f]/.test(h));
const uuid = fc.uuid().filter((u) => /[a-f]/.test(u));

test('property: dates, amounts, hashes, row keys and UUIDs laid out side by side come out intact', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(date, amount, hash, rowKey, uuid, fc.constantFrom('EUR', 'approved', '3')), { minLength: 2, maxLength: 6 }),
      fc.constantFrom(' ', '  ', '\t', ' · '),
      (values, gap) => {
        const line = values.join(gap);
        assert.equal(maskCardNumbers(line), line);
        assert.equal(maskText(line), line);
      },
    ),
    { numRuns: 3000 },
  );
});

test('a "fraction" of a card number\'s length is no amount: a cell quoted into a message masks it (strict)', () => {
  // Found by the incremental lint's property test: notify_url "01.05555555555554444" quoted whole.
  assert.doesNotMatch(maskCardNumbers('"01.05555555555554444"', 'strict'), /5555555555554444/);
  assert.equal(maskCardNumbers('4997482253.120', 'strict'), '4997482253.120');
  assert.equal(maskCardNumbers('12.50 EUR', 'strict'), '12.50 EUR');
});

test('two card numbers joined by separators only are each masked, even when a longer stretch across both passes Luhn', () => {
  // Found by the property through the commands (a report cell "A / B"): 3782 822463 10005 and its
  // neighbour's first group make 19 Luhn-valid digits, which hid A's middle and left B whole.
  assert.equal(maskCardNumbers('3782 822463 10005 / 4002 1111 1111 1113'), '3782 82**** ***** / 4002 11** **** 1113');
  assert.equal(maskCardNumbers('4111 1111 1111 1111 / 5105 1051 0510 5100'), '4111 11** **** 1111 / 5105 10** **** 5100');
});

test("a card cell written with separators or another script keeps six digits and four in lint's message, as a person reads them", () => {
  // Before, the cell was cut by characters (its first six, a separator among them): "5555–5*********4444".
  const header = 'client-orderid;order_desc;rp_card_type;credit-card-number;amount;currency';
  for (const [cell, shown] of [
    ['5555–5555–5555–4444', '555555******4444'],
    ['３７８２ ８２２４６３ １０００５', '378282*****0005'],
    ['4111\u200b1111\u200b1111\u200b1111', '411111******1111'],
  ]) {
    const found = lint(`${header}\no1;d;DST;${cell};1.00;EUR\n`).diagnostics.find((d) => d.columnName === 'credit-card-number');
    const message = found ? saidText(found.message) : '';
    assert.ok(message.includes(`(got "${shown}")`), message);
  }
});
