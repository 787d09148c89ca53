// `fix` never changes a value it does not mean to: on any table with byte order marks (at the start and
// at line starts), quotes, delimiters and every line ending inside and between values, each cell after
// applySafeFixes (`paygate fix`) is either as it was or exactly the rule book's fix of it (an alias renamed to its column, a
// value rewritten by its kind's suggestion). A fix applied one character off changes a neighbour; broken
// rows (text after a closing quote) come before BOM lines, as in the file that turned A2;src into A2SRCc.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCsv } from '../../src/core/csv/parse';
import { hasIdNoise, withoutIdNoise } from '../../src/core/orderId';
import { quoteField } from '../../src/core/csv/write';
import { readBatch } from '../../src/core/rules/batch';
import { columnSpec } from '../../src/core/rules/columns';
import { applySafeFixes } from '../../src/core/rules/fixAll';
import { matchHeaderName } from '../../src/core/rules/header';
import { suggestValue } from '../../src/core/rules/values';

const TODAY = { year: 2026, month: 11, day: 22 };
const COLUMNS = [
  'client-orderid',
  'rp_card_type',
  'credit-card-number',
  'amount',
  'currency',
  'expire-month',
  'expire-year',
  'start-date',
  'finish-date',
  'birthday',
  'order_desc',
  'country',
];
/** How a header cell may be written: exactly, or in a spelling the alias fix renames. */
const SPELLINGS: ((name: string) => string)[] = [(n) => n, (n) => n.toUpperCase(), (n) => n.replace(/[-_]/g, ' '), (n) => ` ${n}`];
const VALUES = [
  '',
  'src',
  'Dst',
  'SRC',
  'DST',
  '5',
  '12',
  '2031',
  '10.00',
  'EUR',
  'DE',
  '5/1/2031',
  '2031-01-05',
  '05.01.2031',
  '31.02.2031',
  '4111111111111111',
  '\ufeff',
  '\ufeffsrc',
  '\ufeff5',
  '"',
  'a"b',
  '"q"',
  'x;y',
  ';',
  'l1\r\nl2',
  'l1\nl2',
  'l1\rl2',
  '\r\n',
  ',',
  ' ',
  'é😀',
];
const EOLS = ['\n', '\r\n', '\r'];
/** Cells written as they are, not through quoteField: broken CSV (text after a closing quote), after which offsets once slipped. */
const RAW = ['"a"b', '"x""y"z', '\ufeff"q"'];
const cell = fc.oneof(
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  { weight: 5, arbitrary: fc.constantFrom(...VALUES).map((v) => quoteField(v)) },
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  { weight: 1, arbitrary: fc.constantFrom(...RAW) },
);

// eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
const table = fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 2, maxLength: 7 }).chain((columns) =>
  fc.record({
    // eslint-disable-next-line no-restricted-syntax -- bounded: at most 7 columns and a fixed list of spellings
    header: fc.tuple(...columns.map((c) => fc.constantFrom(...SPELLINGS).map((spell) => spell(c)))),
    rows: fc.array(
      fc.record({
        cells: fc.array(cell, { minLength: columns.length, maxLength: columns.length }),
        // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
        eol: fc.constantFrom(...EOLS),
        bomAtStart: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
    fileBom: fc.boolean(),
    // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
    headerEol: fc.constantFrom(...EOLS),
    finalBreak: fc.boolean(),
  }),
);

describe('fix property', () => {
  it('every cell after applySafeFixes is unchanged or exactly the fix meant for it, and every delimiter and line break between them byte for byte, with BOMs, quotes and all line endings mixed in', () => {
    fc.assert(
      fc.property(table, ({ header, rows, fileBom, headerEol, finalBreak }) => {
        let text = (fileBom ? '\ufeff' : '') + header.map((h) => quoteField(h)).join(';');
        rows.forEach((row, r) => {
          text += r === 0 ? headerEol : rows[r - 1].eol;
          text += (row.bomAtStart ? '\ufeff' : '') + row.cells.join(';');
        });
        if (finalBreak) text += rows.length ? rows[rows.length - 1].eol : headerEol;

        const fixed = applySafeFixes(text, { today: TODAY }).text;
        const batch = readBatch(text);
        const before = parseCsv(text);
        const after = parseCsv(fixed);
        const show = JSON.stringify(text);
        assert.equal(after.records.length, before.records.length, show);
        assert.equal(fixed.startsWith('\ufeff'), false, `the file BOM is dropped: ${show}`);
        // Byte for byte between the cells: every delimiter and every line break (LF, CRLF, a lone CR) as it was.
        for (let r = 0; r < before.records.length; r++) {
          const b = before.records[r];
          const a = after.records[r];
          if (r + 1 < before.records.length) {
            const br = text.slice(b.end, before.records[r + 1].start);
            assert.equal(fixed.slice(a.end, after.records[r + 1].start), br, `the break after record ${r} of ${show}`);
          }
          if (b.syntaxProblem || a.syntaxProblem) continue;
          for (let i = 0; i + 1 < b.values.length; i++) {
            const gap = text.slice(b.fieldEnd(i), b.fieldStart(i + 1));
            assert.equal(fixed.slice(a.fieldEnd(i), a.fieldStart(i + 1)), gap, `record ${r} after cell ${i} of ${show}`);
          }
        }
        for (let r = 0; r < before.records.length; r++) {
          const was = before.records[r].values;
          const now = after.records[r].values;
          assert.equal(now.length, was.length, `record ${r} of ${show}`);
          for (let i = 0; i < was.length; i++) {
            if (now[i] === was[i]) continue;
            let meant: string | undefined;
            if (r === batch.headerIndex) {
              const m = matchHeaderName(was[i]);
              meant = m.kind === 'alias' ? m.column : undefined;
            } else {
              const column = batch.columns[i];
              const spec = column ? columnSpec(column) : undefined;
              // client-orderid: id-whitespace's fix removes whitespace around it and invisible characters in it.
              const noisyId = column === 'client-orderid' && hasIdNoise(was[i]);
              if (noisyId) meant = withoutIdNoise(was[i]);
              else meant = spec ? suggestValue(spec.kind, was[i]) : undefined;
            }
            assert.equal(
              now[i],
              meant,
              `record ${r} cell ${i}: ${JSON.stringify(was[i])} became ${JSON.stringify(now[i])} in ${show} → ${JSON.stringify(fixed)}`,
            );
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
