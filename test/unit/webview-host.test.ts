import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import Papa from 'papaparse';
import { quoteField } from '../../src/core/csv/write';
import { rowsToCsv, rowsToJson, uniqueKeys } from '../../src/extension/results/exportRows';
import { maskCardValue } from '../../src/core/output/mask';
import { sanitiseSubmissionView } from '../../src/extension/results/sanitise';
import { contentSecurityPolicy, makeNonce, renderShell } from '../../src/extension/results/html';
import { sliceText } from '../../src/extension/results/textSlices';

// Exports are comma-separated by default; the one CSV writer takes the delimiter.
const quoteCsvField = (value: string, delimiter = ',') => quoteField(value, delimiter);

describe('export serialisation', () => {
  it('quotes only fields that need it, doubling inner quotes', () => {
    assert.equal(quoteCsvField('plain'), 'plain');
    assert.equal(quoteCsvField('a,b'), '"a,b"');
    assert.equal(quoteCsvField('say "hi"'), '"say ""hi"""');
    assert.equal(quoteCsvField('line\nbreak'), '"line\nbreak"');
    assert.equal(quoteCsvField('a;b', ';'), '"a;b"');
    assert.equal(quoteCsvField('a,b', ';'), 'a,b');
  });

  it('writes CRLF records that papaparse reads back to the same values', () => {
    const columns = ['Amount', 'Order_description'];
    const rows = [['10.000', 'a "quoted", multi\r\nline'], ['=1+1', '<img src=x onerror=alert(1)>'], ['short']];
    const csv = rowsToCsv(columns, rows, { neutraliseFormulas: false });
    assert.ok(csv.endsWith('\r\n'));
    const back = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    assert.deepEqual(back, [columns, rows[0], rows[1], ['short', '']]);
  });

  it('neutralises formula-leading cells unless turned off, and only in CSV; card numbers masked and CVV columns left out either way', () => {
    const rows = [['=HYPERLINK("http://x")', '-5.000', 'ok', '\t=1+1', '4111111111111111', '123']];
    const columns = ['a', 'b', 'c', 'd', 'e', 'cvv2'];
    const off = rowsToCsv(columns, rows, { neutraliseFormulas: false });
    const on = rowsToCsv(columns, rows, { neutraliseFormulas: true });
    assert.equal(off.split('\r\n')[0], 'a,b,c,d,e');
    assert.equal(off.split('\r\n')[1], '"=HYPERLINK(""http://x"")",-5.000,ok,\t=1+1,411111******1111');
    assert.equal(on.split('\r\n')[1], `"'=HYPERLINK(""http://x"")",-5.000,ok,'\t=1+1,411111******1111`);
    assert.deepEqual(JSON.parse(rowsToJson(columns, rows)), [
      { a: '=HYPERLINK("http://x")', b: '-5.000', c: 'ok', d: '\t=1+1', e: '411111******1111' },
    ]);
  });

  it('gives repeated header names distinct JSON keys', () => {
    assert.deepEqual(uniqueKeys(['a', 'b', 'a', 'a']), ['a', 'b', 'a (2)', 'a (3)']);
    assert.deepEqual(JSON.parse(rowsToJson(['x', 'x'], [['1', '2']])), [{ x: '1', 'x (2)': '2' }]);
  });
});

describe('submission masking', () => {
  it('keeps the first 6 and last 4 digits', () => {
    assert.equal(maskCardValue('4111111111111111'), '411111******1111');
    assert.equal(maskCardValue('4111 1111 1111 1111'), '411111******1111');
    assert.equal(maskCardValue('411111******1111'), '411111******1111');
    assert.equal(maskCardValue('12345'), '*****');
    assert.equal(maskCardValue(''), '');
  });

  it('drops cvv2, masks card numbers and stray card-like digits, keeps gateway ids', () => {
    const out = sanitiseSubmissionView({
      title: 't',
      outcome: { outcome: 'accepted' },
      fields: { 'serial-number': '1234567890123456', note: 'card 5555555555554444 used' },
      columns: ['client-orderid', 'credit-card-number', 'CVV2', 'order_desc', 'recurring-payment-id'],
      rows: [['000123456789012', '5555555555554444', '123', 'paid with 4111111111111111', '9876543210987654']],
    });
    assert.deepEqual(out.columns, ['client-orderid', 'credit-card-number', 'order_desc', 'recurring-payment-id']);
    assert.deepEqual(out.rows, [['000123456789012', '555555******4444', 'paid with 411111******1111', '9876543210987654']]);
    assert.deepEqual(out.fields, { 'serial-number': '1234567890123456', note: 'card 555555******4444 used' });
    assert.ok(!JSON.stringify(out).includes('123"'), 'the CVV value is gone');
  });
});

describe('panel HTML shell', () => {
  it('has a strict CSP with the nonce and no unsafe-inline', () => {
    const nonce = makeNonce();
    assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
    assert.notEqual(nonce, makeNonce());
    const csp = contentSecurityPolicy('https://x.vscode-cdn.net', nonce);
    assert.ok(csp.startsWith("default-src 'none'"));
    assert.ok(csp.includes(`script-src 'nonce-${nonce}'`));
    assert.ok(csp.includes('style-src https://x.vscode-cdn.net'));
    assert.ok(!csp.includes('unsafe'));
    assert.ok(!csp.includes('connect-src'));
    const html = renderShell({
      cspSource: 'https://x.vscode-cdn.net',
      nonce,
      scriptUri: 'https://x/a.js',
      styleUri: 'https://x/a.css',
      title: '<b>"t"</b>',
    });
    assert.ok(html.includes(`<script nonce="${nonce}" src="https://x/a.js"></script>`));
    assert.ok(html.includes('<title>&lt;b&gt;&quot;t&quot;&lt;/b&gt;</title>'));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(!/\son[a-z]+=/.test(html), 'no inline handlers');
  });
});

describe('text slicing for postMessage', () => {
  it('reassembles exactly and never splits a surrogate pair', () => {
    const text = 'ab😀cd😀😀e'.repeat(7);
    for (const size of [1, 2, 3, 5, 8]) {
      const pieces = [...sliceText(text, size)];
      assert.equal(pieces.join(''), text);
      for (const p of pieces) {
        const first = p.charCodeAt(0);
        const last = p.charCodeAt(p.length - 1);
        assert.ok(!(first >= 0xdc00 && first <= 0xdfff), `piece starts with a low surrogate at size ${size}`);
        assert.ok(!(last >= 0xd800 && last <= 0xdbff), `piece ends with a high surrogate at size ${size}`);
      }
    }
    assert.deepEqual([...sliceText('')], []);
  });
});
