import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchRowKeys, diffAgainstSend } from '../../src/core/ledger';
import { readBatchRows, recordBatchRows } from '../../src/core/ledger/batchRows';
import { nodeLedgerFs } from '../../src/core/ledger/ledgerFs';
import { LedgerSecret } from '../../src/core/ledger/secret';
import { readSentTable, SentTable } from '../../src/core/ledger/sentTable';
import { readBatch } from '../../src/core/rules/batch';
import { diffRowKeys } from '../fixtures/ledger/rowKeysDiff';

// Issue 40: `paygate diff FILE --against last` reads the send's row records byte by byte into a compact
// table (sentTable.ts) and hashes FILE's values as 32-bit words (sentDiff.ts), not as the row objects and
// hex strings it read and made before. Its answer must stay the reference's (both sides' row keys compared
// whole, test/fixtures/ledger/rowKeysDiff.ts, on the rows readBatchRows gives), for row records of the
// usual shape and of any other an older version or a hand may have left (hashes of another shape, a key
// that is not 24 hex digits, an escaped id, an odd line, fields in another order, spaces), and a file
// readBatchRows cannot read must not read here either.

const HASH = 'cd'.repeat(32);
const COLUMNS = ['client-orderid', 'amount', 'currency', 'cvv2', 'email', 'x-note'];
const IDS = ['ORD-1', 'ORD-2', 'ORD-3', ' ORD-1', 'ORD-4 ', 'é-5', '  '];
const cell = fc.oneof(fc.constantFrom('', '1', 'EUR', 'a;b', 'x"y', '4111111111111111'), fc.string({ maxLength: 5 }));
const quoted = (v: string) => (/[;"\r\n]/.test(v) || v.startsWith(' ') || v.endsWith(' ') ? `"${v.replaceAll('"', '""')}"` : v);
const batchText = fc
  .record({
    // eslint-disable-next-line no-restricted-syntax -- six names
    header: fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 6 }),
    // eslint-disable-next-line no-restricted-syntax -- a few ids
    rows: fc.array(fc.record({ id: fc.constantFrom(...IDS), cells: fc.array(cell, { minLength: 6, maxLength: 6 }) }), { maxLength: 12 }),
  })
  .map(({ header, rows }) => {
    const cols = header.includes('client-orderid') ? header : ['client-orderid', ...header];
    const lines = rows.map((r) => cols.map((c, i) => quoted(c === 'client-orderid' ? r.id : r.cells[i])).join(';'));
    return [cols.join(';'), ...lines].join('\r\n') + '\r\n';
  });

/** Row lines rewritten to shapes readBatchRows reads but recordBatchRows does not write. */
type Row = { k: string; o: string; l: number; f: string; v: string };
const RESHAPE: ((r: Row) => string)[] = [
  (r) => JSON.stringify({ ...r, v: r.v.replace(/^(\S+)/, '$1a') }),
  (r) => JSON.stringify({ ...r, v: r.v.split(' ').slice(0, 2).join(' ') }),
  (r) => JSON.stringify({ ...r, v: `${r.v} ` }),
  (r) => JSON.stringify({ ...r, v: r.v.replace(' ', '  ') }),
  (r) => JSON.stringify({ ...r, v: r.v.replace(/[0-9a-f]{8}/, (w) => w.toUpperCase()) }),
  (r) => JSON.stringify({ ...r, k: r.k.toUpperCase() }),
  (r) => JSON.stringify({ ...r, k: r.k.slice(1) }),
  (r) => JSON.stringify({ ...r, o: `${r.o}"\\\n` }),
  (r) => JSON.stringify({ ...r, l: r.l + 0.5 }),
  (r) => JSON.stringify({ ...r, l: String(r.l) }),
  (r) => JSON.stringify({ v: r.v, o: r.o, l: r.l, f: r.f, k: r.k }),
  (r) => ` ${JSON.stringify(r)}\r`,
  (r) => JSON.stringify({ ...r, extra: 1 }),
  (r) => JSON.stringify(r).replace('"o":"', '"o":"\\u0041'),
];

