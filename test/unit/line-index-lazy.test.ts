import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex, type Position } from '../../src/core/text';

// LineIndex reads the text for line breaks only as far as a question needs (text.ts). Its answers must be
// those of an index of every line, whatever the order of the questions.

/** Every line start, read character by character: CRLF, LF and a lone CR each end a line. */
function referenceStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  }
  return starts;
}

function referencePosition(starts: number[], text: string, offset: number): Position {
  const o = Math.max(0, Math.min(offset, text.length));
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= o) line++;
  return { line, character: o - starts[line] };
}

function referenceOffset(starts: number[], text: string, p: Position): number {
  const line = Math.max(0, Math.min(p.line, starts.length - 1));
  return Math.min(starts[line] + p.character, text.length);
}

type Question = { kind: 'position'; offset: number } | { kind: 'offset'; line: number; character: number } | { kind: 'count' };

const question: fc.Arbitrary<Question> = fc.oneof(
  fc.record({ kind: fc.constant('position' as const), offset: fc.integer({ min: -2, max: 70 }) }),
  fc.record({ kind: fc.constant('offset' as const), line: fc.integer({ min: -1, max: 40 }), character: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('count' as const) }),
);

describe('LineIndex read as far as asked', () => {
  it('answers as an index of every line, questions in any order (property)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', ';', '\n', '\r', '\r\n'), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(question, { maxLength: 12 }), (t, questions) => {
        const index = new LineIndex(t);
        const starts = referenceStarts(t);
        for (const q of questions) {
          if (q.kind === 'position') assert.deepEqual(index.positionAt(q.offset), referencePosition(starts, t, q.offset));
          else if (q.kind === 'offset') assert.equal(index.offsetAt(q), referenceOffset(starts, t, q));
          else assert.equal(index.lineCount, starts.length);
        }
        assert.deepEqual(index.lineStarts, starts);
      }),
      { numRuns: 2000 },
    );
  });

  it('a position on line 1 of a long text does not read every line', () => {
    const text = 'a;b\r\n'.repeat(10_000);
    const index = new LineIndex(text);
    assert.deepEqual(index.range(0, 3), { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
    const held = (index as unknown as { starts: { length: number } }).starts.length;
    assert.ok(held <= 2, `${held} line starts read for a question about line 1`);
    assert.deepEqual(index.positionAt(5 * 9_999 + 1), { line: 9_999, character: 1 });
    assert.equal(index.lineCount, 10_001);
  });
});
