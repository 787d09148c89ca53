// Every quick fix of the rule book, applied as the editor applies it and compared with the full expected
// text; applySafeFixes (`paygate fix`, fix-all) applies the safe ones only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applySafeFixes, type AppliedFixes } from '../../src/core/rules/fixAll';
import { lint, type LintOptions } from '../../src/core/rules/lint';
import { applyFix, lintText, TODAY } from '../fixtures/lint-cases/helpers';

/** The safe fixes applied, and the codes of the problems they fixed, in the order `paygate fix` lists them. */
function fixAll(text: string, options: LintOptions): { text: string; codes: string[]; errors: number } {
  const r = applySafeFixes(text, options);
  return { text: r.text, codes: codesOf(r.applied), errors: r.errors };
}

function codesOf(applied: AppliedFixes): string[] {
  return Array.from({ length: applied.count }, (_, k) => applied.at(k).code);
}

/** Applies the only fix of the only diagnostic with `code`, checking its safety. */
function applyOne(text: string, code: string, safe: boolean, fixIndex = 0): string {
  const found = lintText(text).filter((d) => d.code === code);
  assert.equal(found.length, 1, `one ${code} expected, got ${found.length}`);
  const fix = found[0].fixes[fixIndex];
  assert.ok(fix, `no fix on ${code}`);
  assert.equal(fix.safe, safe, `${code} fix safety`);
  return applyFix(text, fix.edits);
}

const MIN = 'client-orderid;rp_card_type;credit-card-number;amount;currency';

describe('rename fixes', () => {
  it('column-alias: the header cell is renamed, nothing else changes', () => {
    const text = `client-orderid;rp_card_type;credit-card-number;amount;currency;notify-url\r\no1;DST;5555555555554444;1;EUR;https://x.example/\r\n`;
    assert.equal(applyOne(text, 'column-alias', true), text.replace('notify-url', 'notify_url'));
  });
  it('column-alias on a quoted, spaced or BOM-prefixed cell replaces the whole cell', () => {
    const text = `\ufeff" Client_OrderId ";rp_card_type;credit-card-number;amount;currency\no1;DST;5555555555554444;1;EUR\n`;
    assert.equal(
      applyOne(text, 'column-alias', true),
      `\ufeffclient-orderid;rp_card_type;credit-card-number;amount;currency\no1;DST;5555555555554444;1;EUR\n`,
    );
  });
  it('unknown-column close to a column: rename offered, not safe', () => {
    const text = `${MIN};cvv\no1;DST;5555555555554444;1;EUR;123\n`;
    assert.equal(applyOne(text, 'unknown-column', false), `${MIN};cvv2\no1;DST;5555555555554444;1;EUR;123\n`);
  });
});

describe('value fixes', () => {
  const row = (type: string) => `${MIN}\no1;${type};5555555555554444;1;EUR\n`;
  it('rp_card_type in the wrong case is upper-cased (safe)', () => {
    assert.equal(applyOne(row('dst'), 'invalid-value', true), row('DST'));
    assert.equal(applyOne(row('Src'), 'invalid-value', true).split('\n')[1], 'o1;SRC;5555555555554444;1;EUR');
  });
  it('an unknown card type has no fix', () => {
    const [d] = lintText(row('XYZ'));
    assert.deepEqual(d.fixes, []);
  });
  it('expire-month with one digit is padded; 0 and two-digit errors have no fix', () => {
    const h = 'client-orderid;rp_card_type;credit-card-number;amount;currency;expire-month;expire-year';
    const t = (m: string) => `${h}\no1;DST;5555555555554444;1;EUR;${m};2030\n`;
    assert.equal(applyOne(t('5'), 'invalid-value', true), t('05'));
    assert.equal(applyOne(t('9'), 'invalid-value', true), t('09'));
    for (const m of ['0', '13', '00']) assert.deepEqual(lintText(t(m))[0].fixes, [], m);
  });
  const dates: [string, string | null][] = [
    ['1/2/2027', '01.02.2027'],
    ['01/02/2027', '01.02.2027'],
    ['1-2-2027', '01.02.2027'],
    ['15-12-2027', '15.12.2027'],
    ['2027-02-01', '01.02.2027'],
    ['29/02/2028', '29.02.2028'],
    ['31/02/2027', null],
    ['2027-02-30', null],
    ['1/2-2027', null],
    ['2027-2-1', null],
    ['1/2/27', null],
  ];
  for (const [written, fixed] of dates) {
    it(`date ${written} → ${fixed ?? 'no fix'}`, () => {
      const h = `${MIN};start-date;finish-date`;
      const t = (v: string) => `${h}\r\no1;DST;5555555555554444;1;EUR;01.01.2027;${v}\r\n`;
      if (fixed) assert.equal(applyOne(t(written), 'invalid-value', true), t(fixed));
      else assert.deepEqual(lintText(t(written)).find((d) => d.code === 'invalid-value')?.fixes, []);
    });
  }
});

