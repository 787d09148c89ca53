// Diagnostic ranges across quoted multi-line fields, every line ending (and mixed), a BOM and UTF-16
// surrogate pairs. Expected positions are counted by hand in the comments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { briefs, sorted, type Brief } from '../fixtures/lint-cases/helpers';

const H = 'client-orderid;order_desc;rp_card_type;credit-card-number;amount;currency';
const b = (code: string, severity: string, range: [number, number, number, number], columnName: string | null): Brief => ({
  code,
  severity,
  range,
  columnName,
});

describe('positions', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`${name}: a cell after a quoted two-line field is on the field's second line`, () => {
      const text = `${H}${eol}o1;"first${eol}second";DST;5555555555554444;0;EUR${eol}`;
      // line 2: second";DST;5555555555554444;0   -> `0` at 29..30
      assert.deepEqual(briefs(text), [b('invalid-value', 'error', [2, 29, 2, 30], 'amount')]);
    });
    it(`${name}: a quoted cell that spans lines is ranged from its opening quote to its closing quote`, () => {
      const text = `${H}${eol}o1;;DST;"4111${eol}1111";1;EUR${eol}`;
      // line 1: o1;;DST;"4111  -> quote at 8; line 2: 1111"  -> end 5
      assert.deepEqual(briefs(text), [b('invalid-value', 'error', [1, 8, 2, 5], 'credit-card-number')]);
    });
    it(`${name}: field-count on a multi-line record covers all its lines`, () => {
      const text = `${H}${eol}o1;"a${eol}b${eol}c";DST${eol}o2;;DST;5555555555554444;1;EUR${eol}`;
      assert.deepEqual(briefs(text), [b('field-count', 'error', [1, 0, 3, 6], null)]);
    });
  }
  it('mixed line endings: CRLF, LF and CR records each on their own line', () => {
    const text = `${H}\r\no1;;DST;5555555555554444;0;EUR\no2;;DST;5555555555554444;1;eur\ro3;;DST;x;1;EUR\r\n`;
    assert.deepEqual(briefs(text), [
      b('invalid-value', 'error', [1, 25, 1, 26], 'amount'), // o1;;DST;5555555555554444;0
      b('invalid-value', 'error', [2, 27, 2, 30], 'currency'),
      b('invalid-value', 'error', [3, 8, 3, 9], 'credit-card-number'),
    ]);
  });
  it('a quoted line break inside a CRLF file that is a lone LF still counts as a line', () => {
    const text = `${H}\r\no1;"a\nb";DST;5555555555554444;1;EUR\r\no1;;DST;5555555555554444;1;EUR\r\n`;
    // line 3 is the second record (the quoted LF ended line 1)
    assert.deepEqual(briefs(text), [b('duplicate-order-id', 'error', [3, 0, 3, 2], 'client-orderid')]);
  });
  it('a BOM shifts header cells by one character on line 0 only', () => {
    const text = `\ufeffclient-orderid;Order_Desc;rp_card_type;credit-card-number;amount;currency\r\no1;;DST;5555555555554444;0;EUR\r\n`;
    assert.deepEqual(briefs(text), [
      b('bom', 'information', [0, 0, 0, 1], null),
      b('column-alias', 'error', [0, 16, 0, 26], 'order_desc'),
      b('invalid-value', 'error', [1, 25, 1, 26], 'amount'),
    ]);
  });
  it('characters are UTF-16 code units: an emoji counts two', () => {
    const text = `${H}\no1;😀😀;DST;5555555555554444;0;EUR\n`;
    // o1;😀😀;DST;5555555555554444;  = 3 + 4 + 1 + 4 + 17 = 29 -> amount at 29..30 (the emoji are 4 units)
    assert.deepEqual(briefs(text), [b('invalid-value', 'error', [1, 29, 1, 30], 'amount')]);
  });
  it('missing-column covers the header line without its line break; a quoted header line break is inside', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount\r\no1;DST;5555555555554444;1\r\n';
    assert.deepEqual(briefs(text), [b('missing-column', 'error', [0, 0, 0, 53], 'currency')]);
    const quoted = '"client-\norderid";rp_card_type;credit-card-number;amount;currency\r\n';
    assert.deepEqual(
      briefs(quoted),
      sorted([b('unknown-column', 'warning', [0, 0, 1, 8], null), b('missing-column', 'error', [0, 0, 1, 56], 'client-orderid')]),
    );
  });
});
