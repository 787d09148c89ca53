import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readBatchRows, recordBatchRows } from '../../src/core/ledger/batchRows';
import { nodeLedgerFs } from '../../src/core/ledger/ledgerFs';
import type { BatchRowKeys } from '../../src/core/ledger/rowKeys';

// Issue 40: a sent batch's row keys are read back a piece of the file at a time (4 MiB), not as one text
// beside its rows, so `paygate diff` against a million-row send stays under 1 GB. Lines that cross a
// piece, a line longer than a piece, a last line without its line break and a file that does not read
// come back as the whole-file reading gave them.

const HASH = 'ab'.repeat(32);

function keysOf(rows: number, long = 0): BatchRowKeys {
  return {
    columns: ['client-orderid', 'amount', 'cvv2'],
    rows: Array.from({ length: rows }, (_, i) => ({
      key: i.toString(16).padStart(24, '0'),
      // Ids of every length, some with characters JSON escapes or UTF-8 writes in several bytes.
      orderId: i === 7 && long > 0 ? 'L'.repeat(long) : `ORD-${i}${'é"\\'.slice(0, i % 4)}${'x'.repeat(i % 300)}`,
      line: i + 2,
      fingerprint: (i * 7919).toString(16).padStart(32, '0'),
      values: `${(i * 31).toString(16).padStart(8, '0')} ${(i * 17).toString(16).padStart(8, '0')} -`,
    })),
  };
}

function withLedger(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-batch-rows-'));
  return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const fileIn = (dir: string) => join(dir, 'batches', 'ab', readdirSync(join(dir, 'batches', 'ab'))[0]);

describe("a sent batch's row keys read back", () => {
  it('are the rows recorded, across pieces of the file and past a line longer than a piece', () =>
    withLedger(async (dir) => {
      // About 12 MB: three pieces and more, and one id of 5 MB.
      const keys = keysOf(40_000, 5 << 20);
      await recordBatchRows(nodeLedgerFs, dir, HASH, keys);
      assert.deepEqual(await readBatchRows(nodeLedgerFs, dir, HASH), keys);
    }));

  it('read a last line without its line break, skip empty lines, and refuse a line that is not JSON', () =>
    withLedger(async (dir) => {
      const keys = keysOf(3);
      await recordBatchRows(nodeLedgerFs, dir, HASH, keys);
      const file = fileIn(dir);
      writeFileSync(file, `\n${JSON.stringify({ rows: 1, columns: keys.columns })}\n\n`);
      appendFileSync(
        file,
        keys.rows.map((r) => JSON.stringify({ k: r.key, o: r.orderId, l: r.line, f: r.fingerprint, v: r.values })).join('\n'),
      );
      assert.deepEqual(await readBatchRows(nodeLedgerFs, dir, HASH), keys);
      appendFileSync(file, '\n{"k": "cut sho');
      assert.equal(await readBatchRows(nodeLedgerFs, dir, HASH), undefined);
      writeFileSync(file, '{"rows": 2, "columns": []}\n');
      assert.equal(await readBatchRows(nodeLedgerFs, dir, HASH), undefined);
      assert.equal(await readBatchRows(nodeLedgerFs, dir, 'cd'.repeat(32)), undefined);
    }));
});
