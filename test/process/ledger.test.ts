import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultLedgerDirectory, guardedSend, Ledger, type NewSubmission } from '../../src/core/ledger';
import { LEDGER_FILE } from '../../src/core/ledger/files';
import { importLegacyLedger } from '../../src/extension/ledger/legacy';
import { newSubmission } from '../fixtures/ledger/entry';

// The submission ledger: what it records, that nothing is lost (no cap, concurrent writers, kill -9),
// that a damaged file is kept and moved aside, and the guarded send every face uses.

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-'));
}

const entry = newSubmission;

describe('ledger records', () => {
  it('is on disk as "sending" before the request, then completed by a second line', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const r = await ledger.begin(entry());
    const lines = fs
      .readFileSync(ledger.filePath, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]).record.state, 'sending');
    const done = await ledger.complete(r.id, {
      outcome: 'accepted',
      httpStatus: 200,
      recurringPaymentIds: ['7', '8'],
      serialNumbers: ['s-1'],
    });
    assert.deepEqual([done?.state, done?.recurringPaymentIds, done?.serialNumbers], ['done', ['7', '8'], ['s-1']]);
    assert.equal(
      fs
        .readFileSync(ledger.filePath, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length,
      2,
      'appended, not rewritten',
    );
    assert.equal(fs.statSync(ledger.filePath).mode & 0o077, 0, 'readable by its owner only');
  });

  it('guards by content hash, environment and endpoint id, never by URL', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const r = await ledger.begin(entry());
    await ledger.complete(r.id, { outcome: 'accepted' });
    const key = { contentHash: 'a'.repeat(64), environment: 'local', endpointId: '1001' };
    assert.equal((await ledger.findResendBlocker(key))?.id, r.id);
    // A restarted local gateway listens on another port: the same target still.
    assert.equal((await new Ledger(dir).findResendBlocker(key))?.endpoint, entry().endpoint);
    assert.equal(await ledger.findResendBlocker({ ...key, contentHash: 'b'.repeat(64) }), undefined);
    assert.equal(await ledger.findResendBlocker({ ...key, endpointId: '1002' }), undefined);
    assert.equal(await ledger.findResendBlocker({ ...key, environment: 'sandbox' }), undefined);
  });

  it('a rejected send does not block; sending, unknown and cancelled do', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const key = (h: string) => ({ contentHash: h, environment: 'local', endpointId: '1001' });
    for (const [h, outcome] of [
      ['1', 'validation-error'],
      ['2', 'unknown'],
      ['3', 'cancelled'],
      ['4', 'transport-error'],
      ['5', undefined],
    ] as const) {
      const r = await ledger.begin(entry({ contentHash: h }));
      if (outcome) await ledger.complete(r.id, { outcome });
    }
    assert.equal(await ledger.findResendBlocker(key('1')), undefined);
    assert.ok(await ledger.findResendBlocker(key('2')));
    assert.ok(await ledger.findResendBlocker(key('3')));
    assert.equal(await ledger.findResendBlocker(key('4')), undefined, 'nothing was sent');
    assert.ok(await ledger.findResendBlocker(key('5')), 'still sending');
  });

  it('holds no card number or CVV in any text', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const r = await ledger.begin(entry({ file: '/tmp/4111111111111111.rpcsv' }));
    await ledger.complete(
      r.id,
      { outcome: 'validation-error', message: 'row 1: card 4111111111111111 cvv 737 refused', errorCode: '5555555555554444' },
      ['737'],
    );
    const text = fs.readFileSync(ledger.filePath, 'utf8');
    assert.ok(!text.includes('4111111111111111') && !text.includes('5555555555554444'), text);
    assert.ok(!text.includes(' 737 '));
    assert.ok(text.includes('411111******1111'));
  });

  it('keeps every record: no cap, concurrent writers in one process, newest first', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const a = new Ledger(dir);
    const b = new Ledger(dir);
    const written = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        (i % 2 ? a : b).begin(entry({ file: `/tmp/${i}.rpcsv` }), new Date(Date.UTC(2026, 0, 1, 0, 0, i))),
      ),
    );
    const listed = await a.list();
    assert.equal(listed.length, 600);
    assert.deepEqual(new Set(listed.map((r) => r.id)), new Set(written.map((r) => r.id)));
    assert.equal(listed[0].id, written[599].id);
  });

  it('archives when the file grows, and reads the archives with it', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    let tick = 0;
    const ledger = new Ledger(dir, { rotateBytes: 2000, now: () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000) });
    for (let i = 0; i < 30; i++) {
      const r = await ledger.begin(entry({ contentHash: String(i) }));
      await ledger.complete(r.id, { outcome: 'accepted' });
    }
    const archives = fs.readdirSync(dir).filter((n) => /^ledger-.*\.jsonl$/.test(n));
    assert.ok(archives.length >= 2, fs.readdirSync(dir).join(', '));
    const listed = await ledger.list();
    assert.equal(listed.length, 30);
    assert.ok(listed.every((r) => r.state === 'done'));
  });

  it('clearing archives the ledger into a folder instead of deleting it', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    await ledger.begin(entry());
    const archived = await ledger.archive();
    assert.deepEqual(await ledger.list(), []);
    assert.ok(archived && fs.existsSync(path.join(archived, LEDGER_FILE)));
  });

  it('lives in $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate', () => {
    assert.equal(defaultLedgerDirectory({ PAYGATE_DATA_DIR: '/d', XDG_DATA_HOME: '/x' }, '/h'), '/d');
    assert.equal(defaultLedgerDirectory({ XDG_DATA_HOME: '/x' }, '/h'), path.join('/x', 'paygate'));
    assert.equal(defaultLedgerDirectory({ XDG_DATA_HOME: 'relative' }, '/h'), path.join('/h', '.local', 'share', 'paygate'));
    assert.equal(defaultLedgerDirectory({}, '/h'), path.join('/h', '.local', 'share', 'paygate'));
  });
});

