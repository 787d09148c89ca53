import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guardedSend, Ledger, LedgerWriteError, type NewSubmission } from '../../src/core/ledger';
import { faultyFs, type WriteFault } from '../faults/faultyFs';
import { newSubmission } from '../fixtures/ledger/entry';

// The ledger writes what it says it wrote (issue 17): a short write is continued, a full disk, an I/O
// error or a failed fsync before the request leaves means nothing is sent, and a torn or unreadable
// record anywhere (the first included) errs on "may have been sent".

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-faults-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const entry = (over: Partial<NewSubmission> = {}): NewSubmission =>
  newSubmission({ face: 'cli', endpoint: 'http://127.0.0.1:1/x', rowCount: 1, contentHash: 'c'.repeat(64), ...over });

function counter() {
  let sends = 0;
  return { send: async () => ({ outcome: 'accepted' as const, n: ++sends }), sends: () => sends };
}

describe('ledger writes', () => {
  it('continues a short write: every byte lands and the send goes once', async (t) => {
    const dir = tempDir(t);
    const fsx = faultyFs('short', 2);
    const c = counter();
    const r = await guardedSend({
      ledger: new Ledger(dir, { fs: fsx }),
      entry: entry(),
      send: c.send,
      completion: () => ({ outcome: 'accepted' }),
    });
    assert.equal(r.status, 'sent');
    assert.equal(c.sends(), 1);
    assert.ok(fsx.writes >= 3, 'the cut write was continued');
    const reading = await new Ledger(dir).read();
    assert.equal(reading.damage, undefined);
    assert.equal(reading.records[0].outcome, 'accepted');
  });

  for (const fault of ['ENOSPC', 'EIO', 'fsync', 'short-then-enospc'] as WriteFault[]) {
    it(`${fault} on the "sending" record: nothing is sent, the reason is named, and a later run is not blocked`, async (t) => {
      const dir = tempDir(t);
      const c = counter();
      // Write 1 is the "sending" line (nothing on the way to a send writes the guard's index).
      const ledger = new Ledger(dir, { fs: faultyFs(fault, 1) });
      await assert.rejects(
        guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) }),
        (err: unknown) => err instanceof LedgerWriteError && /ENOSPC|EIO|fsync/.test(err.reason),
      );
      assert.equal(c.sends(), 0, 'nothing was sent');
      // Once the disk has room again, the batch that certainly was not sent is not held back.
      const again = await guardedSend({
        ledger: new Ledger(dir),
        entry: entry(),
        send: c.send,
        completion: () => ({ outcome: 'accepted' }),
      });
      assert.equal(again.status, 'sent', JSON.stringify(again));
      assert.equal(c.sends(), 1);
    });
  }

  it('a failed completion leaves the record "sending": the batch is held back', async (t) => {
    const dir = tempDir(t);
    const c = counter();
    // Write 1 is the begin, 2 the completion.
    const r = await guardedSend({
      ledger: new Ledger(dir, { fs: faultyFs('ENOSPC', 2) }),
      entry: entry(),
      send: c.send,
      completion: () => ({ outcome: 'accepted' }),
    });
    assert.equal(r.status, 'sent');
    assert.ok(r.status === 'sent' && r.recordError?.includes('ENOSPC'));
    const again = await guardedSend({ ledger: new Ledger(dir), entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
    assert.equal(again.status, 'duplicate');
    assert.equal(c.sends(), 1);
  });
});

