// What the extension decides about a file VS Code shows but does not pass to extensions (over 50 MB):
// whether it may be over the limit, whether it is a batch (by name or by its first line, as the
// manifest's firstLine), and the first line read without reading the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beyondSyncLimit, firstLineOf, isBatch, megabytes, SYNC_LIMIT } from '../../src/extension/bigBatch';

test('the limit is VS Code’s: 50 × 1024 × 1024; a file of more bytes may be over it', () => {
  assert.equal(SYNC_LIMIT, 52_428_800);
  assert.equal(beyondSyncLimit(52_428_800), false);
  assert.equal(beyondSyncLimit(52_428_801), true);
  assert.equal(megabytes(56_498_026), '54 MB');
});

test('a batch by its name, or by a first line naming client-orderid and rp_card_type', () => {
  assert.equal(isBatch('big.rpcsv', ''), true);
  assert.equal(isBatch('March.RECURRING.CSV', ''), true);
  assert.equal(isBatch('export.csv', 'rp_card_type;amount;client-orderid'), true);
  assert.equal(isBatch('export.csv', 'client-orderid;amount'), false);
  assert.equal(isBatch('notes.txt', 'hello'), false);
});

test('the first line is read from the start of the file only, whatever its line break', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'paygate-big-batch-'));
  try {
    const file = path.join(dir, 'export.csv');
    writeFileSync(file, `client-orderid;rp_card_type\r\n${'x;y\r\n'.repeat(100_000)}`);
    assert.equal(await firstLineOf(file), 'client-orderid;rp_card_type');
    writeFileSync(file, 'client-orderid;rp_card_type\rrest');
    assert.equal(await firstLineOf(file), 'client-orderid;rp_card_type');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