describe('bom and dst-unsupported', () => {
  it('the BOM is dropped (safe)', () => {
    const body = `${MIN}\no1;DST;5555555555554444;1;EUR\n`;
    assert.equal(applyOne(`\ufeff${body}`, 'bom', true), body);
  });
  it('dst-unsupported: the cell is cleared (not safe), quoted multi-line value included', () => {
    const text = `${MIN};city;purpose\no1;DST;5555555555554444;1;EUR;"Ber\r\nlin";\no2;DST;5555555555554444;1;EUR;;gift\n`;
    const diags = lintText(text).filter((d) => d.code === 'dst-unsupported');
    assert.equal(diags.length, 2);
    assert.ok(diags.every((d) => d.fixes.length === 1 && !d.fixes[0].safe));
    assert.equal(
      applyFix(text, diags[0].fixes[0].edits),
      `${MIN};city;purpose\no1;DST;5555555555554444;1;EUR;;\no2;DST;5555555555554444;1;EUR;;gift\n`,
    );
    assert.equal(
      applyFix(
        text,
        diags.flatMap((d) => d.fixes[0].edits),
      ),
      `${MIN};city;purpose\no1;DST;5555555555554444;1;EUR;;\no2;DST;5555555555554444;1;EUR;;\n`,
    );
  });
});

describe('missing-column: append to the header and an empty field to every row', () => {
  it('across CRLF rows with quoted multi-line fields, skipping trailing blank lines', () => {
    const text =
      'client-orderid;rp_card_type;credit-card-number;amount\r\no1;DST;5555555555554444;1\r\n"o\r\n2";DST;5555555555554444;"1\r\n"\r\n\r\n';
    const expected =
      'client-orderid;rp_card_type;credit-card-number;amount;currency\r\no1;DST;5555555555554444;1;\r\n"o\r\n2";DST;5555555555554444;"1\r\n";\r\n\r\n';
    assert.equal(applyOne(text, 'missing-column', false), expected);
  });
  it('without a final line break, with LF', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;currency\no1;DST;5555555555554444;EUR';
    assert.equal(applyOne(text, 'missing-column', false, 0), `${text.split('\n')[0]};amount\no1;DST;5555555555554444;EUR;`);
    assert.equal(applyOne(text, 'missing-column', false, 1), `${text.split('\n')[0]};amount-from;amount-to\no1;DST;5555555555554444;EUR;;`);
    assert.equal(applyOne(text, 'missing-column', false, 2), `${text.split('\n')[0]};amount-sequence\no1;DST;5555555555554444;EUR;`);
  });
  it('the amount-to pair of a lone amount-from', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;currency;amount-from\no1;DST;5555555555554444;EUR;1\n';
    const d = lintText(text).find((x) => x.code === 'missing-column')!;
    assert.equal(d.columnName, 'amount-to');
    assert.equal(
      applyFix(text, d.fixes[1].edits),
      'client-orderid;rp_card_type;credit-card-number;currency;amount-from;amount-to\no1;DST;5555555555554444;EUR;1;\n',
    );
  });
  it('after the fix the column is present and the row is told its value is empty', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount\no1;DST;5555555555554444;1\n';
    const fixed = applyOne(text, 'missing-column', false);
    assert.deepEqual(
      lintText(fixed).map((d) => [d.code, d.columnName]),
      [['required-value', 'currency']],
    );
  });
});

