import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchRowKeys, DiffIndex, diffAgainstSend } from '../../src/core/ledger';
import { diffRowKeys } from '../fixtures/ledger/rowKeysDiff';
import { LedgerSecret } from '../../src/core/ledger/secret';
import { readBatch, type Batch } from '../../src/core/rules/batch';

// `paygate diff FILE --against OTHER` keeps the older file only as a compact index (fileDiff.ts) and walks
// the newer one against it. Its answer must be the one the comparison of both sides' row keys gives
// (diffRowKeys on batchRowKeys, the path every diff took before, still the ledger's): on random batches
// with repeated ids, columns one side lacks or holds twice, cvv2, quoted values with doubled quotes and
// line breaks, blank lines, rows of the wrong width and broken quoting, under CRLF, LF or CR.

function byRowKeys(now: Batch, before: Batch) {
  const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
  return diffRowKeys(secret, batchRowKeys(now, secret), batchRowKeys(before, secret));
}

const COLUMNS = ['client-orderid', 'amount', 'currency', 'cvv2', 'order_desc', 'Amount', 'x-note'];
const value = fc.oneof(
  fc.constantFrom('', '1', '2', 'EUR', 'a;b', 'ORD-1', 'ORD-2', 'ORD-3', '4111111111111111'),
  fc.string({ maxLength: 4 }),
);
const quoted = (v: string) => (/[;"\r\n]/.test(v) || v.startsWith(' ') ? `"${v.replaceAll('"', '""')}"` : v);

const IDS = ['ORD-1', 'ORD-2', 'ORD-3', 'ORD-4', '', 'a long order id 0123456789'];
const batchOf = (ids: string[]) =>
  fc
    .record({
      // eslint-disable-next-line no-restricted-syntax -- seven names
      header: fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 5 }),
      twice: fc.boolean(),
      rows: fc.array(
        fc.record({
          // eslint-disable-next-line no-restricted-syntax -- a few ids
          id: fc.constantFrom(...ids),
          cells: fc.array(value, { maxLength: 6 }),
          ragged: fc.integer({ min: 0, max: 9 }),
          broken: fc.integer({ min: 0, max: 19 }),
        }),
        { maxLength: 14 },
      ),
      blank: fc.integer({ min: 0, max: 4 }),
      eol: fc.constantFrom('\r\n', '\n', '\r'),
    })
    .map(({ header, twice, rows, blank, eol }) => {
      const cols = twice ? [...header, header[header.length - 1]] : header;
      const idAt = cols.indexOf('client-orderid');
      const lines = [cols.join(';')];
      rows.forEach((r, k) => {
        const width = r.ragged === 0 ? cols.length + 1 : cols.length;
        const cells = Array.from({ length: width }, (_, i) => (i === idAt ? r.id : (r.cells[i] ?? '')));
        let line = cells.map(quoted).join(';');
        if (r.broken === 0) line += ';"open';
        lines.push(line);
        if (k === blank) lines.push('');
      });
      return lines.join(eol) + eol;
    });
const batchText = batchOf(IDS);

describe('diff of two files by a compact index of the older one', () => {
  it('gives the row keys’ answer on random batches', () => {
    fc.assert(
      fc.property(batchText, batchText, (a, b) => {
        const now = readBatch(a);
        const before = readBatch(b);
        assert.deepEqual(DiffIndex.of(before).diff(now), byRowKeys(now, before));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the row keys’ answer when the newer file is the older one edited', () => {
    fc.assert(
      fc.property(batchText, fc.array(fc.nat(), { maxLength: 4 }), (b, edits) => {
        const lines = b.split(/(?<=\n)|(?<=\r)(?!\n)/);
        for (const e of edits) if (lines.length > 1) lines.splice(1 + (e % (lines.length - 1)), 1);
        const now = readBatch(lines.join(''));
        const before = readBatch(b);
        assert.deepEqual(DiffIndex.of(before).diff(now), byRowKeys(now, before));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps per row only its id, its line and one number per column', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `ORD-${i};${i}.00;EUR;123;${'d'.repeat(200)}`);
    const index = DiffIndex.of(readBatch(['client-orderid;amount;currency;cvv2;order_desc', ...rows].join('\n')));
    assert.equal(index.rowCount, 50);
    // cvv2 has no slot: it is never hashed, kept or compared.
    assert.deepEqual([...index.slots.keys()], ['client-orderid', 'amount', 'currency', 'order_desc']);
    // No string the index holds is a long value of the file (nor a view of its text).
    const held = JSON.stringify(Object.values(index));
    assert.ok(!held.includes('ddd'), 'the index keeps no value');
  });
});

// `paygate diff FILE` against a send (--against last / SERIAL) walks FILE in place against the send's row
// keys (sentDiff.ts). Its answer must be the row keys' comparison of both sides, ids read as the gateway
// reads them (spaces around, an id of spaces).
describe('diff of a file against a send by the send’s row keys', () => {
  const ledgerIds = [...IDS, ' ORD-1', 'ORD-2 ', '  '];
  it('gives the row keys’ answer on random batches', () => {
    fc.assert(
      fc.property(batchOf(ledgerIds), batchOf(ledgerIds), (a, b) => {
        const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
        const now = readBatch(a);
        const sent = batchRowKeys(readBatch(b), secret);
        assert.deepEqual(diffAgainstSend(secret, sent, now), diffRowKeys(secret, batchRowKeys(now, secret), sent));
      }),
      { numRuns: 400 },
    );
  });

  // The send's hashes are read in place (no split per row): a ledger row of another shape (a hash longer
  // than its eight digits, hashes missing at the end, none at all) compares as its split would.
  it('reads a send row of any shape as its split would', () => {
    const reshape = [
      (v: string) => v.replace(/^(\S+)/, '$1a'),
      (v: string) => v.split(' ').slice(0, 2).join(' '),
      (v: string) => `${v} `,
      () => '',
      (v: string) => v.replace(' ', '  '),
    ];
    fc.assert(
      fc.property(batchOf(ledgerIds), fc.array(fc.nat(reshape.length - 1), { minLength: 1, maxLength: 8 }), (a, ops) => {
        const secret = LedgerSecret.fromHex(randomBytes(32).toString('hex'))!;
        const now = readBatch(a);
        const sent = batchRowKeys(now, secret);
        sent.rows.forEach((r, i) => (r.values = reshape[ops[i % ops.length]](r.values)));
        assert.deepEqual(diffAgainstSend(secret, sent, now), diffRowKeys(secret, batchRowKeys(now, secret), sent));
      }),
      { numRuns: 200 },
    );
  });
});
