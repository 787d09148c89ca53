import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchRowKeys, diffAgainstSend } from '../../src/core/ledger';
import { readBatchRows, readPayerRows, recordBatchRows } from '../../src/core/ledger/batchRows';
import { nodeLedgerFs } from '../../src/core/ledger/ledgerFs';
import { CVV, rowHashText } from '../../src/core/ledger/rowKeys';
import { LedgerSecret } from '../../src/core/ledger/secret';
import { readSentTable, SentTable } from '../../src/core/ledger/sentTable';
import { RowCells } from '../../src/core/csv/rowCells';
import { readBatch, type Batch } from '../../src/core/rules/batch';
import { diffRowKeys } from '../fixtures/ledger/rowKeysDiff';

// Issue 40: a send keeps a keyed hash of each row's fields as written, cvv2 cut out (rowKeys.ts's row
// hash), and `paygate diff FILE` against that send takes a row of FILE whose hash is the kept one as
// unchanged without hashing and comparing its values one by one. The answer must stay the reference's
// (both sides' row keys compared whole, test/fixtures/ledger/rowKeysDiff.ts) whatever FILE did to the
// send's text: a value edited, re-quoted, a cvv2 changed, rows moved, dropped, added, the header reordered.

const HASH = 'ef'.repeat(32);
const HEADER = ['client-orderid', 'amount', 'cvv2', 'email', 'x-note'];
const cell = fc.oneof(fc.constantFrom('', '1', 'EUR', 'a;b', 'x"y', '4111111111111111', ' p '), fc.string({ maxLength: 4 }));
const quoted = (v: string) => (/[;"\r\n]/.test(v) || v.startsWith(' ') || v.endsWith(' ') ? `"${v.replaceAll('"', '""')}"` : v);
const newSecret = () => LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;

type Rows = string[][];
const textOf = (header: string[], rows: Rows, quote: (v: string, r: number, c: number) => string = quoted) =>
  [header.join(';'), ...rows.map((r, i) => r.map((v, c) => quote(v, i, c)).join(';'))].join('\r\n') + '\r\n';

/** What FILE may do to the send's rows. */
const EDITS: ((header: string[], rows: Rows, n: number) => string)[] = [
  (h, rows) => textOf(h, rows),
  (h, rows, n) =>
    textOf(
      h,
      rows.map((r, i) => (i === n % Math.max(rows.length, 1) ? r.map((v, c) => (c === 1 ? `${v}0` : v)) : r)),
    ),
  (h, rows, n) =>
    textOf(
      h,
      rows.map((r, i) => (i === n % Math.max(rows.length, 1) ? r.map((v, c) => (h[c] === CVV ? `${v}9` : v)) : r)),
    ),
  (h, rows, n) =>
    textOf(
      h,
      rows.map((r, i) => (i === n % Math.max(rows.length, 1) ? r.map((v, c) => (c === 4 ? `${v}z` : v)) : r)),
    ),
  (h, rows) => textOf(h, rows, (v, r, c) => (r % 2 === 0 && c === 3 ? `"${v.replaceAll('"', '""')}"` : quoted(v))),
  (h, rows) => textOf(h, [...rows].reverse()),
  (h, rows, n) => textOf(h, [...rows.slice(0, n % 3), ...rows.slice((n % 3) + 1), rows[0] ?? h.map(() => 'new')]),
  (h, rows) =>
    textOf(
      [h[0], h[3], h[2], h[1], h[4]],
      rows.map((r) => [r[0], r[3], r[2], r[1], r[4]]),
    ),
  (h, rows) => textOf([h[0], h[3], h[2], h[1], h[4]], rows),
];

const sendRows = fc.array(
  fc.tuple(fc.constantFrom('ORD-1', 'ORD-2', 'ORD-3', ' ORD-1', 'ORD-4', 'ORD-5'), cell, cell, cell, cell).map((r) => [...r]),
  { maxLength: 10 },
);

function withLedger<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-row-hash-'));
  return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** Each trusted row's row hash text as the diff reads the row (RowCells) and as the send does (the parse's cells). */
function rowTexts(batch: Batch): [string, string][] {
  const csv = batch.csv;
  const cvv = HEADER.flatMap((c, i) => (c === CVV ? [i] : []));
  const row = new RowCells();
  const out: [string, string][] = [];
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r) || csv.syntaxProblemAt(r)) continue;
    csv.readRow(r, row);
    const cells = csv.cells(r);
    out.push([rowHashText(csv.text, row.bounds, row.count, cvv), rowHashText(csv.text, cells.bounds, cells.values.length, cvv)]);
  }
  return out;
}