describe('ledger damage', () => {
  it('keeps the readable records, moves the damaged file aside whole and says so once', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const kept = [];
    for (let i = 0; i < 3; i++) {
      const r = await ledger.begin(entry({ contentHash: String(i) }));
      await ledger.complete(r.id, { outcome: 'accepted' });
      kept.push(r.id);
    }
    const original = fs.readFileSync(ledger.filePath, 'utf8');
    const lines = original.split('\n');
    // A disk error: garbage in the middle, and a line of something else entirely.
    fs.writeFileSync(
      ledger.filePath,
      [...lines.slice(0, 4), '\u0000\u0000garbage\u0000', 'not ours at all}', ...lines.slice(4)].join('\n'),
    );
    const damagedText = fs.readFileSync(ledger.filePath, 'utf8');
    const reading = await ledger.read();
    assert.ok(reading.damage, 'damage reported');
    assert.equal(reading.damage.unreadableLines, 2);
    assert.deepEqual(reading.records.map((r) => r.id).sort(), [...kept].sort());
    assert.ok(reading.records.every((r) => r.state === 'done'));
    assert.equal(fs.readFileSync(reading.damage.movedTo, 'utf8'), damagedText, 'the damaged file is kept whole');
    const again = await ledger.read();
    assert.equal(again.damage, undefined, 'the repaired ledger is clean');
    assert.equal(again.records.length, 3);
    // New writes land in the repaired ledger.
    await ledger.begin(entry({ contentHash: 'new' }));
    assert.equal((await ledger.list()).length, 4);
  });

  it('a line torn anywhere is damage: moved aside, and it never swallows the next line', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const first = await ledger.begin(entry({ contentHash: '1' }));
    const line = fs.readFileSync(ledger.filePath, 'utf8');
    fs.appendFileSync(ledger.filePath, line.slice(0, Math.floor(line.length / 2)).replace(first.id, 'torn-id'));
    const next = await ledger.begin(entry({ contentHash: '2' }));
    const reading = await ledger.read();
    assert.equal(reading.damage?.unreadableLines, 1);
    assert.deepEqual(reading.records.map((r) => r.id).sort(), [first.id, next.id].sort());
  });

  it('kill -9 at any moment during writes leaves a readable ledger', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const writer = path.join(__dirname, '..', 'fixtures', 'ledger', 'writer.ts');
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', tsx, writer, dir, `r${round}`], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Wait until it is writing (its 21st record), with a bound, then kill it without warning.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the writer did not start within 60 s')), 60_000);
        child.stdout.on('data', (d: Buffer) => {
          if (d.toString().includes('ready')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', () => reject(new Error('the writer exited early')));
      });
      // A few more records at an arbitrary point, then SIGKILL.
      const before = fs.statSync(path.join(dir, LEDGER_FILE)).size;
      const deadline = Date.now() + 30_000;
      while (fs.statSync(path.join(dir, LEDGER_FILE)).size < before + 50_000 + round * 30_000 && Date.now() < deadline)
        await new Promise((r) => setImmediate(r));
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await exited;
      const reading = await new Ledger(dir).read();
      // A line torn by the kill is damage (moved aside): at most the one being written.
      assert.ok((reading.damage?.unreadableLines ?? 0) <= 1, `round ${round}: at most one torn line per kill`);
      const mine = reading.records.filter((r) => r.file.startsWith(`/tmp/r${round}-`));
      assert.ok(mine.length >= 21, `round ${round}: ${mine.length} records`);
      // Every record but possibly the last one begun is complete.
      assert.ok(mine.filter((r) => r.state === 'sending').length <= 1);
    }
  });
});

