// The forecast reads 100k rows after every edit, so it reads them its own way: only the schedule columns,
// and plainly written amounts without the general reader. These hold both to the general way.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCsv } from '../../src/core/csv/parse';
import { FieldReader } from '../../src/core/forecast/fields';
import { plainAmount, readAmounts } from '../../src/core/forecast/rows';

describe('forecast: the plain amount fast path', () => {
  it('reads an amount exactly as the general reader does, or leaves it to it', () => {
    const text = fc.oneof(
      fc.stringMatching(/^\d{1,8}(\.\d{0,4})?$/),
      fc.constantFrom('0', '0.000', '.5', '5.', '12345678901', ' 10', '1e3', '0.001', '9999999999', '00.10'),
    );
    const columns = fc.oneof(
      text.map((a) => [a, '', '', ''] as const),
      fc.tuple(text, text).map(([from, to]) => ['', from, to, ''] as const),
      fc.tuple(text, text, text).map(([a, from, to]) => [a, from, to, ''] as const),
      fc.array(text, { minLength: 1, maxLength: 4 }).map((parts) => ['', '', '', parts.join(', ')] as const),
      fc.tuple(text, fc.array(text, { minLength: 1, maxLength: 3 })).map(([a, parts]) => [a, '', '', parts.join(',')] as const),
    );
    fc.assert(
      fc.property(columns, ([amount, from, to, seq]) => {
        const plain = plainAmount(amount, from, to, seq);
        const general = readAmounts([amount, from, to, seq], 0);
        if (plain === undefined) return;
        assert.ok(general.ok, `plain accepted ${[amount, from, to]} that the reader rejects`);
        assert.deepEqual(plain, general.value);
      }),
      { numRuns: 600 },
    );
    assert.deepEqual(plainAmount('', '5', '7.25', ''), { decimals: 2, low: 5000, high: 7250 });
    assert.equal(plainAmount('', '9', '1', ''), undefined);
    assert.deepEqual(plainAmount('', '', '', '1, 2.5'), { decimals: 1, low: 1000, high: 1000, sequence: [1000, 2500] });
    assert.equal(plainAmount('', '', '', '1,,2'), undefined);
    assert.deepEqual(plainAmount('12.5', '', '', ''), { decimals: 1, low: 12500, high: 12500 });
    assert.equal(plainAmount('5.', '', '', ''), undefined);
    assert.equal(plainAmount('0.00', '', '', ''), undefined);
    assert.equal(plainAmount('1', '2', '3', ''), undefined);
  });
});

describe('forecast: reading only the schedule columns', () => {
  it('gives the values the tokenizer gives, with quoted fields, doubled quotes, delimiters and line breaks', () => {
    const cell = fc.oneof(
      fc.constantFrom('', 'x', '10.00', 'month', '01.02.2027'),
      fc.string({ maxLength: 6 }).map((t) => `"${t.replace(/"/g, '""')};\r\n"`),
      fc.constantFrom('"a""b"', '";"', '""', '"x\ny"'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 4, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\r\n', '\n'),
        (rows, eol) => {
          const text = ['a;b;c;d;e', ...rows.map((r) => r.join(';'))].join(eol);
          const csv = parseCsv(text);
          const wanted = [4, 0, 2, -1];
          const reader = new FieldReader(csv, wanted, 5);
          for (let r = 1; r < csv.recordCount; r++) {
            if (csv.isBlankAt(r)) continue;
            const rec = csv.record(r);
            const trusted = !rec.syntaxProblem && rec.values.length === 5;
            const got = reader.read(r);
            if (!trusted) assert.equal(got, undefined, `record ${r} is not trusted: ${JSON.stringify(text)}`);
            else
              assert.deepEqual(
                got && [...got],
                wanted.map((i) => (i < 0 ? '' : rec.values[i])),
                JSON.stringify(text),
              );
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
