// The ledger's edits of a whole batch change only what they name, byte for byte elsewhere: emptying the
// cvv2 values (`paygate fix --strip-cvv`, the editor's "Empty the cvv2 values") and moving rows out
// (`already-sent`). Files mix every line break (LF, CRLF, a lone CR) between records and inside quoted
// values; the generator records where each cell and each break is, so the expected text is cut from the
// original by offsets, without our CSV reader. A merchant's quoted "Savings plan:\nrising amounts" once
// came back with CRLF inside.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { quoteField } from '../../src/core/csv/write';
import { readBatch } from '../../src/core/rules/batch';
import { moveRowsOut, stripCvv } from '../../src/core/rules/batchEdits';
import { applyEdits } from '../../src/core/text';

const EOLS = ['\n', '\r\n', '\r'];
const COLUMNS = ['client-orderid', 'order_desc', 'amount', 'cvv2', 'currency'];
/** Values with line breaks of every kind, quotes and delimiters (written through quoteField). */
const VALUES = ['', 'x', '12.00', 'Savings plan:\nrising amounts', 'a\r\nb', 'a\rb', '\n', '\r', 'q"q', 'x;y', 'é😀', ' '];
const CVVS = ['', '123', '4567', '"12\n3"', '""'];

// eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
const eol = fc.constantFrom(...EOLS);
const row = fc.record({
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  cells: fc.array(fc.constantFrom(...VALUES), { minLength: COLUMNS.length - 2, maxLength: COLUMNS.length - 2 }),
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  cvv: fc.constantFrom(...CVVS),
  eol,
  moved: fc.boolean(),
});
const file = fc.record({ rows: fc.array(row, { maxLength: 8 }), headerEol: eol, finalBreak: fc.boolean() });

type File = typeof file extends fc.Arbitrary<infer T> ? T : never;

interface Written {
  text: string;
  header: string;
  headerEol: string;
  /** Each row: where its text starts and ends, where the cvv2 cell is, and whether it is to be moved. */
  rows: { start: number; end: number; cvvStart: number; cvvEnd: number; cvvEmpty: boolean; moved: boolean }[];
}

/** Writes the file and remembers the offsets of every row and cvv2 cell. */
function write(f: File): Written {
  const header = COLUMNS.join(';');
  let text = header;
  const rows: Written['rows'] = [];
  f.rows.forEach((r, i) => {
    text += i === 0 ? f.headerEol : f.rows[i - 1].eol;
    const start = text.length;
    text += `R${i};${quoteField(r.cells[0])};${quoteField(r.cells[1])};`;
    const cvvStart = text.length;
    text += r.cvv.startsWith('"') ? r.cvv : quoteField(r.cvv);
    const cvvEnd = text.length;
    text += `;${quoteField(r.cells[2])}`;
    rows.push({ start, end: text.length, cvvStart, cvvEnd, cvvEmpty: r.cvv === '' || r.cvv === '""', moved: r.moved });
  });
  if (f.finalBreak) text += f.rows.length ? f.rows[f.rows.length - 1].eol : f.headerEol;
  return { text, header, headerEol: f.headerEol, rows };
}

/** The text with the spans [from, to) cut out (sorted, possibly touching or overlapping). */
function cut(text: string, spans: [number, number][], insert: (from: number) => string = () => ''): string {
  let out = '';
  let at = 0;
  for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (to <= at) continue;
    out += text.slice(at, Math.max(at, from)) + (from >= at ? insert(from) : '');
    at = to;
  }
  return out + text.slice(at);
}

const show = (text: string) => JSON.stringify(text);

describe('batch edits change only what they name', () => {
  it('stripCvv empties exactly the non-empty cvv2 cells; every other byte, every line break inside and outside quotes, is kept', () => {
    fc.assert(
      fc.property(file, (f) => {
        const w = write(f);
        const { text, count } = stripCvv(w.text, readBatch(w.text));
        const named = w.rows.filter((r) => !r.cvvEmpty).map((r): [number, number] => [r.cvvStart, r.cvvEnd]);
        assert.equal(count, named.length, show(w.text));
        assert.equal(text, cut(w.text, named), `${show(w.text)} → ${show(text)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('moveRowsOut deletes exactly the moved rows with one line break each and writes them as they were', () => {
    fc.assert(
      fc.property(file, (f) => {
        const w = write(f);
        const batch = readBatch(w.text);
        const lines = new Set<number>();
        for (const r of w.rows) if (r.moved) lines.add(batch.csv.index.positionAt(r.start).line + 1);
        const { moved, edits, count } = moveRowsOut(batch, lines);
        const chosen = w.rows.filter((r) => r.moved);
        assert.equal(count, chosen.length);
        // Each moved row goes with the break after it; the last row of a file without a final break, with the one before.
        const spans = w.rows.flatMap((r, i): [number, number][] => {
          if (!r.moved) return [];
          const next = w.rows[i + 1]?.start ?? (f.finalBreak ? w.text.length : r.end);
          return next > r.end ? [[r.start, next]] : [[i > 0 ? w.rows[i - 1].end : w.header.length, r.end]];
        });
        const left = applyEdits(w.text, edits);
        assert.equal(left, cut(w.text, spans), `${show(w.text)} → ${show(left)}`);
        // The new file's breaks are the header's (CRLF when nothing follows the header).
        const br = w.text.length > w.header.length ? w.headerEol : '\r\n';
        const expected = [w.header, ...chosen.map((r) => w.text.slice(r.start, r.end))].join(br) + br;
        assert.equal(moved, expected, `${show(w.text)} moved ${show(moved)}`);
      }),
      { numRuns: 500 },
    );
  });
});
