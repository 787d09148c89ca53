// The stream lint (a batch too large for the editor, read from disk in pieces) against the truth: for any
// text, cut into any pieces and linted in any chunk size, what the editor is shown — the first problems
// by severity and file order, the count of the rest, card-data-in-git — equals what a whole-file lint of
// the same text shows. The texts mix what makes cutting a stream hard: blank lines (before the header,
// between rows, at the end), quoted fields over several lines, an unterminated quote, CR, LF and CRLF,
// client-orderids repeated far apart, the first SRC row (and the first needing a state) late in the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint } from '../../src/core/rules/lint';
import { cardDataInGit } from '../../src/core/rules/cardDataInGit';
import { publishedDiagnostics } from '../../src/language-server/diagnostics';
import { StreamLint, type StreamProblems } from '../../src/language-server/streamLint';
import { generateBatch } from '../bench/generate';
import { TODAY } from '../fixtures/lint-cases/helpers';
import { saidText } from '../../src/core/output';

const RUNS = 300;
const URI = 'file:///batches/big.rpcsv';

const HEADERS = [
  'client-orderid;rp_card_type;credit-card-number;amount;currency;country;state;city;expire-month;expire-year',
  'client-orderid;rp_card_type;credit-card-number;amount;currency',
  'client-orderid;Rp_Card_Type;credit-card-number;amount-from;amount-to;currency;colour',
  '"client-orderid";rp_card_type;"credit-card-number";amount;currency',
  'client-orderid,rp_card_type,credit-card-number,amount,currency',
];

const IDS = ['ord-1', 'ord-2', 'ord-3', 'ord-1', '', 'x'.repeat(40), '"ord-2"', '4111111111111111'];
const TYPES = ['SRC', 'DST', 'src', 'XYZ', ''];
const CELLS = [
  '',
  'US',
  'DE',
  '5.00',
  'abc',
  '4111111111111111',
  '4242424242424241',
  '05',
  '13',
  '2031',
  'EUR',
  '"a;b"',
  '"multi\nline"',
  '"x""y"',
  'Berlin',
];

/** The fields of a row under a header of `width` columns: one too few on a skew of -1, one too many on 8. */
function fieldsFor(width: number, skew: number): number {
  if (skew === -1) return width - 1;
  return skew === 8 ? width + 1 : width;
}

/** One line of the file: a row (sometimes a field too many or too few), a blank line, or a broken record. */
const line = (width: number) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
          fc.constantFrom(...IDS),
          // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
          fc.constantFrom(...TYPES),
          // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
          fc.array(fc.constantFrom(...CELLS), { minLength: width - 1, maxLength: width - 1 }),
          fc.integer({ min: -1, max: 8 }),
        )
        .map(([id, type, cells, skew]) => [id, type, ...cells].slice(0, fieldsFor(width, skew)).join(';')),
    },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('ord-9;"unterminated', 'ord-8;"closed"after;x', 'ord-7;SRC;4111111111111111;1;EUR;US') },
  );

const batchText = fc
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  .tuple(fc.constantFrom(...HEADERS), fc.constantFrom('\n', '\r\n', '\r'), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean())
  .chain(([header, eol, blanksBefore, trailing, bom]) =>
    fc.array(line(header.split(/[;,]/).length), { minLength: 0, maxLength: 40 }).map((rows) => {
      const text = [...Array<string>(blanksBefore).fill(''), header, ...rows].join(eol) + (trailing ? eol : '');
      return (bom ? '\uFEFF' : '') + text;
    }),
  );

/** The text in pieces at these cut points (as a stream's reads deliver it). */
function pieces(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

function streamed(text: string, cuts: number[], chunkChars: number, keep: number, git = false): StreamProblems {
  const s = new StreamLint({ today: TODAY, keep, chunkChars, git: git ? { tracking: 'tracked', fileName: 'big.rpcsv' } : undefined });
  for (const p of pieces(text, cuts)) s.push(p);
  return s.end();
}

/** What the editor is shown for a whole-file lint of `text`, and for the stream's problems. */
function shownWhole(text: string, max: number) {
  const { diagnostics } = lint(text, { today: TODAY });
  return publishedDiagnostics(diagnostics, URI, max, diagnostics.length);
}
const shownStream = (p: StreamProblems, max: number) => publishedDiagnostics(p.diagnostics, URI, max, p.total);

describe('stream lint (batches read from disk)', () => {
  it('shows what a whole-file lint shows, for any text, pieces and chunk size', () => {
    fc.assert(
      fc.property(
        batchText,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(1, 3, 1000),
        (text, cuts, chunkChars, max) => {
          const got = streamed(text, cuts, chunkChars, max);
          assert.deepEqual(shownStream(got, max), shownWhole(text, max));
          assert.equal(got.total, lint(text, { today: TODAY }).diagnostics.length);
          assert.equal(got.stoppedAt, undefined);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('finds the first full card number for card-data-in-git where the whole-file check does', () => {
    fc.assert(
      fc.property(batchText, fc.array(fc.nat(), { maxLength: 4 }), fc.integer({ min: 1, max: 200 }), (text, cuts, chunkChars) => {
        const got = streamed(text, cuts, chunkChars, 1000, true);
        const whole = cardDataInGit(lint(text, { today: TODAY }).batch, 'tracked', 'big.rpcsv');
        assert.deepEqual(
          got.cardsInGit && { range: got.cardsInGit.range, message: got.cardsInGit.message },
          whole && { range: whole.range, message: whole.message },
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('counts the rows and numbers duplicates in the whole file on a generated batch cut into small chunks', () => {
    // Every 500th row repeats the client-orderid of the row 400 before it: far apart, across chunks.
    const lines = generateBatch(3_000).split('\r\n');
    for (let i = 501; i < lines.length - 1; i += 500) lines[i] = lines[i - 400].split(';')[0] + lines[i].slice(lines[i].indexOf(';'));
    const text = lines.join('\r\n');
    const got = streamed(text, [], 4_096, 1000);
    assert.equal(got.rows, 3_000);
    assert.deepEqual(shownStream(got, 1000), shownWhole(text, 1000));
    const duplicates = got.diagnostics.filter((d) => d.code === 'duplicate-order-id');
    assert.equal(duplicates.length, 5);
    assert.match(saidText(duplicates[0].message), /already used on row 101$/);
  });

  it('gives up at a record that never ends within the limit, saying where, and keeps what it found before', () => {
    const head = 'client-orderid;rp_card_type;credit-card-number;amount;currency\n';
    const text = `${head}ord-1;XYZ;4111111111111111;1.00;EUR\nord-2;SRC;"${'x'.repeat(5_000)}`;
    const s = new StreamLint({ today: TODAY, keep: 1000, chunkChars: 100, maxPendingChars: 1_000 });
    for (let i = 0; i < text.length; i += 64) s.push(text.slice(i, i + 64));
    const got = s.end();
    assert.equal(got.stoppedAt, 2);
    assert.ok(got.diagnostics.some((d) => d.code === 'invalid-value' && d.range.start.line === 1));
  });

  it('keeps no more than `keep` problems of each severity however many the file has', () => {
    const text = generateBatch(2_000).replace(/;EUR;/g, ';E1;');
    const got = streamed(text, [], 8_192, 10);
    assert.ok(got.total >= 2_000);
    assert.ok(got.diagnostics.length <= 30, `${got.diagnostics.length} kept`);
    assert.deepEqual(shownStream(got, 10), shownWhole(text, 10));
  });
});