describe('ledger damage errs on "may have been sent"', () => {
  for (const size of [1, 30, 100, 300]) {
    it(`a ledger cut to ${size} bytes inside its first record: told, and a plain re-run is refused`, async (t) => {
      const dir = tempDir(t);
      const c = counter();
      const ledger = new Ledger(dir);
      await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
      fs.truncateSync(ledger.filePath, size);
      const first = await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
      assert.equal(first.status, 'damaged');
      assert.ok(first.status === 'damaged' && first.found, 'the user is told this time');
      assert.ok(fs.existsSync(first.status === 'damaged' ? first.damage.movedTo : ''), 'moved aside whole');
      const second = await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
      assert.equal(second.status, 'damaged', 'still refused on a plain re-run');
      assert.equal(c.sends(), 1);
      const resent = await guardedSend({
        ledger,
        entry: entry(),
        allowResend: true,
        send: c.send,
        completion: () => ({ outcome: 'accepted' }),
      });
      assert.equal(resent.status, 'sent');
    });
  }

  it('a torn record whose content hash can be read holds back that batch only', async (t) => {
    const dir = tempDir(t);
    const c = counter();
    const ledger = new Ledger(dir);
    await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
    const text = fs.readFileSync(ledger.filePath, 'utf8');
    // Cut inside the completion of... no: keep the begin up to just past its content hash.
    fs.writeFileSync(ledger.filePath, text.slice(0, text.indexOf('"contentHash"') + 90));
    const same = await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
    assert.equal(same.status, 'damaged');
    const other = await guardedSend({
      ledger,
      entry: entry({ contentHash: 'd'.repeat(64) }),
      send: c.send,
      completion: () => ({ outcome: 'accepted' }),
    });
    assert.equal(other.status, 'sent');
    assert.equal(c.sends(), 2);
  });

  it('a record whose content hash is itself damaged names no batch: every batch is held back', async (t) => {
    const dir = tempDir(t);
    const c = counter();
    const ledger = new Ledger(dir);
    await guardedSend({ ledger, entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
    const bytes = fs.readFileSync(ledger.filePath);
    // A byte inside the begin line's hash turned to NUL (a bad sector, a stray write), and the index lost,
    // so the guard reads the file: the damaged line must not name a hash that is no batch's.
    const at = bytes.indexOf('"contentHash":"') + '"contentHash":"'.length + 10;
    bytes[at] = 0;
    fs.writeFileSync(ledger.filePath, bytes);
    fs.rmSync(path.join(dir, 'index'), { recursive: true, force: true });
    const same = await guardedSend({ ledger: new Ledger(dir), entry: entry(), send: c.send, completion: () => ({ outcome: 'accepted' }) });
    assert.equal(same.status, 'damaged');
    assert.ok(same.status === 'damaged' && same.damage.unidentified === 1 && same.damage.contentHashes.length === 0, JSON.stringify(same));
    assert.equal(c.sends(), 1);
  });
});

describe('ledger at scale', () => {
  it('the guard finds an earlier send in an archive through the index, and history --limit is newest first', async (t) => {
    const dir = tempDir(t);
    const c = counter();
    // A small rotation size, so the early sends are in archives.
    const ledger = new Ledger(dir, {
      rotateBytes: 2000,
      now: (() => {
        let n = 0;
        return () => new Date(Date.UTC(2026, 0, 1, 0, 0, n++));
      })(),
    });
    for (let i = 0; i < 30; i++) {
      await guardedSend({
        ledger,
        entry: entry({ contentHash: `${(i % 16).toString(16)}${i}`.padEnd(64, 'e') }),
        send: c.send,
        completion: () => ({ outcome: 'accepted' }),
      });
    }
    assert.ok(fs.readdirSync(dir).filter((n) => /^ledger-.*\.jsonl$/.test(n)).length > 1, 'archives were made');
    const gen = fs.readdirSync(path.join(dir, 'guard')).find((n) => n.startsWith('g-'))!;
    assert.ok(
      fs.readFileSync(path.join(dir, 'guard', gen, 'content', '00e.txt'), 'utf8').startsWith(`\n${'00'.padEnd(64, 'e')}\t`),
      'the send is in its index shard, under its hash',
    );
    const again = await guardedSend({
      ledger,
      entry: entry({ contentHash: '00'.padEnd(64, 'e') }),
      send: c.send,
      completion: () => ({ outcome: 'accepted' }),
    });
    assert.equal(again.status, 'duplicate');
    const recent = await ledger.recent(5);
    assert.deepEqual(
      recent.map((r) => r.contentHash.slice(0, 3)),
      (await ledger.list()).slice(0, 5).map((r) => r.contentHash.slice(0, 3)),
    );
    assert.equal(recent.length, 5);
    assert.ok(
      recent.every((r) => r.outcome === 'accepted'),
      'completions found with their records',
    );
  });
});
