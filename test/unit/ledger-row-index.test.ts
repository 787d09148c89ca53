import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { Ledger, type GuardedSendResult } from '../../src/core/ledger';
import { checksum, INDEX_VERSION, Manifest, MANIFEST, type ManifestHead } from '../../src/core/ledger/indexManifest';
import { GUARD_DIR } from '../../src/core/ledger/ledgerIndex';
import { ENTRY, entriesOf, lookupEntries, Wanted } from '../../src/core/ledger/rowIndex';
import { fingerprint, orderKey } from '../../src/core/ledger/rowKeys';
import { payerKey } from '../../src/core/ledger/samePayer';
import { Codes } from '../../src/core/rules/codes';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { sendThrough } from '../fixtures/ledger/entry';

// The guard index's row entries since version 4 (rowIndex.ts): binary, fixed-width (a 12-byte key, 8 bytes of
// the content hash), appended only right after the bytes the manifest vouches for. What could go wrong with
// such a format, each failing before this version or with a careless writer: entries read out of step after a
// sealer killed midway left part of an entry (the next sealer must not append after it), a vouched file that
// is not whole entries, an index of version 3 (text entries) believed, a payer key (the fingerprint's first
// 96 bits) taken for the fingerprint. Damage of every other kind (truncated, garbage, half removed, older than
// the ledger) is ledger-index-damage.test.ts's, which runs against this version.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const TARGET = { environment: 'local', endpointId: '1001' };

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-row-index-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `n` rows of one card and schedule, ids `<tag>-<i>`. */
function many(tag: string, n: number): string {
  const rows = Array.from({ length: n }, (_, i) => `${tag}-${i};DST;x;;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;`);
  return [valid.split('\r\n')[0], ...rows].join('\r\n') + '\r\n';
}

const send = (ledger: Ledger, text: string): Promise<GuardedSendResult<string>> =>
  sendThrough(ledger, text, TARGET, { allowSamePayer: true });

async function alreadySent(ledger: Ledger, text: string): Promise<number> {
  const found = await ledgerDiagnostics(ledger, prepareSubmission(text).lint.batch, { target: TARGET });
  return found.diagnostics.filter((d) => d.code === Codes.alreadySent).length;
}

/** The generation folder the manifest names. */
function generation(dir: string): string {
  const m = Manifest.parse(fs.readFileSync(path.join(dir, GUARD_DIR, MANIFEST)))!;
  return path.join(dir, GUARD_DIR, m.head.gen);
}

/** Every row file of the generation (the shards and the pending file). */
function rowFiles(dir: string): string[] {
  const gen = generation(dir);
  const shards = fs.existsSync(path.join(gen, 'rows')) ? fs.readdirSync(path.join(gen, 'rows')).map((n) => path.join(gen, 'rows', n)) : [];
  return [
    ...shards,
    ...fs
      .readdirSync(gen)
      .filter((n) => n.startsWith('rows-pending'))
      .map((n) => path.join(gen, n)),
  ];
}

