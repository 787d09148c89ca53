import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCsv } from '../../src/core/csv/parse';
import { RowCells } from '../../src/core/csv/rowCells';

// RowCells reads a record's cells in place (the linter's hot path); the record's values and field offsets
// (the full tokenizer) are the reference. Every record shape: plain, quoted, doubled quotes, delimiters
// and line breaks inside quotes, empty cells, a syntax problem, blank lines, each line break.

const piece = fc.constantFrom('a', 'bc', '', ';', '"', '""', '\r\n', '\n', '\r', 'é', '😀', ' ', 'x"y');
const field = fc.oneof(
  fc.array(fc.constantFrom('a', 'b', 'é', ' ', '1'), { maxLength: 4 }).map((a) => a.join('')),
  fc.array(piece, { maxLength: 4 }).map((a) => `"${a.join('').replaceAll('"', '""')}"`),
  fc.array(piece, { maxLength: 4 }).map((a) => a.join('')), // anything, broken CSV included
);
const lineBreak = fc.constantFrom('\r\n', '\n', '\r');
const csvText = fc
  .array(fc.tuple(fc.array(field, { minLength: 1, maxLength: 5 }), lineBreak), { maxLength: 6 })
  .chain((rows) => fc.boolean().map((last) => ({ rows, last })))
  .map(({ rows, last }) => rows.map(([fields, br], i) => fields.join(';') + (i < rows.length - 1 || last ? br : '')).join(''));

test('RowCells reads every record as its values and field offsets', () => {
  fc.assert(
    fc.property(csvText, (text) => {
      const csv = parseCsv(text);
      const row = new RowCells();
      for (let r = 0; r < csv.recordCount; r++) {
        const rec = csv.record(r);
        csv.readRow(r, row);
        assert.equal(row.count, rec.values.length, `record ${r} of ${JSON.stringify(text)}`);
        for (let i = 0; i < row.count; i++) {
          assert.equal(row.value(i), rec.values[i], `record ${r} cell ${i} of ${JSON.stringify(text)}`);
          assert.equal(row.isEmpty(i), rec.values[i] === '');
          assert.equal(row.bounds[2 * i], rec.fieldStart(i));
          assert.equal(row.bounds[2 * i + 1], rec.fieldEnd(i));
        }
      }
    }),
    { numRuns: 2000 },
  );
});

test('RowCells read out of order, and a record with many fields, give the same cells', () => {
  const text = `${Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `"q""${i}"` : `v${i}`)).join(';')}\r\na;"b;c"\r\nd;e`;
  const csv = parseCsv(text);
  const row = new RowCells();
  for (const r of [2, 0, 1, 2, 0]) {
    csv.readRow(r, row);
    assert.deepEqual(
      Array.from({ length: row.count }, (_, i) => row.value(i)),
      csv.record(r).values,
    );
  }
});
