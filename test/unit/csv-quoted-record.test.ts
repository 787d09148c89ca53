import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { quotedRecordNext, scanRecord, type CsvSyntaxProblem } from '../../src/core/csv/tokenize';
import { LineBreaks } from '../../src/core/text';

// The parse finds where a record holding a quote ends by searching for quotes and line breaks
// (quotedRecordNext); the full tokenizer (scanRecord) reads it character by character. Both must find the
// same end and the same first problem, whatever the quotes, delimiters and line breaks.

const piece = fc.constantFrom('a', 'bc', ';', '"', '""', '\n', '\r', '\r\n', ' ', ',');

test('quotedRecordNext finds the end and the first problem scanRecord finds (property)', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), fc.constantFrom(';', ','), (pieces, at, delimiter) => {
      const text = pieces.join('');
      const quotes = [...text.matchAll(/"/g)].map((m) => m.index);
      if (quotes.length === 0) return;
      // A record start: the text's start or just after a line break, at or before a quote (as the parse meets it).
      const q = quotes[at % quotes.length];
      let start = q;
      while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
      const problems = new Map<number, CsvSyntaxProblem>();
      const next = quotedRecordNext(text, start, delimiter, 7, problems, new LineBreaks(text));
      const cells = scanRecord(text, start, delimiter, 7, false);
      assert.equal(next, cells.next, JSON.stringify({ text, start }));
      assert.deepEqual(problems.get(7), cells.problem, JSON.stringify({ text, start }));
      assert.equal(problems.size, cells.problem ? 1 : 0);
    }),
    { numRuns: 5000 },
  );
});

test('quotedRecordNext: fields after a quoted one, a quote inside an unquoted field, a quoted line break', () => {
  const problems = new Map<number, CsvSyntaxProblem>();
  assert.equal(quotedRecordNext('a;"b;c";d"e;f\nx', 0, ';', 0, problems, new LineBreaks('a;"b;c";d"e;f\nx')), 14);
  assert.equal(quotedRecordNext('"a\nb";c\r\nx', 0, ';', 1, problems, new LineBreaks('"a\nb";c\r\nx')), 9);
  assert.equal(
    quotedRecordNext('a;"b\nc";d\ne', 0, ';', 4, problems, new LineBreaks('a;"b\nc";d\ne')),
    10,
    'a line break inside a quoted field between unquoted ones',
  );
  assert.equal(problems.size, 0);
  assert.equal(quotedRecordNext('a;"b"c;d\ny', 0, ';', 2, problems, new LineBreaks('a;"b"c;d\ny')), 9);
  assert.deepEqual(problems.get(2), { start: 2, end: 6, message: 'text after the closing quote of a quoted field' });
  assert.equal(quotedRecordNext('a;"b\n\n', 0, ';', 3, problems, new LineBreaks('a;"b\n\n')), 6);
  assert.deepEqual(problems.get(3), { start: 2, end: 4, message: 'unterminated quote: the quoted field is never closed' });
});
