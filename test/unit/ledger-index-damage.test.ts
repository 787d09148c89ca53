import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { saidText } from '../../src/core/output';
import { guardedSend, Ledger, type GuardedSendResult } from '../../src/core/ledger';
import { Codes } from '../../src/core/rules/codes';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { Manifest, MANIFEST, type FileEntry } from '../../src/core/ledger/indexManifest';
import { SEAL_LINES } from '../../src/core/ledger/ledgerIndex';
import { newSubmission } from '../fixtures/ledger/entry';

// The ledger is the truth, the guard's index (guard/) only a cache (issue 37, item 4): whatever happened
// to the index, lint's already-sent (what `paygate lint` and the language server both ask:
// ledgerDiagnostics) still flags every row sent, and submit still refuses the same file and the edited
// one: the two faces agree. Each kind of damage failed before the index had a manifest and a watermark.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const TARGET = { environment: 'local', endpointId: '1001' };

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-index-damage-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The example with its ids tagged; `edited` changes one row's description (a new content, the same ids). */
function batchText(tag: string, edited = false): string {
  const text = valid.replace(/[A-Z]{3}-2027-/g, `${tag}-`);
  return edited ? text.replace('Gym membership, monthly', 'Gym membership (monthly)') : text;
}

function send(ledger: Ledger, text: string): Promise<GuardedSendResult<string>> {
  const prepared = prepareSubmission(text);
  assert.equal(prepared.refusal, undefined, prepared.refusal && saidText(prepared.refusal.problem));
  return guardedSend({
    ledger,
    entry: newSubmission({ contentHash: prepared.contentHash, rowCount: prepared.rowCount, ...TARGET }),
    batch: prepared.lint.batch,
    legacyHashes: prepared.legacyHashes,
    // Every tag sends the example's payers under new ids: same-payer's business (same-payer.test.ts), not this file's.
    allowSamePayer: true,
    send: async () => 'sent',
    completion: () => ({ outcome: 'accepted', serialNumbers: ['s-1'] }),
  });
}

/** Lint's face: the already-sent problems of a text. */
async function alreadySent(ledger: Ledger, text: string): Promise<number> {
  const found = await ledgerDiagnostics(ledger, prepareSubmission(text).lint.batch, { target: TARGET });
  return found.diagnostics.filter((d) => d.code === Codes.alreadySent).length;
}

function indexFiles(dir: string): string[] {
  const guard = path.join(dir, 'guard');
  if (!fs.existsSync(guard)) return [];
  return fs
    .readdirSync(guard, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Each kind of damage, done to the index of `dir`; `earlier` is a copy of the index taken before the last send. */
const DAMAGE: Record<string, (dir: string, earlier: string) => void> = {
  'every file truncated to half': (dir) => {
    for (const f of indexFiles(dir)) fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2));
  },
  'every file truncated to nothing': (dir) => {
    for (const f of indexFiles(dir)) fs.truncateSync(f, 0);
  },
  'every file filled with garbage of its own length': (dir) => {
    for (const f of indexFiles(dir)) fs.writeFileSync(f, Buffer.alloc(fs.statSync(f).size, 'x\n\t0'));
  },
  'the even half of the files removed': (dir) => indexFiles(dir).forEach((f, i) => i % 2 === 0 && fs.rmSync(f)),
  'the odd half of the files removed': (dir) => indexFiles(dir).forEach((f, i) => i % 2 === 1 && fs.rmSync(f)),
  'the whole folder removed': (dir) => fs.rmSync(path.join(dir, 'guard'), { recursive: true }),
  'an older copy of the index put back (older than the ledger)': (dir, earlier) => {
    fs.rmSync(path.join(dir, 'guard'), { recursive: true });
    fs.cpSync(earlier, path.join(dir, 'guard'), { recursive: true });
  },
  'a manifest whose own checksum holds but whose every entry is wrong': (dir) => {
    const file = path.join(dir, 'guard', MANIFEST);
    const manifest = Manifest.parse(fs.readFileSync(file))!;
    const gen = path.join(dir, 'guard', manifest.head.gen);
    const wrong = new Map(
      indexFiles(dir)
        .filter((f) => f.startsWith(gen))
        .map((f) => [path.relative(gen, f), [fs.statSync(f).size, '0'.repeat(16)] as FileEntry]),
    );
    assert.ok(wrong.size > 0);
    fs.writeFileSync(file, manifest.with(manifest.head, wrong).bytes());
  },
  'an unreadable manifest (a folder in its place)': (dir) => {
    const manifest = path.join(dir, 'guard', MANIFEST);
    fs.rmSync(manifest, { force: true });
    fs.mkdirSync(manifest);
  },
};