describe('delimiter: rewrite with ";" and re-quote', () => {
  it('a comma file with ";" and quotes in a value, a quoted comma and a multi-line field', () => {
    const text = 'client-orderid,rp_card_type,order_desc,purpose\r\no1,DST,"a;b ""c""","x,y"\r\no2,DST,"say ""hi""","l1\r\nl2"\r\n';
    const expected = 'client-orderid;rp_card_type;order_desc;purpose\r\no1;DST;"a;b ""c""";x,y\r\no2;DST;"say ""hi""";"l1\r\nl2"\r\n';
    assert.equal(applyOne(text, 'delimiter', true), expected);
  });
  it('a tab file with LF, no final line break', () => {
    const text = 'client-orderid\trp_card_type\tamount\no1\tDST\t1;5';
    assert.equal(applyOne(text, 'delimiter', true), 'client-orderid;rp_card_type;amount\no1;DST;"1;5"');
  });
  it('a BOM stays in front (it has its own fix); the rest is rewritten', () => {
    const text = '\ufeffclient-orderid,amount\no1,1\n';
    assert.equal(applyOne(text, 'delimiter', true), '\ufeffclient-orderid;amount\no1;1\n');
  });
});

describe('fixAll', () => {
  it('applies every safe fix and leaves the unsafe ones alone', () => {
    const text = [
      '\ufeffClient_OrderId;rp_card_type;credit-card-number;amount;expire-month;expire-year;start-date;city;cvv;payment-description',
      'o1;dst;5555555555554444;1;5;2030;2027-01-05;Berlin;123;"a;b"',
      'o2;Src;4111111111111111;2;12;2030;1/2/2027;;;x',
      '',
    ].join('\r\n');
    const expected = [
      'client-orderid;rp_card_type;credit-card-number;amount;expire-month;expire-year;start-date;city;cvv;order_desc',
      'o1;DST;5555555555554444;1;05;2030;05.01.2027;Berlin;123;"a;b"',
      'o2;SRC;4111111111111111;2;12;2030;01.02.2027;;;x',
      '',
    ].join('\r\n');
    const { text: out, codes } = fixAll(text, { today: TODAY });
    assert.equal(out, expected);
    assert.deepEqual(
      codes.sort(),
      ['bom', 'column-alias', 'column-alias', 'invalid-value', 'invalid-value', 'invalid-value', 'invalid-value', 'invalid-value'].sort(),
    );
    // What is left: missing currency (append), unknown cvv (rename), the DST city (clear) - all offered, none safe.
    const left = lintText(out);
    assert.ok(left.every((d) => d.fixes.every((f) => !f.safe)));
    // (the now-SRC row o2 makes its absent columns missing too: one missing-column each)
    assert.deepEqual([...new Set(left.filter((d) => d.fixes.length > 0).map((d) => d.code))].sort(), [
      'dst-unsupported',
      'missing-column',
      'unknown-column',
    ]);
    assert.deepEqual(
      left
        .filter((d) => d.code === 'missing-column')
        .map((d) => d.columnName)
        .sort(),
      ['address1', 'card-printed-name', 'country', 'currency', 'email', 'first-name', 'last-name', 'zip-code'],
    );
  });
  it('a clean file is left exactly as it is', () => {
    const text = `${MIN}\r\no1;DST;5555555555554444;1;EUR\r\n`;
    assert.deepEqual(fixAll(text, { today: TODAY }), { text, codes: [], errors: 0 });
  });
  it('counts the errors of the text it was given (those without a safe fix too), as a lint does', () => {
    const text = `${MIN}\r\no1;DST;5555555555554444;1;EUR\r\n\ufeffo2;src;5555555555554444\r\nx\r\n`;
    const { errors } = fixAll(text, { today: TODAY });
    const counted = lint(text, { today: TODAY, maxDiagnostics: 0 }).omitted?.error ?? 0;
    assert.ok(counted >= 2, `the sample has errors without a safe fix (${counted})`);
    assert.equal(errors, counted);
  });
  it('a comma file: the rewrite alone (other fixes follow once it reads as ";")', () => {
    const text = 'Client_OrderId,rp_card_type\no1,dst\n';
    const { text: out, codes } = fixAll(text, { today: TODAY });
    assert.equal(out, 'Client_OrderId;rp_card_type\no1;dst\n');
    assert.deepEqual(codes, ['delimiter']);
    assert.equal(fixAll(out, { today: TODAY }).text, 'client-orderid;rp_card_type\no1;DST\n');
  });
});
