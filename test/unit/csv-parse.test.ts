// parseCsv: values and exact offsets with every line ending, quoted line breaks, doubled quotes, a BOM,
// and recovery from quote errors; the text versions up to 0.1 sent (legacySentText) and quoteField.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, type CsvRecord } from '../../src/core/csv/parse';
import { legacySentText, quoteField } from '../../src/core/csv/write';
import { LineIndex } from '../../src/core/text';

/** Start and end offset of every field, flattened (the public accessors, not the internal storage). */
const boundsOf = (r: CsvRecord) => r.values.flatMap((_, i) => [r.fieldStart(i), r.fieldEnd(i)]);
const shape = (text: string) =>
  parseCsv(text).records.map((r) => ({
    values: r.values,
    bounds: boundsOf(r),
    problem: r.syntaxProblem && [r.syntaxProblem.start, r.syntaxProblem.end],
  }));

describe('parseCsv: record ends', () => {
  it('LF, CRLF, lone CR and all mixed', () => {
    const rec = (values: string[], bounds: number[]) => ({ values, bounds, problem: undefined });
    assert.deepEqual(shape('a;b\nc;d'), [rec(['a', 'b'], [0, 1, 2, 3]), rec(['c', 'd'], [4, 5, 6, 7])]);
    assert.deepEqual(shape('a;b\r\nc;d'), [rec(['a', 'b'], [0, 1, 2, 3]), rec(['c', 'd'], [5, 6, 7, 8])]);
    assert.deepEqual(shape('a;b\rc;d'), [rec(['a', 'b'], [0, 1, 2, 3]), rec(['c', 'd'], [4, 5, 6, 7])]);
    // a;b CRLF c;d CR e;f LF g;h
    assert.deepEqual(shape('a;b\r\nc;d\re;f\ng;h\r\n'), [
      rec(['a', 'b'], [0, 1, 2, 3]),
      rec(['c', 'd'], [5, 6, 7, 8]),
      rec(['e', 'f'], [9, 10, 11, 12]),
      rec(['g', 'h'], [13, 14, 15, 16]),
    ]);
  });
  it('the final line break does not start a record; further blank lines are blank records', () => {
    assert.equal(parseCsv('a;b\n').records.length, 1);
    assert.equal(parseCsv('a;b\r\n').records.length, 1);
    assert.equal(parseCsv('a;b\r').records.length, 1);
    const csv = parseCsv('a;b\n\nc;d\r\n\r\n');
    assert.deepEqual(
      csv.records.map((r) => r.isBlank),
      [false, true, false, true],
    );
    assert.deepEqual(boundsOf(csv.records[1]), [4, 4]);
    assert.deepEqual(boundsOf(csv.records[3]), [10, 10]); // a;b LF LF c;d CR LF | CR LF
  });
  it('empty text has no records; empty fields have empty bounds', () => {
    assert.deepEqual(parseCsv('').records, []);
    assert.deepEqual(shape(';;'), [{ values: ['', '', ''], bounds: [0, 0, 1, 1, 2, 2], problem: undefined }]);
  });
});

describe('parseCsv: quoted fields', () => {
  it('a quoted CRLF is kept in the value and the field spans lines', () => {
    // x ; " l 1 CR LF l 2 " ; y CR LF z ; w
    const csv = parseCsv('x;"l1\r\nl2";y\r\nz;w');
    assert.deepEqual(csv.records[0].values, ['x', 'l1\r\nl2', 'y']);
    assert.deepEqual(boundsOf(csv.records[0]), [0, 1, 2, 10, 11, 12]);
    assert.deepEqual(boundsOf(csv.records[1]), [14, 15, 16, 17]);
    assert.deepEqual(csv.index.range(2, 10), { start: { line: 0, character: 2 }, end: { line: 1, character: 3 } });
    assert.deepEqual(csv.index.positionAt(16), { line: 2, character: 2 });
  });
  it('quoted LF in a CRLF file and quoted lone CR keep their own characters', () => {
    assert.deepEqual(
      parseCsv('a;"1\n2"\r\nb;"3\r4"\r\n').records.map((r) => r.values),
      [
        ['a', '1\n2'],
        ['b', '3\r4'],
      ],
    );
    assert.deepEqual(
      parseCsv('a;"1\r\n2\r3\n4"\rb;c').records.map((r) => r.values),
      [
        ['a', '1\r\n2\r3\n4'],
        ['b', 'c'],
      ],
    );
  });
  it('doubled quotes, empty quoted fields, delimiters inside quotes', () => {
    const csv = parseCsv('"a""b";"";"x;y"\n');
    const f = csv.records[0].fields;
    assert.deepEqual(
      f.map((x) => [x.value, x.start, x.end, x.quoted]),
      [
        ['a"b', 0, 6, true],
        ['', 7, 9, true],
        ['x;y', 10, 15, true],
      ],
    );
  });
  it('a BOM is not part of the first field; offsets still index the original text', () => {
    const csv = parseCsv('\ufeffa;"b\r\nc"\r\nd;e');
    assert.equal(csv.bom, true);
    assert.deepEqual(
      csv.records.map((r) => r.values),
      [
        ['a', 'b\r\nc'],
        ['d', 'e'],
      ],
    );
    assert.deepEqual(boundsOf(csv.records[0]), [1, 2, 3, 9]);
    assert.deepEqual(boundsOf(csv.records[1]), [11, 12, 13, 14]);
    assert.deepEqual(csv.index.positionAt(11), { line: 2, character: 0 });
    assert.equal(parseCsv('a').bom, false);
  });
});