// Each kind of damage twice: with every send sealed into the index (sealLines 0: the damage hits the files
// that hold the sends), and as the index leaves it by default (the newest sends still past the watermark,
// read from the ledger itself; the older ones sealed by the rebuild).
for (const sealLines of [0, undefined]) {
  const ledgerAt = (dir: string) => new Ledger(dir, { sealLines });
  describe(`the guard index is a cache (${sealLines === 0 ? 'every send sealed' : 'sealed when the tail is long'}): each kind of damage is found and rebuilt, and lint and submit agree`, () => {
    for (const [what, damage] of Object.entries(DAMAGE)) {
      it(what, async (t) => {
        const dir = tempDir(t);
        const rows = prepareSubmission(batchText('A')).rowCount;
        // Enough history that the index has many files.
        for (let i = 0; i < 6; i++) assert.equal((await send(ledgerAt(dir), batchText(`H${i}`))).status, 'sent');
        const earlier = path.join(tempDir(t), 'guard');
        fs.cpSync(path.join(dir, 'guard'), earlier, { recursive: true });
        assert.equal((await send(ledgerAt(dir), batchText('A'))).status, 'sent');
        assert.equal(await alreadySent(ledgerAt(dir), batchText('A', true)), rows, 'before the damage');

        damage(dir, earlier);

        // Lint first (the face that went silent), each from a fresh process's view.
        assert.equal(await alreadySent(ledgerAt(dir), batchText('A', true)), rows, 'lint: the edited file');
        assert.equal(await alreadySent(ledgerAt(dir), batchText('A')), rows, 'lint: the same file');
        assert.equal(await alreadySent(ledgerAt(dir), batchText('H0')), rows, 'lint: an older send');
        assert.equal((await send(ledgerAt(dir), batchText('A'))).status, 'duplicate', 'submit: the same file');
        const edited = await send(ledgerAt(dir), batchText('A', true));
        assert.ok(edited.status === 'already-sent' && edited.rows.length === rows, `submit: the edited file (${edited.status})`);
        assert.equal(await alreadySent(ledgerAt(dir), batchText('A', true)), rows, 'lint again, after submit');
        // A new batch is neither flagged nor held back.
        assert.equal(await alreadySent(ledgerAt(dir), batchText('N')), 0);
        assert.equal((await send(ledgerAt(dir), batchText('N'))).status, 'sent');
      });
    }
  });
}

describe('the guard index is a cache: a stale index catches up', () => {
  it('a kill between the ledger line and the index leaves nothing to contradict the ledger: an index that missed a send catches up', async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir, { sealLines: 0 });
    assert.equal((await send(ledger, batchText('A'))).status, 'sent');
    const earlier = path.join(tempDir(t), 'guard');
    fs.cpSync(path.join(dir, 'guard'), earlier, { recursive: true });
    assert.equal((await send(ledger, batchText('B'))).status, 'sent');
    // As if the process had been killed after its ledger lines, before the index was sealed.
    fs.rmSync(path.join(dir, 'guard'), { recursive: true });
    fs.cpSync(earlier, path.join(dir, 'guard'), { recursive: true });
    const view = await new Ledger(dir).guardView({ contentHash: prepareSubmission(batchText('B')).contentHash, ...TARGET });
    assert.deepEqual(
      view.records.map((r) => r.outcome),
      ['accepted'],
    );
  });

  it('the newest sends are read from the ledger until the tail past the watermark is long; then they are sealed', async (t) => {
    const dir = tempDir(t);
    const manifestFile = path.join(dir, 'guard', MANIFEST);
    const watermark = () => Manifest.parse(fs.readFileSync(manifestFile))!.head.ledger.size;
    const rows = prepareSubmission(batchText('S0')).rowCount;
    assert.equal((await send(new Ledger(dir), batchText('S0'))).status, 'sent');
    const built = watermark();
    assert.ok(built > 0, 'the first send built the index');
    // Each send is two ledger lines: these stay past the watermark, and no send rewrites the manifest.
    const unsealed = SEAL_LINES / 2 - 1;
    for (let i = 1; i <= unsealed; i++) assert.equal((await send(new Ledger(dir), batchText(`S${i}`))).status, 'sent');
    assert.equal(watermark(), built, 'nothing sealed while the tail is short');
    for (let i = 1; i <= unsealed; i++)
      assert.equal(await alreadySent(new Ledger(dir), batchText(`S${i}`, true)), rows, `S${i} found in the tail`);
    assert.equal((await send(new Ledger(dir), batchText('S-last'))).status, 'sent');
    assert.equal(watermark(), fs.statSync(path.join(dir, 'ledger.jsonl')).size, "the long tail sealed, up to the ledger's end");
    for (const tag of ['S0', 'S1', `S${unsealed}`, 'S-last'])
      assert.equal(await alreadySent(new Ledger(dir), batchText(tag, true)), rows, `${tag} found`);
  });
});
