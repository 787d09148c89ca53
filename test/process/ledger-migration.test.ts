import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { guardedSend, Ledger, type LedgerLine } from '../../src/core/ledger';
import { newSubmission } from '../fixtures/ledger/entry';

// Ledgers written by version 0.1 still guard: a file whose content hash was taken the old way (quoted line
// breaks kept as they were) is still refused, from either face, and the 0.1 guard index (whole ledger lines
// in index/<3 hex>.jsonl) is replaced by this version's without losing a record.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const FIXTURE = path.join(root, 'test', 'fixtures', 'ledger', 'pre-canonical');

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-migration-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function sendValid(ledger: Ledger, text: string, raw?: string) {
  const prepared = prepareSubmission(text, 'valid.rpcsv', raw);
  return guardedSend({
    ledger,
    entry: newSubmission({ contentHash: prepared.contentHash, rowCount: prepared.rowCount, environment: 'local', endpointId: '1001' }),
    legacyHashes: prepared.legacyHashes,
    batch: prepared.lint.batch,
    send: async () => 'sent',
    completion: () => ({ outcome: 'accepted' }),
  });
}

describe('a ledger written before the canonical text', () => {
  it('still refuses examples/valid.rpcsv sent then from the terminal, now from the terminal or the editor', async (t) => {
    for (const face of ['terminal', 'editor'] as const) {
      const dir = tempDir(t);
      fs.cpSync(FIXTURE, dir, { recursive: true });
      const old = JSON.parse(fs.readFileSync(path.join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n')[0]).id as string;
      const text = face === 'terminal' ? valid : valid.replace(/\r\n|\r|\n/g, '\r\n');
      const r = await sendValid(new Ledger(dir), text, face === 'editor' ? valid : undefined);
      assert.equal(r.status, 'duplicate', face);
      assert.equal(r.status === 'duplicate' && r.earlier.id, old);
      assert.ok(!fs.existsSync(path.join(dir, 'index')), 'the 0.1 index is gone');
      assert.ok(fs.existsSync(path.join(dir, 'guard', 'manifest.txt')), 'this version’s index is built');
    }
  });
});

/** A ledger as 0.1 wrote it: the lines, and the same lines in its index shards (no hash prefix). */
function writeOldLedger(dir: string, lines: LedgerLine[]): void {
  fs.mkdirSync(path.join(dir, 'index'), { recursive: true });
  const shards = new Map<string, string>();
  const hashOf = new Map<string, string>();
  let text = '';
  for (const l of lines) {
    const json = `\n${JSON.stringify(l)}\n`;
    text += json;
    let shard = 'damage.jsonl';
    if (l.op === 'begin') hashOf.set(l.record.id, l.record.contentHash);
    if (l.op === 'begin' || l.op === 'complete') {
      const hash = l.op === 'begin' ? l.record.contentHash : hashOf.get(l.id)!;
      shard = `${hash.slice(0, 3)}.jsonl`;
    }
    shards.set(shard, (shards.get(shard) ?? '') + json);
  }
  fs.writeFileSync(path.join(dir, 'ledger.jsonl'), text);
  for (const [name, body] of shards) fs.writeFileSync(path.join(dir, 'index', name), body);
  fs.writeFileSync(path.join(dir, 'index', 'complete'), '1970-01-01T00:00:00.000Z\n');
}

describe('the guard index of 0.1, migrated', () => {
  it('loses nothing: every record and every damage mark is found through the new index', async (t) => {
    const dir = tempDir(t);
    const outcomes = ['accepted', 'unknown', 'validation-error', 'declined', 'withdrawn', undefined] as const;
    const lines: LedgerLine[] = [];
    // Few hashes per shard prefix and many prefixes: 600 records, some sharing a content (resends).
    for (let i = 0; i < 600; i++) {
      const contentHash = createHash('sha256')
        .update(`content-${i % 450}`)
        .digest('hex');
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const record = {
        ...newSubmission({ contentHash, environment: i % 3 ? 'local' : 'sandbox' }),
        id,
        time: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
        state: 'sending' as const,
        recurringPaymentIds: [],
        serialNumbers: [],
        statuses: [],
      };
      lines.push({ ledger: 1, op: 'begin', id, record });
      const outcome = outcomes[i % outcomes.length];
      // Completions written before the index knew hashes carry none (0.1's early lines).
      if (outcome)
        lines.push({
          ledger: 1,
          op: 'complete',
          id,
          ...(i % 2 ? { contentHash } : {}),
          completedAt: record.time,
          completion: { outcome, recurringPaymentIds: outcome === 'declined' && i % 4 === 1 ? ['9'] : [] },
        });
    }
    lines.push({
      ledger: 1,
      op: 'damage',
      damage: {
        id: 'd-1',
        at: '2025-02-01T00:00:00.000Z',
        movedTo: '/x',
        unreadableLines: 1,
        keptLines: 3,
        contentHashes: ['f'.repeat(64)],
        unidentified: 1,
      },
    });
    lines.push({ ledger: 1, op: 'ack', ids: ['d-1'] });
    writeOldLedger(dir, lines);

    const ledger = new Ledger(dir);
    const whole = await ledger.list();
    assert.equal(whole.length, 600);
    const byHash = new Map<string, string[]>();
    for (const r of whole) byHash.set(r.contentHash, [...(byHash.get(r.contentHash) ?? []), `${r.id} ${r.state} ${r.outcome}`]);
    let checked = 0;
    for (const [contentHash, expected] of byHash) {
      const view = await ledger.guardView({ contentHash, environment: 'local', endpointId: '1001' });
      assert.deepEqual(view.records.map((r) => `${r.id} ${r.state} ${r.outcome}`).sort(), [...expected].sort(), contentHash);
      assert.deepEqual(
        view.damages.map((d) => d.id),
        ['d-1'],
      );
      assert.ok(view.acknowledged.has('d-1'));
      checked++;
    }
    assert.equal(checked, 450);
    assert.ok(!fs.existsSync(path.join(dir, 'index')), 'the 0.1 index is removed once this one is built');
  });

  it('is built again when a 0.1 process rebuilt its own since (it would lack that send)', async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir);
    await sendValid(ledger, valid);
    // A 0.1 process finds no index/complete, rebuilds its index and sends another batch.
    const other = {
      ...newSubmission({ contentHash: 'b'.repeat(64) }),
      id: 'from-0.1',
      time: new Date().toISOString(),
      state: 'sending' as const,
      recurringPaymentIds: [],
      serialNumbers: [],
      statuses: [],
    };
    fs.appendFileSync(path.join(dir, 'ledger.jsonl'), `\n${JSON.stringify({ ledger: 1, op: 'begin', id: other.id, record: other })}\n`);
    fs.mkdirSync(path.join(dir, 'index'));
    fs.writeFileSync(path.join(dir, 'index', 'complete'), 'x\n');
    const view = await ledger.guardView({ contentHash: 'b'.repeat(64), environment: 'local', endpointId: '1001' });
    assert.deepEqual(
      view.records.map((r) => r.id),
      ['from-0.1'],
    );
  });
});