describe('parseCsv: quote errors', () => {
  it('text after a closing quote: the cell is flagged, the record ends at the line, later records parse', () => {
    const csv = parseCsv('x;"a"b;c\nd;e\n');
    assert.deepEqual(
      csv.records.map((r) => r.values.length),
      [3, 2],
    );
    assert.deepEqual(csv.records[0].syntaxProblem && [csv.records[0].syntaxProblem.start, csv.records[0].syntaxProblem.end], [2, 6]);
    assert.deepEqual(boundsOf(csv.records[0]).slice(4), [7, 8]);
    assert.deepEqual(csv.records[1].values, ['d', 'e']);
    assert.equal(csv.records[1].syntaxProblem, undefined);
  });
  it('several broken records in one file are each found, with CRLF offsets', () => {
    const text = 'h;i\r\n"a"b;c\r\nd;e\r\nf;"g"h\r\nk;l\r\n';
    const csv = parseCsv(text);
    assert.deepEqual(
      csv.records.map((r) => (r.syntaxProblem ? text.slice(r.syntaxProblem.start, r.syntaxProblem.end) : null)),
      [null, '"a"b', null, '"g"h', null],
    );
    assert.deepEqual(
      csv.records.map((r) => r.values),
      [
        ['h', 'i'],
        ['ab', 'c'],
        ['d', 'e'],
        ['f', 'gh'],
        ['k', 'l'],
      ],
    );
  });
  it('an unterminated quote swallows the rest; the problem stops before the final line breaks', () => {
    const text = 'a;b\r\nc;"d\r\ne;f\r\n\r\n';
    const csv = parseCsv(text);
    assert.equal(csv.records.length, 2);
    const p = csv.records[1].syntaxProblem!;
    assert.equal(text.slice(p.start, p.end), '"d\r\ne;f');
    assert.deepEqual(csv.index.range(p.start, p.end), { start: { line: 1, character: 2 }, end: { line: 2, character: 3 } });
  });
});

describe('legacySentText (what versions up to 0.1 sent and hashed)', () => {
  it('converts record separators only; quoted line breaks stay as written', () => {
    assert.equal(legacySentText('a;"x\ny"\nb;"1\r2"\rd;e\r\n'), 'a;"x\ny"\r\nb;"1\r2"\r\nd;e\r\n');
    assert.equal(legacySentText('a;b\nc;d'), 'a;b\r\nc;d');
    assert.equal(legacySentText('a;b\r\nc;d\r\n'), 'a;b\r\nc;d\r\n');
  });
  it('drops the BOM and collapses trailing blank lines into one final CRLF', () => {
    assert.equal(legacySentText('\ufeffa;b\nc;d\n\n\n'), 'a;b\r\nc;d\r\n');
    assert.equal(legacySentText(''), '');
  });
});

describe('quoteField', () => {
  it('quotes only values that need it, doubling quotes', () => {
    assert.deepEqual(
      ['plain', 'a;b', 'say "hi"', 'l1\nl2', 'cr\r', '', 'a,b'].map((v) => quoteField(v)),
      ['plain', '"a;b"', '"say ""hi"""', '"l1\nl2"', '"cr\r"', '', 'a,b'],
    );
    assert.equal(quoteField('a,b', ','), '"a,b"');
  });
});

describe('LineIndex', () => {
  it('line starts after CRLF, LF and lone CR', () => {
    const index = new LineIndex('a\r\nb\nc\rd');
    assert.deepEqual(index.lineStarts, [0, 3, 5, 7]);
    assert.deepEqual(index.positionAt(3), { line: 1, character: 0 });
    assert.deepEqual(index.positionAt(2), { line: 0, character: 2 }); // between CR and LF
    assert.equal(index.offsetAt({ line: 3, character: 1 }), 8);
  });
});
