import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { Ledger } from '../../src/core/ledger';
import { BATCHES_DIR, readBatchRows, readPayerRows, recordBatchRows } from '../../src/core/ledger/batchRows';
import { nodeLedgerFs, type LedgerFs } from '../../src/core/ledger/ledgerFs';
import { MANIFEST } from '../../src/core/ledger/indexManifest';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { LintedRows } from '../../src/core/ledgerLint/lintedRows';
import { Codes } from '../../src/core/rules/codes';
import { lint as lintText } from '../../src/core/rules/lint';
import { sendThrough } from '../fixtures/ledger/entry';

// Lint's ledger checks from its own pass over the rows (the guard's cost at a million rows, issue 37):
// `paygate lint` keeps what already-sent and same-payer need of each row as it lints it (LintedRows: the
// client-orderid cell, the text the fingerprint is made of), and the rows' keys and the payers' are looked
// up in one reading of the index. The findings must be exactly those read from the batch (the language
// server's way): the same rows, ranges and messages, an id cell that failed its own checks and quoted cells
// included.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const TARGET = { environment: 'local', endpointId: '1001' };

/** The example with each client-orderid made by `id` (by the row's number). */
const withIds = (id: (n: string) => string) => valid.replace(/[A-Z]{3}-2027-(\d{4})/g, (_, n: string) => id(n));

/** A ledger whose every lookup's reading of the index (its manifest) is counted. */
function countingLedger(dir: string): { ledger: Ledger; lookups: () => number } {
  let reads = 0;
  const counted: LedgerFs = {
    ...nodeLedgerFs,
    readFile: (p) => {
      if (path.basename(p) === MANIFEST) reads++;
      return nodeLedgerFs.readFile(p);
    },
  };
  return { ledger: new Ledger(dir, { fs: counted }), lookups: () => reads };
}

describe("lint's ledger checks from its own pass over the rows", () => {
  it('find exactly what a read of the batch finds, in one reading of the index', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-one-pass-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    assert.equal(
      (
        await sendThrough(
          new Ledger(dir),
          withIds((n) => `SP-2027-${n}`),
          TARGET,
        )
      ).status,
      'sent',
    );
    // Row 1 the same id (already-sent); the others the same card and schedule under other ids (same-payer):
    // row 3's id is over the 128 characters a client-orderid may have (lint's own checks fail it), row 4's
    // cell quoted; every currency cell quoted (a fingerprint's cell read unquoted).
    const ids: Record<string, string> = {
      '0001': 'SP-2027-0001',
      '0002': 'SP-2027-0002-RENEW',
      '0003': `SP-2027-0003-${'R'.repeat(130)}`,
      '0004': '"SP-2027-0004-RENEW"',
    };
    const text = withIds((n) => ids[n]).replaceAll(';EUR;', ';"EUR";');
    const batch = prepareSubmission(text).lint.batch;
    const read = await ledgerDiagnostics(new Ledger(dir), batch, { target: TARGET });
    const rows = new LintedRows();
    const linted = lintText(text, { onRow: rows.onRow });
    const { ledger, lookups } = countingLedger(dir);
    const kept = await ledgerDiagnostics(ledger, linted.batch, { target: TARGET, orderIds: rows.orderIds, payers: rows.payers });
    const shown = (ds: typeof read.diagnostics) => ds.map((d) => ({ code: d.code, range: d.range, message: d.message }));
    assert.deepEqual(shown(kept.diagnostics), shown(read.diagnostics));
    // Lines from 0: the header, then row 3 spans two lines.
    assert.deepEqual(
      kept.diagnostics.map((d) => [d.code, d.range.start.line]),
      [
        [Codes.alreadySent, 1],
        [Codes.samePayer, 2],
        [Codes.samePayer, 3],
        [Codes.samePayer, 5],
      ],
    );
    assert.equal(lookups(), 1, 'the rows and the payers are looked up in one reading of the index');
  });

  it("same-payer reads out of a batch's row records exactly the rows of its payers, and a damaged file as before", async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-payer-rows-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const hash = 'c'.repeat(64);
    const ids = ['GYM-1', 'a"b\\c', 'tab\there', 'ctl\u0001x', 'ü€😀', '411111******1111'];
    const rows = ids.map((orderId, i) => ({
      key: `${i}`.repeat(24),
      orderId,
      line: i + 2,
      fingerprint: `${i % 3}`.repeat(32),
      values: `0a1b2c3d ${i}`,
    }));
    await recordBatchRows(nodeLedgerFs, dir, hash, { columns: ['client-orderid', 'amount'], rows });
    const wanted = new Set(['1'.repeat(32), 'f'.repeat(32)]);
    const all = await readBatchRows(nodeLedgerFs, dir, hash);
    const some = await readPayerRows(nodeLedgerFs, dir, hash, wanted);
    assert.deepEqual(some, { columns: all!.columns, rows: all!.rows.filter((r) => wanted.has(r.fingerprint)) });
    assert.equal(some!.rows.length, 2);
    // A line that is not JSON, of a payer not asked for: the file does not read, either way.
    const file = path.join(dir, BATCHES_DIR, hash.slice(0, 2), `${hash}.jsonl`);
    fs.appendFileSync(file, '{"k":"0","o":"\\x","l":1,"f":"00","v":""}\n');
    assert.equal(await readBatchRows(nodeLedgerFs, dir, hash), undefined);
    assert.equal(await readPayerRows(nodeLedgerFs, dir, hash, wanted), undefined);
  });
});
