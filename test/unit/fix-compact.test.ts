// Fix-all keeps each safe fix as numbers (issue 17: `fix` peaked at 3-5x `lint` on files fixed on every
// row). What it writes must not change: on hostile shapes and random mixtures of their rows, the text and
// the list of applied fixes are exactly those of the editor's path, a full lint whose diagnostics carry
// their fixes as objects, whose safe edits the language server sends as one workspace edit (applied here
// as an editor applies it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applySafeFixes, safeFixEdits } from '../../src/core/rules/fixAll';
import { lint } from '../../src/core/rules/lint';
import { SafeFixList } from '../../src/core/rules/safeFixList';
import { ourWords, said, typed } from '../../src/core/output';
import { applyFix } from '../fixtures/lint-cases/helpers';
import { blankRuns, bomLines, HEADER, malformedRows, multilineQuoted, shortRows, validRows } from '../fixtures/hostile/shapes';

const TODAY = { year: 2026, month: 11, day: 22 };

/** The reference: every diagnostic with its fix objects, in position order, and the editor's fix-all. */
function viaDiagnostics(text: string) {
  const result = lint(text, { today: TODAY });
  const applied = result.diagnostics.flatMap((d) =>
    d.fixes.filter((f) => f.safe).map((f) => ({ code: d.code, title: f.title, start: d.range.start })),
  );
  const edits = safeFixEdits(result);
  return { text: edits.length === 0 ? text : applyFix(text, edits), applied };
}

function assertSame(text: string): void {
  const got = applySafeFixes(text, { today: TODAY });
  const want = viaDiagnostics(text);
  const show = JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}...` : text);
  assert.equal(got.text, want.text, show);
  const applied = Array.from({ length: got.applied.count }, (_, k) => got.applied.at(k));
  assert.deepEqual(
    applied.map((a) => ({ code: a.code, title: a.title, start: a.range.start })),
    want.applied,
    show,
  );
}

/** Rows of the hostile shapes, each with something to fix (or broken so nothing can be). */
const ROWS = [
  '\ufeffA1;src;5555555555554444;1;2031;10.00;EUR;2031-01-05',
  'A2;src;5555555555554444;3;2031;10.00;EUR;5/1/2031',
  '"O3"x;SRC;5555555555554444;01;2031;10.00;EUR;01.01.2031',
  'O4;Dst;5555555555554444;12;2031;10.00;EUR;01.01.2031',
  'a',
  'x;"multi\r\nline ""quoted"";"',
  '"never closed;src;1',
  '\ufeff"q"x;src;5555555555554444;7;2031;10.00;EUR;2031-01-07',
  '',
];
const EOLS = ['\n', '\r\n', '\r'];

describe('fix-all, compact', () => {
  it('writes exactly what applying every safe fix of a full lint writes, on each hostile shape', () => {
    const shapes = [bomLines(300), malformedRows(300), multilineQuoted(100), shortRows(300), blankRuns(300), validRows(300)];
    shapes.push(`${HEADER}\n${'a\n'.repeat(300)}`, '"'.repeat(3000), `\ufeffCLIENT-ORDERID,RP CARD TYPE\nO1,src\n`);
    for (const text of shapes) assertSame(text);
  });

  it('and on random mixtures of their rows, line endings and byte order marks', () => {
    const file = fc.record({
      bom: fc.boolean(),
      // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
      rows: fc.array(fc.tuple(fc.constantFrom(...ROWS), fc.constantFrom(...EOLS)), { maxLength: 12 }),
    });
    fc.assert(
      fc.property(file, ({ bom, rows }) => {
        assertSame(`${bom ? '\ufeff' : ''}${HEADER}\n${rows.map(([row, eol]) => row + eol).join('')}`);
      }),
      { numRuns: 500 },
    );
  });

  it('applySafeFixes counts every safe fix of a full lint, and a file fixed on every row stores each title once', () => {
    const text = bomLines(2000);
    const { applied } = applySafeFixes(text, { today: TODAY });
    assert.equal(applied.count, viaDiagnostics(text).applied.length);
    const list = lint(text, { today: TODAY, safeFixesOnly: true }).safeFixes!;
    assert.ok(list.count >= 3 * 2000, `${list.count} fixes`);
    // rp_card_type, expire-month (nine values) and start-date (nine dates): a few dozen strings, not thousands;
    // besides them, each row's id without the BOM it starts with (id-whitespace's fix: one text a row by nature).
    assert.ok(list.distinctStrings < 100 + 2000, `${list.distinctStrings} strings kept for ${list.count} fixes`);
  });

  it('keeps fixes and edits in the order given, past its first allocation', () => {
    const list = new SafeFixList();
    for (let i = 0; i < 1000; i++) {
      list.addFix('invalid-value', i % 2 ? ourWords('odd') : said`Change to ${typed.count(i % 3)}`, i * 10);
      list.addEdit(i * 10, i * 10 + 3, String(i % 7));
    }
    assert.equal(list.count, 1000);
    assert.equal(list.editCount, 1000);
    assert.deepEqual([list.code(999), list.title(999), list.start(999)], ['invalid-value', ourWords('odd'), 9990]);
    assert.deepEqual(list.title(998), said`Change to ${typed.count(998 % 3)}`);
    // Each title kept once, by its parts: 'odd' and three "Change to N", beside the code and seven edit texts.
    assert.equal(list.distinctStrings, 1 + 7 + 4);
    assert.deepEqual([list.editStart(500), list.editEnd(500), list.editText(500)], [5000, 5003, '3']);
  });
});
