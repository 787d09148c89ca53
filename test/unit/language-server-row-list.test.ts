// RowList (the language server's data rows in blocks) against a plain array of rows with their lines:
// after any sequence of splices (rows replaced by more, fewer or other rows, the rows after them moved by
// some lines), every row is found at its index, on its line and under its number, lines outside rows
// belong to none, and the rows with problems come out in order. Blocks of a few rows put block edges
// under most splices.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RowList, type RowState } from '../../src/language-server/rowList';
import type { LintDiagnostic } from '../../src/core/rules/types';

const problem = {
  code: 'duplicate-order-id',
  severity: 'warning',
  message: 'm',
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  fixes: [],
} as unknown as LintDiagnostic;

const rowAt = (line: number, lines: number, dup: boolean): RowState => ({
  line,
  lines,
  diagnostics: [],
  dup: dup ? problem : undefined,
  key: undefined,
  src: false,
  srcNeedsState: false,
  keyFrom: -1,
  keyTo: -1,
});

/** Rows one after another from `line`, with a gap of `gap` lines before each (blank lines). */
function layout(line: number, shapes: readonly { lines: number; gap: number; dup: boolean }[]): RowState[] {
  return shapes.map(({ lines, gap, dup }) => {
    line += gap;
    const row = rowAt(line, lines, dup);
    line += lines;
    return row;
  });
}

const shape = fc.record({ lines: fc.integer({ min: 1, max: 3 }), gap: fc.integer({ min: 0, max: 1 }), dup: fc.boolean() });

describe('RowList (rows in blocks)', () => {
  it('after any splices finds every row by index, line and number, as a plain array does', () => {
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 1, maxLength: 30 }),
        fc.array(
          fc.record({ at: fc.nat(), count: fc.integer({ min: 1, max: 6 }), rows: fc.array(shape, { minLength: 1, maxLength: 8 }) }),
          { maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 5 }),
        (start, splices, blockRows) => {
          let model = layout(1, start).map((row) => ({ row, line: row.line }));
          const list = new RowList(
            model.map(({ row }) => row),
            blockRows,
          );
          for (const { at, count, rows } of splices) {
            const r = at % model.length;
            const n = Math.min(count, model.length - r);
            // The new rows take the place of the old from the first one's line; the rows after move by the difference.
            const from = model[r].line;
            const oldEnd = model[r + n - 1].line + model[r + n - 1].row.lines;
            const fresh = layout(from, rows);
            const newEnd = fresh[fresh.length - 1].line + fresh[fresh.length - 1].lines;
            const delta = newEnd - oldEnd;
            model = [
              ...model.slice(0, r),
              ...fresh.map((row) => ({ row, line: row.line })),
              ...model.slice(r + n).map(({ row, line }) => ({ row, line: line + delta })),
            ];
            list.splice(r, n, fresh, delta);
          }
          assert.equal(list.length, model.length);
          const rowOfLine = new Map<number, number>();
          model.forEach(({ row, line }, i) => {
            assert.equal(list.get(i), row);
            assert.equal(list.lineOf(row), line);
            assert.equal(list.numberOf(row), i + 1);
            for (let k = 0; k < row.lines; k++) rowOfLine.set(line + k, i);
          });
          const last = model[model.length - 1];
          for (let line = 0; line <= last.line + last.row.lines + 1; line++)
            assert.equal(list.at(line), rowOfLine.get(line) ?? -1, `line ${line}`);
          assert.deepEqual(
            [...list.withProblems()],
            model.map(({ row }) => row).filter((row) => row.dup !== undefined),
          );
          assert.deepEqual(list.problemCounts(), [0, model.filter(({ row }) => row.dup !== undefined).length, 0]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forgets what it published for a row whose duplicate-order-id goes', () => {
    const rows = layout(1, [{ lines: 1, gap: 0, dup: true }]);
    const list = new RowList(rows, 2);
    rows[0].shown = { line: 1, dup: problem, diagnostics: [problem] };
    list.setDup(rows[0], undefined);
    assert.equal(rows[0].shown, undefined);
    assert.deepEqual([...list.withProblems()], []);
  });
});
