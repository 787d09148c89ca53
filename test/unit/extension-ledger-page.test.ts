// The Submissions tree's page (src/extension/ledger/page.ts): the newest records read backwards from the
// end of the ledger are the same records, in the same state, as a whole read's first ones, across rotated
// files, with completions, and "older" says exactly whether more exist.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ledger } from '../../src/core/ledger';
import { newestSubmissions } from '../../src/extension/ledger/page';
import { newSubmission } from '../fixtures/ledger/entry';

const entry = (i: number) =>
  newSubmission({ file: `/tmp/batch-${i}.rpcsv`, rowCount: 1 + (i % 7), contentHash: i.toString(16).padStart(64, '0') });

test('the newest page equals the whole read, across rotated files, with completions; older says whether more exist', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-history-page-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Small files, so the 450 records span several rotated ledger files.
  const ledger = new Ledger(dir, { rotateBytes: 16 * 1024 });
  const total = 450;
  for (let i = 0; i < total; i++) {
    const begun = await ledger.begin(entry(i));
    // Most complete at once, some later (after newer begins), some never (still "sending").
    if (i % 10 === 3) continue;
    if (i % 10 !== 7) await ledger.complete(begun.id, { outcome: i % 3 === 0 ? 'declined' : 'accepted', message: `m${i}` }, [], begun);
  }
  for (const r of (await ledger.list()).filter((x) => x.file.endsWith('7.rpcsv') && x.state === 'sending'))
    await ledger.complete(r.id, { outcome: 'accepted', message: 'late' });
  assert.ok(fs.readdirSync(dir).filter((f) => f.startsWith('ledger')).length > 2, 'the ledger did not rotate');

  const whole = await ledger.list();
  assert.equal(whole.length, total);
  for (const shown of [1, 200, 449, 450, 600]) {
    const page = await newestSubmissions(ledger, shown);
    assert.deepEqual(
      page.records.map(({ seq: _seq, ...r }) => r),
      whole.slice(0, shown).map(({ seq: _seq, ...r }) => r),
      `the newest ${shown}`,
    );
    assert.equal(page.older, shown < total, `older at ${shown}`);
  }
});
