// Splitting a batch into parts: on random batches (quoted delimiters, quotes and line breaks of every
// kind inside values, any record separator, a BOM, blank lines), the parts' rows joined are the original's
// rows exactly, every part has the header and keeps within its limit as the gateway weighs it (Base64 of
// the text sent), and a file that cannot be cut safely is refused at its line and column. The payload is
// weighed without building it: the count agrees with prepareSubmission's own payload on random texts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseCsv } from '../../src/core/csv/parse';
import { quoteField } from '../../src/core/csv/write';
import { prepareSubmission } from '../../src/core/gateway';
import { DEFAULT_MAX_PAYLOAD_BYTES, payloadLength } from '../../src/core/payload';
import { lint } from '../../src/core/rules/lint';
import { isPartOf, partName, splitBatch, type SplitLimit, type SplitPart } from '../../src/core/split/split';
import { saidText } from '../../src/core/output';

const root = join(__dirname, '..', '..');
const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');

const HEADER = 'client-orderid;order_desc;amount';
const value = fc.stringMatching(/^[a-zA-Zé€ ;"\r\n0-9]{0,12}$/).map((v) => quoteField(v));
const row = fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), value, value).map(([id, a, b]) => `R-${id};${a};${b}`);
const breaks = fc.constantFrom('\r\n', '\n', '\r');
/** A batch: a header, rows with any separator, maybe blank lines between them, a BOM, a final break or not. */
const batch = fc
  .tuple(fc.array(fc.tuple(row, breaks, fc.boolean()), { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean(), breaks)
  .map(([rows, bom, last, headerBreak]) => {
    let text = (bom ? '\ufeff' : '') + HEADER + headerBreak;
    rows.forEach(([r, b, blank], i) => {
      text += r + (i < rows.length - 1 || last ? b : '');
      if (blank && i < rows.length - 1) text += b;
    });
    return { text, rows: rows.map(([r]) => r) };
  });

/** Each row's text as the parts hold it (its line break dropped), in order. */
function partRows(part: SplitPart): string[] {
  const csv = parseCsv(part.text);
  const out: string[] = [];
  for (let r = 1; r < csv.recordCount; r++) out.push(part.text.slice(csv.recordStart(r), csv.record(r).end));
  return out;
}

function checkParts(text: string, rows: readonly string[], limit: SplitLimit): SplitPart[] {
  const split = splitBatch(text, limit);
  assert.ok(split.ok, split.ok ? '' : split.problem.message);
  const parts = split.parts;
  assert.deepEqual(parts.flatMap(partRows), rows, "the parts' rows joined are the original's rows, in order, quoted line breaks and all");
  for (const part of parts) {
    assert.ok(part.text.startsWith(`${HEADER}`), 'every part starts with the header');
    assert.equal(partRows(part).length, part.rows);
    const sent = prepareSubmission(part.text).payload;
    assert.equal(part.payloadBytes, sent.length, 'the payload size said is the Base64 submit sends');
    if ('maxBytes' in limit) assert.ok(sent.length <= limit.maxBytes, `part ${part.number}: ${sent.length} > ${limit.maxBytes}`);
    else assert.ok(part.rows <= limit.maxRows);
    assert.equal(lint(part.text).diagnostics.filter((d) => d.code === 'csv-syntax').length, 0, 'no value cut');
  }
  assert.deepEqual(
    parts.map((p) => p.number),
    parts.map((_, i) => i + 1),
  );
  return parts;
}

describe('paygate split: the parts of a batch', () => {
  it('round-trips random batches within a number of rows (property)', () => {
    fc.assert(
      fc.property(batch, fc.integer({ min: 1, max: 12 }), ({ text, rows }, maxRows) => {
        const parts = checkParts(text, rows, { maxRows });
        assert.equal(parts.length, Math.ceil(rows.length / maxRows), 'each part full but the last');
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips random batches within a payload size, each part as large as it may be (property)', () => {
    fc.assert(
      fc.property(batch, fc.integer({ min: 200, max: 2000 }), ({ text, rows }, maxBytes) => {
        const split = splitBatch(text, { maxBytes });
        if (!split.ok) {
          // Only a row too big for the limit on its own stops it, at that row's line.
          assert.match(split.problem.message, /over the maximum of/);
          return;
        }
        const parts = checkParts(text, rows, { maxBytes });
        // Greedy: the next part's first row would not have fitted in the part before.
        for (let i = 0; i + 1 < parts.length; i++) {
          const next = parseCsv(parts[i + 1].text);
          const firstRow = parts[i + 1].text.slice(next.recordStart(1), next.recordCount > 2 ? next.recordStart(2) : undefined);
          assert.ok(payloadLength(parts[i].text + firstRow) > maxBytes, `part ${i + 1} could have taken one more row`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a quoted value with line breaks whole, and says which lines each part holds', () => {
    const split = splitBatch(valid, { maxRows: 1 });
    assert.ok(split.ok);
    assert.equal(split.parts.length, 4);
    // MAG-2027-0003's description holds a bare LF: its row is lines 4 to 5.
    const third = split.parts[2];
    assert.deepEqual([third.firstLine, third.lastLine], [4, 5]);
    assert.match(third.text, /"[^"]*\n[^"]*"/);
    assert.equal(split.parts.map((p) => p.text.slice(p.text.indexOf('\n') + 1)).join(''), valid.slice(valid.indexOf('\n') + 1));
  });

  it('refuses what cannot be cut safely, at its line and column, and writes nothing', () => {
    const quote = splitBatch(`${HEADER}\r\nA-1;"open;1\r\nA-2;x;2\r\n`, { maxRows: 1 });
    assert.ok(!quote.ok);
    assert.deepEqual(quote.problem.position, { line: 1, character: 4 }, 'the opening quote');
    assert.match(quote.problem.message, /quote/);
    const big = splitBatch(`${HEADER}\r\nA-1;x;1\r\nA-2;${'y'.repeat(300)};2\r\n`, { maxBytes: 200 });
    assert.ok(!big.ok);
    assert.equal(big.problem.position.line, 2);
    assert.match(big.problem.message, /over the maximum of 200/);
    const commas = splitBatch('client-orderid,amount\r\nA-1,1\r\n', { maxRows: 1 });
    assert.ok(!commas.ok);
    assert.match(commas.problem.message, /commas/);
    for (const empty of ['', '\ufeff', '\r\n\r\n', `${HEADER}\r\n`, `${HEADER}\r\n\r\n`]) {
      const r = splitBatch(empty, { maxRows: 5 });
      assert.ok(!r.ok, JSON.stringify(empty));
    }
  });

  it('names the parts so that they sort in order, and knows its own parts', () => {
    assert.equal(partName('march.rpcsv', 1, 3), 'march.part-001.rpcsv');
    assert.equal(partName('march.recurring.csv', 12, 12), 'march.part-012.rpcsv');
    assert.equal(partName('big.csv', 7, 1500), 'big.part-0007.rpcsv');
    const names = Array.from({ length: 1200 }, (_, i) => partName('b.rpcsv', i + 1, 1200));
    assert.deepEqual([...names].sort(), names);
    assert.ok(isPartOf('march.part-001.rpcsv', 'march.rpcsv'));
    assert.ok(isPartOf('march.part-1234.rpcsv', 'march.rpcsv'));
    assert.ok(!isPartOf('march.part-01.rpcsv', 'march.rpcsv'));
    assert.ok(!isPartOf('march2.part-001.rpcsv', 'march.rpcsv'));
    assert.ok(!isPartOf('march.rpcsv', 'march.rpcsv'));
  });
});

describe('the payload size of a batch', () => {
  it('is the length of the Base64 prepareSubmission sends, on random texts (property)', () => {
    const text = fc
      .tuple(
        fc.boolean(),
        fc.array(fc.oneof(fc.constantFrom('\r\n', '\n', '\r', '"', ';', 'é', '€', '😀'), fc.string({ maxLength: 5 })), { maxLength: 30 }),
      )
      .map(([bom, pieces]) => (bom ? '\ufeff' : '') + pieces.join(''));
    fc.assert(
      fc.property(text, (t) => assert.equal(payloadLength(t), prepareSubmission(t).payload.length, JSON.stringify(t))),
      { numRuns: 1000 },
    );
  });
});

describe('batch-too-large', () => {
  it('warns on the header of a batch over the maximum given, and not at or under it', () => {
    const size = payloadLength(valid);
    const over = lint(valid, { maxPayloadBytes: size - 1 }).diagnostics.filter((d) => d.code === 'batch-too-large');
    assert.equal(over.length, 1);
    assert.equal(over[0].severity, 'warning');
    assert.equal(over[0].range.start.line, 0);
    assert.match(
      saidText(over[0].message),
      new RegExp(`${size.toLocaleString('en-US')} bytes .* maximum of ${(size - 1).toLocaleString('en-US')}`),
    );
    assert.match(saidText(over[0].message), new RegExp(`paygate split --max-bytes ${size - 1}`));
    assert.equal(lint(valid, { maxPayloadBytes: size }).diagnostics.filter((d) => d.code === 'batch-too-large').length, 0);
    assert.equal(lint(valid).diagnostics.filter((d) => d.code === 'batch-too-large').length, 0, 'no maximum given: not checked');
    assert.ok(DEFAULT_MAX_PAYLOAD_BYTES > size);
  });
});