describe('guarded send', () => {
  const once = (over: Partial<NewSubmission> = {}) => entry(over);

  it('two simultaneous submits of one file in one window send once; the second is refused at once', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    let sends = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const send = async () => {
      sends++;
      await gate;
      return { outcome: 'accepted' as const };
    };
    const first = guardedSend({ ledger, entry: once(), send, completion: (o) => o });
    const second = await guardedSend({ ledger, entry: once(), send, completion: (o) => o, confirmResend: async () => true });
    assert.equal(second.status, 'in-flight');
    release();
    assert.equal((await first).status, 'sent');
    assert.equal(sends, 1);
    // Afterwards it is a duplicate: refused without a question, sent when confirmed.
    assert.equal((await guardedSend({ ledger, entry: once(), send, completion: (o) => o })).status, 'duplicate');
    assert.equal(
      (await guardedSend({ ledger, entry: once(), send, completion: (o) => o, confirmResend: async () => false })).status,
      'duplicate',
    );
    assert.equal(
      (await guardedSend({ ledger, entry: once(), send, completion: (o) => o, confirmResend: async () => true })).status,
      'sent',
    );
    assert.equal(sends, 2);
  });

  it('three handles on one ledger directory (itself, a link to it, a trailing separator) in one process send once', async (t) => {
    const dir = tempDir();
    const link = `${dir}-link`;
    fs.symlinkSync(dir, link);
    t.after(() => {
      fs.rmSync(link, { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    });
    let sends = 0;
    const send = async () => {
      sends++;
      return { outcome: 'accepted' as const };
    };
    // The ledger's directory is read by its real path: the in-process check sees one ledger and refuses the
    // others at once. (Two windows are two processes: their race is decided by the ledger's order, as
    // "two batches sharing a row … from two processes" and the fault suite's concurrent submitters show.)
    const results = await Promise.all(
      [new Ledger(dir), new Ledger(link), new Ledger(dir + path.sep)].map((ledger) =>
        guardedSend({ ledger, entry: once(), send, completion: (o) => o }),
      ),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(sends, 1, JSON.stringify(statuses));
    assert.deepEqual(statuses, ['sent', 'in-flight', 'in-flight']);
    assert.equal((await new Ledger(dir).list()).length, 1, 'one record: the others were refused before anything was written');
  });

  it('damage that names no batch stops every plain send until an explicit resend acknowledges it', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    await ledger.begin(once({ contentHash: 'x' }));
    fs.appendFileSync(ledger.filePath, '\n@@@ not a record @@@\n');
    let sends = 0;
    const send = async () => ++sends;
    const r = await guardedSend({ ledger, entry: once(), send, completion: () => ({ outcome: 'accepted' }) });
    assert.equal(r.status, 'damaged');
    assert.equal(sends, 0);
    // Still refused on a plain re-run: the damaged part may have held this batch.
    assert.equal((await guardedSend({ ledger, entry: once(), send, completion: () => ({ outcome: 'error' }) })).status, 'damaged');
    assert.equal(sends, 0);
    const allowed = await guardedSend({ ledger, entry: once(), send, completion: () => ({ outcome: 'error' }), allowResend: true });
    assert.equal(allowed.status, 'sent');
    // Acknowledged: another batch is no longer held back.
    assert.equal(
      (await guardedSend({ ledger, entry: once({ contentHash: 'other' }), send, completion: () => ({ outcome: 'error' }) })).status,
      'sent',
    );
    assert.equal(sends, 2);
  });
});

describe("the editor's former history file", () => {
  it('joins the ledger once, keeping outcomes and times, and is renamed, not deleted', async (t) => {
    const storage = tempDir();
    const dir = tempDir();
    t.after(() => {
      fs.rmSync(storage, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const old = (id: string, state: string, outcome?: string) => ({
      id,
      time: '2026-01-02T03:04:05.000Z',
      environment: 'sandbox',
      production: false,
      endpoint: 'https://gw.example/p/api/v4/create-recurring-payments/77/',
      file: '/w/b.rpcsv',
      rowCount: 1,
      contentHash: id.padEnd(64, '0'),
      signatureMethod: 'RSA-SHA256',
      state,
      outcome,
      recurringPaymentIds: outcome === 'accepted' ? ['9'] : [],
      serialNumbers: [],
      statuses: [],
    });
    fs.writeFileSync(
      path.join(storage, 'submissions.json'),
      JSON.stringify({ version: 1, records: [old('b', 'sending'), old('a', 'done', 'accepted')] }),
    );
    const ledger = new Ledger(dir);
    assert.equal(await importLegacyLedger(storage, ledger), 2);
    assert.equal(await importLegacyLedger(storage, ledger), 0);
    assert.ok(fs.existsSync(path.join(storage, 'submissions.json.imported')));
    const records = await ledger.list();
    assert.equal(records.length, 2);
    const accepted = records.find((r) => r.outcome === 'accepted');
    assert.deepEqual([accepted?.endpointId, accepted?.time, accepted?.recurringPaymentIds], ['77', '2026-01-02T03:04:05.000Z', ['9']]);
    assert.ok(
      await ledger.findResendBlocker({ contentHash: 'b'.padEnd(64, '0'), environment: 'sandbox', endpointId: '77' }),
      'an unfinished send still blocks',
    );
  });
});

describe('ledger damage in an archive', () => {
  it('is moved aside too, its readable records carried into the live ledger', async (t) => {
    const dir = tempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ledger = new Ledger(dir);
    const r = await ledger.begin(entry({ contentHash: 'archived' }));
    await ledger.complete(r.id, { outcome: 'accepted' });
    const archive = path.join(dir, 'ledger-2026-01-01T00-00-00-000Z.jsonl');
    fs.renameSync(ledger.filePath, archive);
    fs.appendFileSync(archive, '\nnot a record\n');
    const reading = await ledger.read();
    assert.ok(reading.damage);
    assert.equal(fs.existsSync(archive), false);
    assert.deepEqual(
      (await ledger.list()).map((x) => [x.id, x.outcome]),
      [[r.id, 'accepted']],
    );
    assert.equal((await ledger.read()).damage, undefined);
  });
});
