// File- and header-level codes of the rule book and their precedence: bom, delimiter, csv-syntax,
// field-count, blank-line, missing-column, duplicate-column, column-alias, unknown-column.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DST,
  FULL,
  SEVERITY,
  SRC,
  brief,
  briefs,
  cellRange,
  file,
  line,
  lintText,
  onCell,
  onLine,
  sorted,
} from '../fixtures/lint-cases/helpers';

const MIN = ['client-orderid', 'rp_card_type', 'credit-card-number', 'amount', 'currency'];
const SRC_ONLY = [
  'card-printed-name',
  'expire-year',
  'expire-month',
  'country',
  'city',
  'zip-code',
  'address1',
  'first-name',
  'last-name',
  'email',
];

describe('column-alias', () => {
  const aliases: [string, string][] = [
    ['payment-description', 'order_desc'],
    ['notify-url', 'notify_url'],
    ['server-callback-url', 'server_callback_url'],
    ['Client_OrderId', 'client-orderid'],
    [' currency ', 'currency'],
    ['RP CARD TYPE', 'rp_card_type'],
    ['Credit_Card_Number', 'credit-card-number'],
    ['EXPIRE-MONTH', 'expire-month'],
    ['zipcode', 'zip-code'],
  ];
  for (const [alias, column] of aliases) {
    it(`"${alias}" → ${column}: one column-alias on the header cell, with a safe preferred rename`, () => {
      const header = FULL.map((c) => (c === column ? alias : c));
      if (!FULL.includes(column)) header.push(alias);
      const values = {
        ...SRC,
        notify_url: column === 'server_callback_url' ? '' : SRC.notify_url,
        [alias]: SRC[column] ?? 'https://example.com/cb',
      };
      const text = [header.join(';'), line(header, values)].join('\n') + '\n';
      const diags = lintText(text);
      assert.deepEqual(diags.map(brief), [onCell(text, 'column-alias', 0, alias, column)]);
      assert.equal(diags[0].fixes.length, 1);
      assert.equal(diags[0].fixes[0].safe, true);
      assert.equal(diags[0].fixes[0].preferred, true);
      assert.deepEqual(
        diags[0].fixes[0].edits.map((e) => e.newText),
        [column],
      );
    });
  }
  it('an aliased column counts as its column: its values are checked under the real name', () => {
    const header = ['Client_OrderId', 'rp_card_type', 'credit-card-number', 'amount', 'currency', 'notify-url'];
    const text = file(header, [
      { rp_card_type: 'DST', 'credit-card-number': '5555555555554444', amount: '1', currency: 'EUR', 'notify-url': 'ftp://x' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([
        onCell(text, 'column-alias', 0, 'Client_OrderId', 'client-orderid'),
        onCell(text, 'column-alias', 0, 'notify-url', 'notify_url'),
        onCell(text, 'required-value', 1, 'Client_OrderId', 'client-orderid'),
        onCell(text, 'invalid-value', 1, 'notify-url', 'notify_url'),
      ]),
    );
  });
});

describe('unknown-column', () => {
  it('warning on the cell; a rename fix (not safe) only when a column is at most 2 edits away', () => {
    const header = [...MIN, 'cvv', 'emial', 'adress', 'exxxl', 'foo'];
    const text = file(header, [{ ...DST, cvv: 'x', emial: 'y', adress: 'z', exxxl: '', foo: '!' }]);
    const diags = lintText(text);
    assert.deepEqual(
      sorted(diags.map(brief)),
      sorted(['cvv', 'emial', 'adress', 'exxxl', 'foo'].map((c) => onCell(text, 'unknown-column', 0, c, null))),
    );
    const fixes = Object.fromEntries(diags.map((d) => [text.slice(d.range.start.character, d.range.end.character), d.fixes]));
    assert.deepEqual(
      fixes.cvv.map((f) => [f.safe, f.edits.map((e) => e.newText)]),
      [[false, ['cvv2']]],
    );
    assert.deepEqual(
      fixes.emial.map((f) => f.edits[0].newText),
      ['email'],
    );
    assert.deepEqual(
      fixes.adress.map((f) => f.edits[0].newText),
      ['address1'],
    );
    assert.deepEqual(fixes.exxxl, []);
    assert.deepEqual(fixes.foo, []);
  });
});

describe('duplicate-column', () => {
  it('the second appearance, after alias resolution; its values are not checked', () => {
    const header = [...MIN, 'order_desc', 'amount', 'payment-description'];
    const text = file(header, [{ ...DST }]);
    const withBadDuplicate = text.replace(/\n$/, '') + '\n';
    assert.deepEqual(
      briefs(withBadDuplicate),
      // client-orderid;rp_card_type;credit-card-number;amount;currency;order_desc;amount;payment-description
      [
        { code: 'duplicate-column', severity: 'error', range: [0, 74, 0, 80], columnName: 'amount' },
        { code: 'duplicate-column', severity: 'error', range: [0, 81, 0, 100], columnName: 'order_desc' },
      ],
    );
    // Row values under the duplicate column are ignored (the first column's are checked).
    const text2 = `${header.join(';')}\no9;DST;5555555555554444;1;EUR;;zero;\n`;
    assert.deepEqual(
      briefs(text2).map((b) => b.code),
      ['duplicate-column', 'duplicate-column'],
    );
  });
});

describe('missing-column', () => {
  it('one per absent required column, on the whole header line; rows are not told', () => {
    const header = ['client-orderid', 'rp_card_type', 'amount'];
    const text = file(header, [
      { 'client-orderid': 'a', rp_card_type: 'DST', amount: '1' },
      { 'client-orderid': 'b', rp_card_type: 'DST', amount: '2' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([onLine(text, 'missing-column', 0, 'credit-card-number'), onLine(text, 'missing-column', 0, 'currency')]),
    );
  });
  it('SRC-only columns: not needed when every row is DST, each one missing when a row is SRC', () => {
    const header = FULL.filter(
      (c) => !SRC_ONLY.includes(c) && !['period', 'interval', 'ssn', 'birthday', 'phone', 'state', 'purpose'].includes(c),
    );
    const dstOnly = file(header, [DST, { ...DST, 'client-orderid': 'o3' }]);
    assert.deepEqual(briefs(dstOnly), []);
    const withSrc = file(header, [DST, SRC]);
    assert.deepEqual(briefs(withSrc), sorted(SRC_ONLY.map((c) => onLine(withSrc, 'missing-column', 0, c))));
  });
  it('an SRC row in lower case (not SRC) does not make SRC columns required', () => {
    const text = file(MIN, [{ ...DST, rp_card_type: 'src' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'invalid-value', 1, 'rp_card_type')]);
  });
  it('the fix appends the column (not safe)', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount\no;DST;5555555555554444;1\n';
    const [d] = lintText(text);
    assert.equal(d.code, 'missing-column');
    assert.equal(d.severity, 'error');
    assert.equal(d.fixes.length, 1);
    assert.equal(d.fixes[0].safe, false);
  });
  it('an empty file: the four required columns and the amount modes', () => {
    for (const text of ['', '\n', '\r\n']) {
      assert.deepEqual(
        briefs(text).map((b) => [b.code, b.columnName, b.range]),
        sorted(
          ['client-orderid', 'rp_card_type', 'credit-card-number', 'currency', 'amount'].map((c) => onLine('', 'missing-column', 0, c)),
        ).map((b) => [b.code, b.columnName, b.range]),
      );
    }
  });
});

describe('bom', () => {
  it('information at the very start with a safe fix; the rest of the file is read normally', () => {
    const text = `\ufeff${file(FULL, [SRC])}`;
    const diags = lintText(text);
    assert.deepEqual(diags.map(brief), [{ code: 'bom', severity: 'information', range: [0, 0, 0, 1], columnName: null }]);
    assert.equal(diags[0].fixes[0].safe, true);
  });
  it('header cell ranges count the BOM as a character on line 0', () => {
    const text = `\ufeff${file(['Client_OrderId', ...MIN.slice(1)], [{ ...DST, Client_OrderId: 'o2' }])}`;
    assert.deepEqual(
      briefs(text),
      sorted([
        { code: 'bom', severity: 'information', range: [0, 0, 0, 1], columnName: null },
        onCell(text, 'column-alias', 0, 'Client_OrderId', 'client-orderid'),
      ]),
    );
    assert.deepEqual(cellRange(text, 0, 'Client_OrderId'), [0, 1, 0, 15]);
  });
});

describe('delimiter', () => {
  const cases: [string, string][] = [
    ['commas', 'client-orderid,rp_card_type,amount\no1,src,0\n'],
    ['tabs', 'client-orderid\trp_card_type\tamount\r\no1\tsrc\t0\r\n'],
    ['commas with a BOM', '\ufeffclient-orderid,rp_card_type\no1,src\n'],
    ['commas in a quoted header', '"client-orderid","rp_card_type"\n"a","b"\n'],
  ];
  for (const [name, text] of cases) {
    it(`${name}: one delimiter error on the header line and nothing else`, () => {
      const diags = lintText(text);
      const first = text.split(/\r?\n/)[0];
      const start = first.startsWith('\ufeff') ? 1 : 0;
      assert.deepEqual(diags.map(brief), [{ code: 'delimiter', severity: 'error', range: [0, start, 0, first.length], columnName: null }]);
      assert.equal(diags[0].fixes.length, 1);
      assert.equal(diags[0].fixes[0].safe, true);
    });
  }
  it('an unterminated quote in a comma-looking header stays csv-syntax (broken on "," too)', () => {
    assert.deepEqual(
      briefs('"abc,def\n').map((b) => b.code),
      ['csv-syntax'],
    );
  });
  it('a header with both ";" and "," splits into several columns on ";": no delimiter error', () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount;currency,x\n';
    assert.ok(!briefs(text).some((b) => b.code === 'delimiter'));
  });
});

describe('csv-syntax', () => {
  it('text after a closing quote: on that cell; the row gets nothing else; later rows are still checked', () => {
    const h = MIN.join(';');
    const text = `${h}\n"o1"x;src;1;0;eur\no2;DST;5555555555554444;1;EU\n`;
    assert.deepEqual(
      briefs(text),
      sorted([
        { code: 'csv-syntax', severity: 'error', range: [1, 0, 1, 5], columnName: null },
        { code: 'invalid-value', severity: 'error', range: [2, 26, 2, 28], columnName: 'currency' },
      ]),
    );
  });
  it('an unterminated quote runs to the end of the file; its range stops before the final line breaks', () => {
    const h = MIN.join(';');
    const text = `${h}\r\no1;DST;5555555555554444;1;EUR\r\no2;DST;"555\r\no3;x;y\r\n\r\n`;
    assert.deepEqual(briefs(text), [{ code: 'csv-syntax', severity: 'error', range: [2, 7, 3, 6], columnName: null }]);
  });
  it('a broken header: csv-syntax only', () => {
    const text = 'client-orderid;"rp_card_type\nx;y\n';
    assert.deepEqual(briefs(text), [{ code: 'csv-syntax', severity: 'error', range: [0, 15, 1, 3], columnName: null }]);
  });
});

describe('field-count', () => {
  it('more or fewer fields: the whole record, and no other diagnostic on it', () => {
    const h = MIN.join(';');
    const text = `${h}\no1;DST;555;0\no2;SRC;1;0;eur;extra\no3;DST;"5555\n555";1;EUR;x\n`;
    assert.deepEqual(
      briefs(text),
      sorted([
        onLine(text, 'field-count', 1),
        onLine(text, 'field-count', 2),
        { code: 'field-count', severity: 'error', range: [3, 0, 4, 12], columnName: null },
      ]),
    );
  });
  it('a field-count SRC row does not make SRC columns required', () => {
    const text = `${MIN.join(';')}\no1;SRC\n`;
    assert.deepEqual(briefs(text), [onLine(text, 'field-count', 1)]);
  });
});

describe('blank-line', () => {
  it('a blank line between records is an error on that line, a run of them one error over the run; blank lines at the end are ignored', () => {
    const h = MIN.join(';');
    const r = line(MIN, DST);
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [h, '', r, '', '', line(MIN, { ...DST, 'client-orderid': 'o3' }), '', '', ''].join(eol);
      const runs: [number, number, number, number][] = [
        [1, 0, 1, 0],
        [3, 0, 4, 0],
      ];
      assert.deepEqual(
        briefs(text),
        sorted(runs.map((range) => ({ code: 'blank-line', severity: SEVERITY['blank-line'], range, columnName: null }))),
        JSON.stringify(eol),
      );
    }
  });
  it('trailing blank lines only: nothing', () => {
    const text = `${file(MIN, [DST], '\r\n')}\r\n\r\n`;
    assert.deepEqual(briefs(text), []);
  });
  it('a header followed by blank lines only is a file without rows', () => {
    assert.deepEqual(briefs(`${MIN.join(';')}\n\n\n`), []);
  });
});

describe('header decisions beyond the rule book', () => {
  it('an alias in other case or separators is still the alias: Payment-Description → order_desc', () => {
    const header = [...MIN, 'Payment-Description'];
    const text = `${header.join(';')}\nA;DST;5555555555554444;1;EUR;desc\n`;
    const diags = lintText(text);
    assert.deepEqual(diags.map(brief), [onCell(text, 'column-alias', 0, 'Payment-Description', 'order_desc')]);
    assert.deepEqual(
      diags[0].fixes[0].edits.map((e) => e.newText),
      ['order_desc'],
    );
  });

  it('an unknown name is never offered a column the header already has (that rename would duplicate it)', () => {
    const text = `${[...MIN, 'amount2'].join(';')}\nA;DST;5555555555554444;1;EUR;x\n`;
    const [d] = lintText(text);
    assert.equal(d.code, 'unknown-column');
    assert.deepEqual(d.fixes, []);
    // Without amount in the header, the same name is offered the rename.
    const without = `${['client-orderid', 'rp_card_type', 'credit-card-number', 'currency', 'amount2'].join(';')}\nA;DST;5555555555554444;EUR;1\n`;
    const unknown = lintText(without).find((x) => x.code === 'unknown-column');
    assert.deepEqual(
      unknown?.fixes.map((f) => f.edits[0].newText),
      ['amount'],
    );
  });

  it('blank lines before the header are a blank-line problem (one for the run), and the first content line is still the header', () => {
    const text = `\n\r\n${MIN.join(';')}\r\nA;DST;5555555555554444;1;EUR\r\n`;
    const diags = lintText(text);
    assert.deepEqual(
      diags.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character]),
      [['blank-line', 0, 0, 1, 0]],
    );
  });

  it('a file of blank lines only has its header problems on the first line', () => {
    const diags = lintText('\n\n\n');
    assert.ok(diags.length > 0);
    assert.ok(
      diags.every((d) => d.code === 'missing-column' && d.range.start.line === 0),
      JSON.stringify(diags.map(brief)),
    );
  });
});