describe('the row entries (index version 4)', () => {
  it('are found by their whole key, whatever else a file holds; a key or hash of another shape has no entry', () => {
    const keys = Array.from({ length: 500 }, () => randomBytes(12).toString('hex'));
    const hashes = Array.from({ length: 7 }, () => randomBytes(32).toString('hex'));
    const bytes = Buffer.concat(
      hashes.map((h, i) =>
        entriesOf(
          keys.filter((_, k) => k % 7 === i).map((key) => ({ key })),
          h,
        ),
      ),
    );
    assert.equal(bytes.length, keys.length * ENTRY);
    const asked = new Set([...keys.filter((_, k) => k % 3 === 0), randomBytes(12).toString('hex')]);
    const found = new Map<string, Set<string>>();
    lookupEntries(bytes, new Wanted(asked), found);
    for (const [k, key] of keys.entries())
      assert.deepEqual(found.get(key), k % 3 === 0 ? new Set([hashes[k % 7].slice(0, 16)]) : undefined, key);
    assert.equal(found.size, asked.size - 1);
    // The same keys as a list, each listed twice (a lint hands its keys over so): the same answer.
    const fromList = new Map<string, Set<string>>();
    lookupEntries(bytes, new Wanted([...asked, ...asked]), fromList);
    assert.deepEqual(fromList, found);
    assert.equal(entriesOf([{ key: 'A'.repeat(24) }, { key: 'ab' }], hashes[0]).length, 0);
    assert.equal(entriesOf([{ key: keys[0] }], 'not a hash').length, 0);
    assert.deepEqual(new Wanted(new Set([keys[0], 'A'.repeat(24)])).shards(), [`rows/${keys[0].slice(0, 2)}.bin`]);
  });

  it('tells keys apart by every byte, however many share a head or a slot of the wanted table', () => {
    // Wanted keeps the keys as words in an open-addressed table slotted by their second word: keys that share
    // it (one chain of slots), and entries that differ from a wanted key in one byte only, anywhere.
    const base = randomBytes(12);
    const keys: string[] = [];
    for (let i = 0; i < 300; i++) {
      const k = Buffer.from(base);
      k.writeUInt32BE((i * 2654435761) >>> 0, 8); // the third word differs, the head and the slot are shared
      keys.push(k.toString('hex'));
    }
    const asked = new Set(keys.filter((_, i) => i % 2 === 0));
    const near = keys.flatMap((key) => {
      const out = [];
      for (const at of [0, 3, 4, 7, 8, 11]) {
        const k = Buffer.from(key, 'hex');
        k[at] ^= 1;
        out.push(k.toString('hex'));
      }
      return out;
    });
    const hash = randomBytes(32).toString('hex');
    const found = new Map<string, Set<string>>();
    const wanted = new Wanted(new Set([...asked, 'X'.repeat(24), keys[0].toUpperCase(), `${keys[0]}0`, '']));
    lookupEntries(
      entriesOf(
        [...near, ...keys].map((key) => ({ key })),
        hash,
      ),
      wanted,
      found,
    );
    assert.deepEqual([...found.keys()].sort(), [...asked].sort());
    for (const key of found.keys()) assert.deepEqual(found.get(key), new Set([hash.slice(0, 16)]));
  });

  it('a sealer killed midway (part of an entry past the vouched bytes): the next seal does not append after it', async (t) => {
    const dir = tempDir(t);
    const ledger = () => new Ledger(dir, { sealLines: 0 });
    // Two sends of 1,100 rows (one payer each): the second spreads the pending entries into the shards.
    for (const tag of ['A', 'B']) assert.equal((await send(ledger(), many(tag, 1100))).status, 'sent');
    const before = rowFiles(dir);
    const gen = generation(dir);
    assert.ok(
      before.some((f) => f.includes(`${path.sep}rows${path.sep}`)),
      'entries spread into shards',
    );
    // As a sealer killed in its write leaves them: 7 bytes of an entry past what the manifest vouches for, in every row file.
    for (const f of before) fs.appendFileSync(f, randomBytes(7));
    // C waits in the pending file (appended to a file with junk), D spreads the pending entries into the shards with junk.
    for (const tag of ['C', 'D']) assert.equal((await send(ledger(), many(tag, 1100))).status, 'sent');
    for (const f of rowFiles(dir)) assert.equal(fs.statSync(f).size % ENTRY, 0, `${f}: whole entries`);
    for (const tag of ['A', 'B', 'C', 'D']) {
      assert.equal(await alreadySent(new Ledger(dir), many(tag, 1100)), 1100, `lint: ${tag}`);
      const again = await send(new Ledger(dir), many(tag, 1100).replace(`${tag}-0;`, 'NEW-0;'));
      assert.ok(again.status === 'already-sent' && again.rows.length === 1099, `submit: ${tag} (${again.status})`);
    }
    // Found without a rebuild: the seals wrote whole entries where they meant to (after the junk, the
    // checksums would have failed and the index been rebuilt: still right, but a rebuild a seal).
    assert.equal(generation(dir), gen);
  });

  it('a vouched row file that is not whole entries is damage: the index is rebuilt, and lint and submit agree', async (t) => {
    const dir = tempDir(t);
    assert.equal((await send(new Ledger(dir, { sealLines: 0 }), many('A', 10))).status, 'sent');
    const file = path.join(dir, GUARD_DIR, MANIFEST);
    const m = Manifest.parse(fs.readFileSync(file))!;
    const pending = path.join(generation(dir), m.head.pending);
    // A writer's fault the checksum cannot tell: 3 more bytes, vouched for.
    fs.appendFileSync(pending, 'abc');
    const bytes = fs.readFileSync(pending);
    fs.writeFileSync(file, m.with(m.head, new Map([[m.head.pending, [bytes.length, checksum(bytes)]]])).bytes());
    assert.equal(await alreadySent(new Ledger(dir), many('A', 10)), 10, 'lint');
    assert.equal((await send(new Ledger(dir), many('A', 10))).status, 'duplicate', 'submit: the same file');
    assert.notEqual(Manifest.parse(fs.readFileSync(file))!.head.gen, m.head.gen, 'rebuilt');
  });

  it('an index of version 3 (text entries) is never read: rebuilt as version 4 from the ledger and the row records', async (t) => {
    const dir = tempDir(t);
    for (const tag of ['A', 'B']) assert.equal((await send(new Ledger(dir, { sealLines: 0 }), many(tag, 50))).status, 'sent');
    const file = path.join(dir, GUARD_DIR, MANIFEST);
    const m = Manifest.parse(fs.readFileSync(file))!;
    // What version 3 left: its manifest, and text entries `<key> <hash>` where this version's binary ones were.
    const gen = generation(dir);
    for (const f of rowFiles(dir)) fs.rmSync(f);
    fs.writeFileSync(path.join(gen, 'rows-pending-v3.txt'), `\n${'0'.repeat(24)} ${'0'.repeat(16)}\n`);
    fs.writeFileSync(file, m.with({ ...m.head, v: 3 } as unknown as ManifestHead, new Map()).bytes());
    assert.equal(Manifest.parse(fs.readFileSync(file)), undefined, 'a manifest of version 3 does not parse');
    assert.equal(await alreadySent(new Ledger(dir), many('A', 50)), 50, 'lint');
    const rebuilt = Manifest.parse(fs.readFileSync(file))!;
    assert.ok(rebuilt.head.v === INDEX_VERSION && rebuilt.head.gen !== m.head.gen, 'rebuilt as version 4');
    assert.equal(fs.existsSync(gen), false, "version 3's generation removed");
    const edited = await send(new Ledger(dir), many('B', 50).replace('B-0;', 'NEW-0;'));
    assert.ok(edited.status === 'already-sent' && edited.rows.length === 49, `submit (${edited.status})`);
  });

  it("a payer key's hit (the fingerprint's first 96 bits) is told by the whole fingerprint, read from the row records", async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir, { sealLines: 0 });
    assert.equal((await send(ledger, many('A', 3))).status, 'sent');
    const secret = (await ledger.secret(false))!;
    const batch = prepareSubmission(many('A', 3)).lint.batch;
    const fp = fingerprint(secret, (c) => batch.rows[0].value(c));
    // Another fingerprint with the same payer key: a prefix collision, forced.
    const twin = `${payerKey(fp)}${fp.slice(24) === 'ffffffff' ? '00000000' : 'ffffffff'}`;
    assert.equal(payerKey(twin), payerKey(fp));
    const found = await new Ledger(dir).recordsOfPayers(new Set([fp, twin]));
    assert.deepEqual([...found.keys()], [fp]);
    assert.deepEqual(
      found.get(fp)!.map((p) => p.key),
      [orderKey(secret, 'A-0'), orderKey(secret, 'A-1'), orderKey(secret, 'A-2')],
    );
  });
});
