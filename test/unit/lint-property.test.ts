// Property tests: the linter never throws and never points outside the document; parseCsv's offsets are
// ordered and exact for any table written with quoteField and any mix of record separators.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCsv } from '../../src/core/csv/parse';
import { quoteField } from '../../src/core/csv/write';
import { lint } from '../../src/core/rules/lint';
import { CodeInfo, Codes, type Code } from '../../src/core/rules/codes';
import { applySafeFixes } from '../../src/core/rules/fixAll';
import { saidText } from '../../src/core/output';
import type { Range } from '../../src/core/text';
import { LineIndex } from '../../src/core/text';
import { FULL, TODAY, applyFix } from '../fixtures/lint-cases/helpers';

const RUNS = 400;

/** Pieces that stress the CSV reader and the checks: delimiters, quotes, every line break, BOM, values. */
const TOKENS = [
  ';',
  ';',
  ';',
  '"',
  '"',
  '""',
  '\r',
  '\n',
  '\r\n',
  '\ufeff',
  ',',
  '\t',
  ' ',
  'a',
  'é',
  '😀',
  '\ud800',
  'SRC',
  'DST',
  'src',
  'US',
  'EUR',
  '1',
  '0',
  '10.50',
  '1,2',
  '05',
  '5',
  '2030',
  '01.01.2027',
  '2027-01-05',
  '4111111111111111',
  'x@y.z',
  'https://e.example/',
  'day',
  'month',
  ...FULL,
  'notify-url',
  'Client_OrderId',
  'cvv',
];
// eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
const tokenText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 120 }).map((t) => t.join(''));
const unicodeText = fc.string({ unit: 'binary', maxLength: 200 });
const headerPlusRows = fc
  .tuple(fc.subarray(FULL, { minLength: 1 }), fc.constantFrom('\n', '\r\n', '\r'), tokenText)
  .map(([cols, eol, rest]) => `${cols.join(';')}${eol}${rest}`);
const anyText = fc.oneof(tokenText, unicodeText, headerPlusRows);

/** Lines as the rule book counts them: CRLF, LF and a lone CR each end one. */
const lineLengths = (text: string) => text.split(/\r\n|\r|\n/).map((l) => l.length);

function inside(range: Range, lengths: number[]): string | undefined {
  const { start, end } = range;
  for (const p of [start, end]) {
    if (!(p.line >= 0 && p.line < lengths.length)) return `line ${p.line} of ${lengths.length}`;
    if (!(p.character >= 0 && p.character <= lengths[p.line])) return `character ${p.character} > ${lengths[p.line]} on line ${p.line}`;
  }
  if (start.line > end.line || (start.line === end.line && start.character > end.character)) return 'start after end';
  return undefined;
}

