// The guard's read of one index shard (LedgerIndex.read with a content hash): other batches' whole lines
// are skipped unparsed, which must never hide a line that could be this batch's. A line cut short before
// its hash, or cut after another batch's hash but before its end, still makes the shard unreadable, so
// the guard reads the whole ledger as before (ledger.ts, guardView).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guardedSend, Ledger, nodeLedgerFs } from '../../src/core/ledger';
import { LedgerIndex, shardName } from '../../src/core/ledger/ledgerIndex';
import { newSubmission } from '../fixtures/ledger/entry';

// Two batches in one shard (the shard is named by the hash's first three characters).
const OURS = `abc${'1'.repeat(61)}`;
const OTHER = `abc${'2'.repeat(61)}`;
const SHARD = shardName(OURS);

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-index-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A ledger with one accepted send of each batch, and its shard's text. */
async function twoSends(dir: string): Promise<string> {
  for (const contentHash of [OURS, OTHER])
    await guardedSend({
      ledger: new Ledger(dir),
      entry: newSubmission({ contentHash }),
      send: async () => 'sent',
      completion: () => ({ outcome: 'accepted' }),
    });
  assert.equal(shardName(OTHER), SHARD);
  return fs.readFileSync(path.join(dir, 'index', SHARD), 'utf8');
}

test("with a hash, the shard's other batches are skipped and this batch's lines are the same as a whole read's", async (t) => {
  const dir = tempDir(t);
  await twoSends(dir);
  const index = new LedgerIndex(dir, nodeLedgerFs);
  const all = await index.read(SHARD);
  const ours = await index.read(SHARD, OURS);
  assert.ok(all && ours);
  assert.equal(all.length, 4, 'two begins and two completions');
  const mine = (l: (typeof all)[number]) => JSON.stringify(l).includes(OURS);
  assert.deepEqual(ours, all.filter(mine));
  assert.equal(ours.length, 2);
});

for (const [what, cut] of [
  ['our begin cut short before its hash', (text: string) => text.slice(0, text.indexOf(OURS) - 5)],
  [
    'our begin cut short after a closing brace inside a file name, before its hash',
    (text: string) => text.slice(0, text.indexOf('}x') + 1),
  ],
  ["another batch's line cut after its hash, before its end", (text: string) => text.slice(0, text.lastIndexOf(OTHER) + 80)],
] as const) {
  test(`a torn line still makes the shard unreadable (the guard then reads the whole ledger): ${what}`, async (t) => {
    const dir = tempDir(t);
    const whole = await twoSends(dir);
    // A torn line is what a crash mid-write leaves: a prefix of a line, then the next write's own line.
    const torn = whole.includes('}x')
      ? whole
      : `${whole}\n${JSON.stringify({ ledger: 1, op: 'begin', id: 'torn', record: { file: '/tmp/a}x.rpcsv', contentHash: OURS } })}\n`;
    fs.writeFileSync(path.join(dir, 'index', SHARD), `${cut(torn)}\n${whole}`);
    assert.equal(await new LedgerIndex(dir, nodeLedgerFs).read(SHARD, OURS), undefined);
  });
}