describe('diff against a send that kept row hashes', () => {
  it('gives the reference’s answer whatever FILE did to the sent rows (property)', async () => {
    await fc.assert(
      fc.asyncProperty(sendRows, fc.nat(EDITS.length - 1), fc.nat(20), async (rows, edit, n) => {
        const secret = newSecret();
        const before = textOf(HEADER, rows);
        const now = readBatch(EDITS[edit](HEADER, rows, n));
        await withLedger(async (dir) => {
          const sent = batchRowKeys(readBatch(before), secret);
          assert.ok(
            sent.rows.every((r) => /^[0-9a-f]{16}$/.test(r.row ?? '')),
            'every row recorded with its row hash',
          );
          await recordBatchRows(nodeLedgerFs, dir, HASH, sent);
          const read = await readBatchRows(nodeLedgerFs, dir, HASH);
          const table = await readSentTable(nodeLedgerFs, dir, HASH);
          if (sent.rows.length === 0) return assert.equal(table, undefined);
          assert.deepEqual(read, sent, 'the row hashes read back');
          const reference = diffRowKeys(secret, batchRowKeys(now, secret), read!);
          assert.deepEqual(diffAgainstSend(secret, table!, now), reference);
          assert.deepEqual(diffAgainstSend(secret, SentTable.of(read!), now), reference);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('takes an unchanged row, and one whose cvv2 alone changed, by its row hash', async () => {
    const secret = newSecret();
    const rows = [
      ['ORD-1', '1.00', '123', 'a@example.com', 'x'],
      ['ORD-2', '2.00', '', '"quoted"; yes', ''],
      ['ORD-3', '3.00', '999', '', 'é'],
    ];
    await withLedger(async (dir) => {
      await recordBatchRows(nodeLedgerFs, dir, HASH, batchRowKeys(readBatch(textOf(HEADER, rows)), secret));
      const table = (await readSentTable(nodeLedgerFs, dir, HASH))!;
      const cvvChanged = readBatch(
        textOf(
          HEADER,
          rows.map((r) => r.map((v, c) => (c === 2 ? '000' : v))),
        ),
      );
      const valueChanged = readBatch(
        textOf(
          HEADER,
          rows.map((r) => r.map((v, c) => (c === 4 ? `${v}!` : v))),
        ),
      );
      const taken = (batch: Batch) => rowTexts(batch).map(([text], r) => table.sameRow(r, secret.keyedDigest(text)));
      assert.deepEqual(taken(cvvChanged), [true, true, true]);
      assert.deepEqual(taken(valueChanged), [false, false, false]);
      assert.equal(diffAgainstSend(secret, table, cvvChanged).unchanged, 3);
    });
  });

  it('reads the row hash as the send and the diff read a row: the same text from the parse and from RowCells', () => {
    fc.assert(
      fc.property(sendRows, fc.boolean(), (rows, lf) => {
        const text = textOf(HEADER, rows);
        for (const [fromRow, fromCells] of rowTexts(readBatch(lf ? text.replaceAll('\r\n', '\n') : text))) assert.equal(fromRow, fromCells);
      }),
    );
  });

  it('keeps rows without a row hash (recorded before) and a line with one readable by every reader', () =>
    withLedger(async (dir) => {
      const secret = newSecret();
      const text = textOf(HEADER, [['ORD-1', '1', '1', 'a', 'b']]);
      const keys = batchRowKeys(readBatch(text), secret);
      const old = { columns: keys.columns, rows: keys.rows.map(({ row: _row, ...r }) => r) };
      await recordBatchRows(nodeLedgerFs, dir, HASH, old);
      assert.deepEqual(await readBatchRows(nodeLedgerFs, dir, HASH), old);
      const table = (await readSentTable(nodeLedgerFs, dir, HASH))!;
      assert.equal(table.sameRow(0, secret.keyedDigest(rowTexts(readBatch(text))[0][0])), false, 'no row hash: compared value by value');
      assert.equal(diffAgainstSend(secret, table, readBatch(text)).unchanged, 1);
      rmSync(join(dir, 'batches'), { recursive: true });
      await recordBatchRows(nodeLedgerFs, dir, HASH, keys);
      assert.deepEqual(await readPayerRows(nodeLedgerFs, dir, HASH, new Set([keys.rows[0].fingerprint])), keys);
    }));
});