describe('linter properties', () => {
  it('never throws; every diagnostic and every fix edit lies inside the document', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const lengths = lineLengths(text);
        const { diagnostics } = lint(text, { today: TODAY });
        for (const d of diagnostics) {
          const bad = inside(d.range, lengths);
          assert.equal(bad, undefined, `${d.code} ${JSON.stringify(d.range)}: ${bad}`);
          for (const f of d.fixes) {
            for (const e of f.edits) {
              const badEdit = inside(e.range, lengths);
              assert.equal(badEdit, undefined, `${d.code} fix ${saidText(f.title)} ${JSON.stringify(e.range)}: ${badEdit}`);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
  it('applySafeFixes never throws, and on a ";" file one pass leaves no safe fix for a second pass', () => {
    fc.assert(
      fc.property(headerPlusRows, (text) => {
        const once = applySafeFixes(text, { today: TODAY });
        const codes = Array.from({ length: once.applied.count }, (_, k) => once.applied.at(k).code);
        if (codes.includes('delimiter')) return; // the rewrite comes first, the rest next pass
        const twice = applySafeFixes(once.text, { today: TODAY });
        assert.equal(twice.applied.count, 0, JSON.stringify(text));
        assert.equal(twice.text, once.text);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('parseCsv properties', () => {
  it('field bounds ascend through the text and stay inside it', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        let last = 0;
        for (const r of parseCsv(text).records) {
          for (let i = 0; i < r.values.length; i++) {
            const s = r.fieldStart(i);
            const e = r.fieldEnd(i);
            assert.ok(s >= last && s <= e && e <= text.length, `field ${i}: ${s}..${e} after ${last} in ${text.length}`);
            last = e;
          }
          if (r.syntaxProblem) {
            assert.ok(r.syntaxProblem.start >= r.start && r.syntaxProblem.start <= r.syntaxProblem.end && r.syntaxProblem.end <= r.end);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  const valueChars = fc.constantFrom(';', '"', '\r', '\n', ',', ' ', 'a', 'b', 'é', '😀', '\t', '1');
  const value = fc.array(valueChars, { maxLength: 8 }).map((c) => c.join(''));
  const record = fc.array(value, { minLength: 1, maxLength: 5 }).filter((r) => !(r.length === 1 && r[0] === '')); // blank lines are not data
  const table = fc.record({
    rows: fc.array(fc.tuple(record, fc.constantFrom('\n', '\r\n', '\r')), { minLength: 1, maxLength: 8 }),
    finalBreak: fc.boolean(),
    bom: fc.boolean(),
  });

  it('reads back exactly the values written with quoteField, at exactly the written offsets', () => {
    fc.assert(
      fc.property(table, ({ rows, finalBreak, bom }) => {
        let text = bom ? '\ufeff' : '';
        const expected: { values: string[]; bounds: number[] }[] = [];
        rows.forEach(([values, eol], r) => {
          const bounds: number[] = [];
          values.forEach((v, i) => {
            if (i > 0) text += ';';
            const start = text.length;
            text += quoteField(v);
            bounds.push(start, text.length);
          });
          expected.push({ values, bounds });
          if (r < rows.length - 1 || finalBreak) text += eol;
        });
        const csv = parseCsv(text);
        assert.equal(csv.bom, bom);
        const got = csv.records.map((rec) => ({
          values: rec.values,
          bounds: rec.values.flatMap((_, i) => [rec.fieldStart(i), rec.fieldEnd(i)]),
        }));
        assert.deepEqual(got, expected, JSON.stringify(text));
        assert.ok(csv.records.every((rec) => rec.syntaxProblem === undefined));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('fix properties', () => {
  const valueChars = fc.constantFrom(';', '"', '\r\n', '\n', ',', ' ', 'a', 'é', '\t', '1');
  const value = fc.array(valueChars, { maxLength: 6 }).map((c) => c.join(''));
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  const names = fc.uniqueArray(fc.constantFrom(...FULL), { minLength: 2, maxLength: 6 });
  const eolArb = fc.constantFrom('\n', '\r\n', '\r');

  /** Writes a table with `delimiter`; returns the text and the rows as written. */
  const write = (header: string[], rows: string[][], delimiter: string, eol: string, finalBreak: boolean) =>
    [header, ...rows].map((r) => r.map((v) => quoteField(v, delimiter)).join(delimiter)).join(eol) + (finalBreak ? eol : '');

  const table = names.chain((header) =>
    fc.record({
      header: fc.constant(header),
      rows: fc.array(fc.array(value, { minLength: header.length, maxLength: header.length }), { maxLength: 5 }),
      eol: eolArb,
      finalBreak: fc.boolean(),
    }),
  );

  it('delimiter: the rewrite of any comma table reads back, with ";", as the same table', () => {
    fc.assert(
      fc.property(table, ({ header, rows, eol, finalBreak }) => {
        const text = write(header, rows, ',', eol, finalBreak);
        const { diagnostics } = lint(text, { today: TODAY });
        assert.deepEqual(
          diagnostics.map((d) => d.code),
          ['delimiter'],
          JSON.stringify(text),
        );
        const fixed = applyFix(text, diagnostics[0].fixes[0].edits);
        const back = parseCsv(fixed).records.map((r) => r.values);
        assert.deepEqual(
          back,
          [header, ...rows].filter((r) => !(r.length === 1 && r[0] === '')),
          JSON.stringify(fixed),
        );
        assert.equal(/[\r\n]$/.test(fixed), finalBreak);
      }),
      { numRuns: 300 },
    );
  });

  it('missing-column: the append fix adds the column to the header and an empty last field to every row', () => {
    fc.assert(
      fc.property(table, ({ header, rows, eol, finalBreak }) => {
        const present = header.filter((h) => h !== 'currency');
        const kept = rows.map((r) => r.slice(0, present.length)).filter((r) => !(r.length === 1 && r[0] === ''));
        const text = write(present, kept, ';', eol, finalBreak);
        const d = lint(text, { today: TODAY }).diagnostics.find((x) => x.code === 'missing-column' && x.columnName === 'currency');
        assert.ok(d, JSON.stringify(text));
        const fixed = applyFix(text, d.fixes[0].edits);
        assert.deepEqual(
          parseCsv(fixed).records.map((r) => r.values),
          [[...present, 'currency'], ...kept.map((r) => [...r, ''])],
          JSON.stringify(fixed),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('positions property', () => {
  // Every code the rule table places on a cell (a new one is checked here without a list to update), but
  // csv-syntax: it points at the broken quote inside a cell, not the whole cell.
  const CELL_CODES = new Set(
    (Object.keys(CodeInfo) as Code[]).filter((code) => CodeInfo[code].where === 'cell' && code !== Codes.csvSyntax),
  );
  const POOL = [
    '',
    'SRC',
    'DST',
    'src',
    '1',
    '0',
    '10.5',
    '1,2',
    'a;b',
    'x"y',
    'l1\nl2',
    'l1\r\nl2',
    '05',
    '5',
    '2030',
    '01.01.2020',
    '01.01.2030',
    '31.02.2027',
    '4111111111111111',
    '4111111111111112',
    'US',
    'DE',
    'EUR',
    'x@y.z',
    'day',
    'https://e.example/',
    '😀',
    'é'.repeat(130),
    ' x ',
    'x\u200b',
  ];
  const scenario = fc
    // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
    .uniqueArray(fc.constantFrom(...FULL, 'amount-from', 'amount-to', 'amount-sequence', 'server_callback_url'), {
      minLength: 1,
      maxLength: 12,
    })
    .chain((header) =>
      fc.record({
        header: fc.constant(header),
        rows: fc.array(
          fc.tuple(
            // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
            fc.array(fc.constantFrom(...POOL), { minLength: header.length, maxLength: header.length }),
            fc.constantFrom('\n', '\r\n', '\r'),
          ),
          { maxLength: 6 },
        ),
        bom: fc.boolean(),
      }),
    );

  it('cell diagnostics sit exactly on a written cell of their column; row diagnostics on a whole record', () => {
    fc.assert(
      fc.property(scenario, ({ header, rows, bom }) => {
        let text = bom ? '\ufeff' : '';
        const cells = new Map<string, Set<string>>();
        const records = new Set<string>();
        const spans: [number, number, string][][] = [];
        for (const values of [header, ...rows.map((r) => r[0])]) {
          const span: [number, number, string][] = [];
          values.forEach((v, i) => {
            if (i > 0) text += ';';
            const start = text.length;
            text += quoteField(v);
            span.push([start, text.length, header[i]]);
          });
          spans.push(span);
          text += rows[spans.length - 2]?.[1] ?? '\r\n';
        }
        const index = new LineIndex(text);
        const key = (a: number, b: number) => JSON.stringify(index.range(a, b));
        for (const span of spans.slice(1)) {
          for (const [a, b, col] of span) {
            if (!cells.has(col)) cells.set(col, new Set());
            cells.get(col)!.add(key(a, b));
          }
          records.add(key(span[0][0], span[span.length - 1][1]));
        }
        for (const d of lint(text, { today: TODAY }).diagnostics) {
          const r = JSON.stringify(d.range);
          if (CELL_CODES.has(d.code))
            assert.ok(cells.get(d.columnName!)?.has(r), `${d.code} ${d.columnName} ${r} in ${JSON.stringify(text)}`);
          else if (d.code === 'amount-mode' || d.code === 'field-count') assert.ok(records.has(r), `${d.code} ${r}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