function withLedger<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-sent-table-'));
  return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const fileIn = (dir: string) => join(dir, 'batches', 'cd', readdirSync(join(dir, 'batches', 'cd'))[0]);

/** FILE's diff against the send in `dir`, as the table gives it and as the reference does (undefined when unreadable). */
async function bothWays(dir: string, secret: LedgerSecret, now: string) {
  const batch = readBatch(now);
  const table = await readSentTable(nodeLedgerFs, dir, HASH);
  const rows = await readBatchRows(nodeLedgerFs, dir, HASH);
  return {
    table: table && diffAgainstSend(secret, table, batch),
    rows: rows && diffAgainstSend(secret, SentTable.of(rows), batch),
    reference: rows && diffRowKeys(secret, batchRowKeys(batch, secret), rows),
  };
}

describe('diff against a send read as a compact table', () => {
  it('gives the reference’s answer for row records of every shape', async () => {
    await fc.assert(
      fc.asyncProperty(batchText, batchText, fc.array(fc.nat(RESHAPE.length), { maxLength: 12 }), async (now, before, shapes) => {
        const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
        await withLedger(async (dir) => {
          await recordBatchRows(nodeLedgerFs, dir, HASH, batchRowKeys(readBatch(before), secret));
          const file = (() => {
            try {
              return fileIn(dir);
            } catch {
              return undefined; // no rows: nothing recorded
            }
          })();
          if (file) {
            const [header, ...lines] = readFileSync(file, 'utf8').split('\n');
            // Shape RESHAPE.length leaves a line as written.
            const reshaped = lines.map((l, i) =>
              l === '' || (shapes[i] ?? RESHAPE.length) === RESHAPE.length ? l : RESHAPE[shapes[i]](JSON.parse(l) as Row),
            );
            writeFileSync(file, [header, ...reshaped].join('\n'));
          }
          const d = await bothWays(dir, secret, now);
          assert.deepEqual(d.table, d.reference);
          assert.deepEqual(d.rows, d.reference);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('reads no table where readBatchRows reads no rows', () =>
    withLedger(async (dir) => {
      const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
      await recordBatchRows(nodeLedgerFs, dir, HASH, batchRowKeys(readBatch('client-orderid;amount\r\nA;1\r\nB;2\r\n'), secret));
      const file = fileIn(dir);
      const good = readFileSync(file, 'utf8');
      for (const broken of [`${good}{"k":"cut`, `${good}null\n`, good.replace('"rows":1', '"rows":2'), `null\n${good}`, '']) {
        writeFileSync(file, broken);
        assert.equal(await readBatchRows(nodeLedgerFs, dir, HASH), undefined, broken);
        assert.equal(await readSentTable(nodeLedgerFs, dir, HASH), undefined, broken);
      }
      assert.equal(await readSentTable(nodeLedgerFs, dir, 'ef'.repeat(32)), undefined);
    }));

  // Each column's values keep their hash up to a bound (10,000), then a column that stops finding them is
  // hashed row by row: rows past the bound, in a column of few values and in one of a value per row, still
  // compare right.
  it('compares right past the bound of values a column keeps', () =>
    withLedger(async (dir) => {
      const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
      const row = (i: number, edit: boolean) =>
        `ORD-${i};${edit && i % 997 === 0 ? 'GBP' : ['EUR', 'USD'][i % 2]};${edit && i % 1009 === 0 ? 'changed' : `p${i}@example.com`};${i % 15_000}`;
      const text = (edit: boolean) =>
        ['client-orderid;currency;email;period', ...Array.from({ length: 12_000 }, (_, i) => row(i, edit))].join('\n');
      await recordBatchRows(nodeLedgerFs, dir, HASH, batchRowKeys(readBatch(text(false)), secret));
      const d = await bothWays(dir, secret, text(true));
      assert.deepEqual(d.table, d.reference);
      assert.ok(d.reference && d.reference.changed.length > 20, 'the edits are seen');
    }));
});
