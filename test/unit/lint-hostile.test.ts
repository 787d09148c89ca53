// The adversarial shapes of issue 10 as regression fixtures (test/fixtures/hostile, written by its
// generate.ts from shapes.ts): each is read with exact positions, fixed without touching other values,
// and reported without a card number in any message. Time and memory are the bench's (npm run bench).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import path from 'node:path';
import { parseCsv } from '../../src/core/csv/parse';
import { applySafeFixes } from '../../src/core/rules/fixAll';
import { lint } from '../../src/core/rules/lint';
import { saidText } from '../../src/core/output';
import { LineIndex } from '../../src/core/text';
import { FIXTURES } from '../fixtures/hostile/generate';
import { HEADER, shortRows } from '../fixtures/hostile/shapes';

const TODAY = { year: 2026, month: 11, day: 22 };
const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/hostile', name), 'utf8');
/** The problems with their messages as a face lays them out (saidText). */
const diagnostics = (text: string) => lint(text, { today: TODAY }).diagnostics.map((d) => ({ ...d, message: saidText(d.message) }));
const span = (text: string, d: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) => {
  const index = new LineIndex(text);
  return text.slice(index.offsetAt(d.range.start), index.offsetAt(d.range.end));
};

describe('hostile fixtures', () => {
  it('the committed files are what the generator writes', () => {
    for (const [name, text] of Object.entries(FIXTURES)) assert.equal(fixture(name), text, name);
  });

  it('malformed rows: each broken cell is one csv-syntax on exactly that cell, every other row is read whole', () => {
    const text = fixture('malformed-rows.rpcsv');
    const ds = diagnostics(text);
    const syntax = ds.filter((d) => d.code === 'csv-syntax');
    assert.equal(syntax.length, 20);
    syntax.forEach((d, k) => {
      assert.equal(d.range.start.line, 1 + 2 * k);
      assert.equal(span(text, d), `"O${2 * k}"x`);
    });
    assert.ok(!ds.some((d) => d.code === 'field-count'));
    const csv = parseCsv(text);
    assert.equal(csv.recordCount, 41);
    for (let r = 2; r <= 40; r += 2) assert.deepEqual(csv.record(r).values.slice(0, 3), [`O${r - 1}`, 'SRC', '5555555555554444']);
  });

  it('a wide header: one unknown-column per extra cell, each on exactly its cell', () => {
    const text = fixture('wide-header.rpcsv');
    const unknown = diagnostics(text).filter((d) => d.code === 'unknown-column');
    assert.equal(unknown.length, 2000);
    unknown.forEach((d, i) => {
      assert.equal(span(text, d), `x${i}`);
      assert.equal(d.message, `unknown column "x${i}"`);
    });
  });

  it('BOMs at line starts after a broken row: positions stay exact and fix changes only what it means to (A2;src stays A2)', () => {
    const text = fixture('bom-lines.rpcsv');
    const fixed = applySafeFixes(text, { today: TODAY }).text;
    assert.ok(!fixed.startsWith('\ufeff'), 'the leading BOM is dropped');
    const rows = parseCsv(fixed).records.map((r) => r.values);
    assert.deepEqual(rows[0], HEADER.split(';'));
    assert.deepEqual(
      rows[1],
      ['A0x', 'src', '5555555555554444', '1', '2031', '10.00', 'EUR', '01.01.2031'],
      'the broken row is not touched',
    );
    // A BOM at a row's start is inside its client-orderid: id-whitespace's safe fix removes it (the gateway reads the id without it).
    for (let i = 1; i <= 30; i++) {
      const d = (i % 9) + 1;
      assert.deepEqual(rows[i + 1], [`A${i}`, 'SRC', '5555555555554444', `0${d}`, '2031', '10.00', 'EUR', `0${d}.01.2031`], `row ${i}`);
    }
  });

  it('runs of blank lines: one blank-line per run, covering the run', () => {
    const text = fixture('blank-runs.rpcsv');
    const blank = diagnostics(text).filter((d) => d.code === 'blank-line');
    assert.deepEqual(
      blank.map((d) => [d.range.start.line, d.range.end.line, d.message]),
      [
        [2, 2, 'blank line between records: remove it'],
        [4, 8, '5 blank lines between records: remove them'],
        [10, 1009, '1000 blank lines between records: remove them'],
      ],
    );
  });

  it('a file of blank lines only, or with a million of them, makes no diagnostic per line', () => {
    const text = `${HEADER}\n${'\n'.repeat(1_000_000)}O1;DST;5555555555554444;;;10.00;EUR;01.01.2031\n`;
    const blank = diagnostics(text).filter((d) => d.code === 'blank-line');
    assert.deepEqual(
      blank.map((d) => [d.range.start.line, d.range.end.line]),
      [[1, 1_000_000]],
    );
  });

  it('LineIndex agrees with a character-by-character reading, lone CR at the end included', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\r', '\n', '\r\n', '\ufeff'), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const starts = [0];
        for (let i = 0; i < text.length; i++) {
          if (text[i] === '\r' && text[i + 1] === '\n') i++;
          if (text[i] === '\r' || text[i] === '\n') starts.push(i + 1);
        }
        assert.deepEqual(new LineIndex(text).lineStarts, starts, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('200,000 records (the offset lists span several chunks): every record and line found where it is', () => {
    let text = '';
    for (let i = 0; i < 200_000; i++) text += i % 3 === 0 ? `"q${i}";x\n` : `a${i};y\r\n`;
    const csv = parseCsv(text);
    const index = new LineIndex(text);
    assert.equal(csv.recordCount, 200_000);
    assert.equal(index.lineCount, 200_001);
    for (const i of [0, 65_535, 65_536, 65_537, 131_071, 131_072, 199_999]) {
      assert.equal(csv.record(i).values[0], i % 3 === 0 ? `q${i}` : `a${i}`);
      assert.equal(index.positionAt(csv.recordStart(i)).line, i);
      assert.equal(index.offsetAt({ line: i, character: 0 }), csv.recordStart(i));
    }
  });

  it('many short rows: every repeat of the order id is reported against row 1, row numbers counted without row objects', () => {
    const text = shortRows(5000);
    const dups = diagnostics(text).filter((d) => d.code === 'duplicate-order-id');
    assert.equal(dups.length, 4999);
    assert.ok(dups.every((d, i) => d.message === 'client-orderid "x" is already used on row 1' && d.range.start.line === i + 2));
  });

  it('deeply quoted multi-line fields keep every character, and later cells are found on their own lines', () => {
    const text = fixture('multiline-quoted.rpcsv');
    const csv = parseCsv(text);
    assert.equal(csv.recordCount, 21);
    for (let i = 0; i < 20; i++) {
      const values = csv.record(i + 1).values;
      assert.equal(values[8], `line 1 "quoted"; still${i % 2 ? '\r\n' : '\n'}line 2;""\r${'"x"\n'.repeat(5)}end`);
      assert.equal(values[0], `O${i}`);
    }
    const ds = diagnostics(text);
    assert.ok(!ds.some((d) => d.code === 'csv-syntax'));
    // expire-month "1".."9" is invalid: the diagnostic sits on that cell, on the record's first line.
    for (const d of ds.filter((x) => x.code === 'invalid-value')) assert.match(span(text, d), /^\d$/);
  });
});

describe('maxDiagnostics', () => {
  it('keeps the first N problems by position and counts the rest by severity', () => {
    for (const name of ['malformed-rows.rpcsv', 'bom-lines.rpcsv', 'wide-header.rpcsv']) {
      const text = fixture(name);
      const all = lint(text, { today: TODAY }).diagnostics;
      for (const max of [0, 1, 7, 50, all.length - 1, all.length, all.length + 5]) {
        const limited = lint(text, { today: TODAY, maxDiagnostics: max });
        const key = (d: (typeof all)[number]) => `${d.range.start.line}:${d.range.start.character}`;
        const kept = Math.min(max, all.length);
        assert.deepEqual(limited.diagnostics.map(key), all.slice(0, kept).map(key), `${name} max ${max}`);
        const count = (severity: string, list: typeof all) => list.filter((d) => d.severity === severity).length;
        if (kept === all.length) assert.equal(limited.omitted, undefined);
        else
          assert.deepEqual(limited.omitted, {
            error: count('error', all) - count('error', limited.diagnostics),
            warning: count('warning', all) - count('warning', limited.diagnostics),
            information: count('information', all) - count('information', limited.diagnostics),
          });
      }
    }
  });
});

describe('no card number in any message', () => {
  const PAN = /(?<!\d)\d{12,19}(?!\d)|\d{4}[ -]\d{4}[ -]\d{4}/;
  for (const name of ['cards-everywhere.rpcsv', 'header-is-a-row.rpcsv']) {
    it(`${name}: every message and fix title is free of card numbers, which appear masked`, () => {
      const text = fixture(name);
      const ds = diagnostics(text);
      assert.ok(ds.length > 0);
      for (const d of ds) {
        assert.doesNotMatch(d.message, PAN, d.message);
        for (const f of d.fixes) assert.doesNotMatch(saidText(f.title), PAN, saidText(f.title));
      }
      assert.ok(
        ds.some((d) => d.message.includes('411111******1111')),
        'the card number is still recognisable, masked',
      );
    });
  }

  it('a card number glued to letters or to more digits is masked too', () => {
    const text = `${HEADER};card4111111111111111\nO1;DST;5555555555554444;;;10.00;EUR;41111111111111112031-01-05;x\nO2;DST;5555555555554444;;;10.00;EUR;x4111-1111-1111-1111;x\n`;
    const messages = diagnostics(text).map((d) => d.message);
    assert.ok(messages.length >= 3, JSON.stringify(messages));
    for (const m of messages) assert.doesNotMatch(m.replace(/[ -]/g, ''), /\d{11,}/, m);
    assert.ok(
      messages.some((m) => m.includes('card411111******1111')),
      JSON.stringify(messages),
    );
  });

  it('a header cell or value of any length is cut in the message', () => {
    const long = 'y'.repeat(5000);
    const ds = diagnostics(`${HEADER};${long}\nO1;DST;5555555555554444;;;10.00;EUR;01.01.2031;x\n`);
    const d = ds.find((x) => x.code === 'unknown-column')!;
    assert.equal(d.message, `unknown column "${'y'.repeat(37)}..."`);
  });
});
