import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ledger, type GuardedSendResult } from '../../src/core/ledger';
import { lint } from '../../src/core/rules/lint';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { sendThrough } from '../fixtures/ledger/entry';
import { saidText } from '../../src/core/output';

// A row's identity as the gateway keys it (issue 37), at the ledger: the row key, the already-sent guard
// and lint's already-sent read the client-orderid trimmed of whitespace of every kind, invisible characters
// removed, NFC; a ledger the earlier code wrote (keys of the cells as written) still finds its rows.

const root = path.join(__dirname, '..', '..');
const HEADER = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8').split('\r\n')[0];
const FIXTURE = path.join(root, 'test', 'fixtures', 'ledger', 'raw-id-keys');
const CARDS = ['6011000990139424', '4111111111111111', '5555555555554444', '4000056655665556', '6011111111111117', '378282246310005'];

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-identity-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A batch of DST rows, one per id, each on its own card (the fixture's shape). */
function batchOf(ids: readonly string[], cards: readonly string[] = CARDS, amount = '10.00'): string {
  return (
    [HEADER, ...ids.map((id, i) => `${id};DST;x;;;;;;;;;;;;;;;${amount};;;;EUR;P;${cards[i % cards.length]};05;2030;;;`)].join('\r\n') +
    '\r\n'
  );
}

function send(ledger: Ledger, text: string, stateDir?: string): Promise<GuardedSendResult<string>> {
  return sendThrough(ledger, text, stateDir !== undefined ? { localGateway: { stateDir, startId: 'run-1', today: '01.03.2027' } } : {});
}

const VARIANTS: [string, (id: string) => string][] = [
  ['a trailing space', (id) => `${id} `],
  ['a leading space', (id) => ` ${id}`],
  ['a no-break space', (id) => `\u00a0${id}`],
  ['a tab', (id) => `\t${id}`],
  ['a byte order mark inside', (id) => `${id.slice(0, 3)}\ufeff${id.slice(3)}`],
  ['a zero-width space', (id) => `${id}\u200b`],
  ['a word joiner', (id) => `\u2060${id}`],
  ['an ideographic space', (id) => `${id}\u3000`],
];

describe('the already-sent guard reads an id as the gateway does', () => {
  for (const [what, variant] of VARIANTS) {
    it(`refuses the id sent again with ${what}, and the plain id after it was sent with ${what}`, async (t) => {
      const ledger = new Ledger(tempDir(t));
      assert.equal((await send(ledger, batchOf(['W-0001']))).status, 'sent');
      const again = await send(ledger, batchOf([variant('W-0001')], CARDS.slice(1)));
      assert.equal(again.status, 'already-sent', what);
      assert.equal((await send(ledger, batchOf([variant('V-0001')], CARDS.slice(3)))).status, 'sent');
      assert.equal((await send(ledger, batchOf(['V-0001'], CARDS.slice(4)))).status, 'already-sent', `${what}, the other way`);
    });
  }

  it('refuses NFD after NFC and NFC after NFD', async (t) => {
    const ledger = new Ledger(tempDir(t));
    assert.equal((await send(ledger, batchOf(['CAF\u00c9-1']))).status, 'sent');
    assert.equal((await send(ledger, batchOf(['CAFE\u0301-1'], CARDS.slice(1)))).status, 'already-sent');
    assert.equal((await send(ledger, batchOf(['NAI\u0308VE-2'], CARDS.slice(2)))).status, 'sent');
    assert.equal((await send(ledger, batchOf(['NA\u00cfVE-2'], CARDS.slice(3)))).status, 'already-sent');
  });

  it('lower case, a look-alike letter and a space inside are other ids to the gateway: not already-sent, but the same payer (same-payer)', async (t) => {
    const ledger = new Ledger(tempDir(t));
    assert.equal((await send(ledger, batchOf(['GYM-0001']))).status, 'sent');
    for (const other of ['gym-0001', '\u0413YM-0001', 'GYM -0001'])
      assert.equal((await send(ledger, batchOf([other]))).status, 'same-payer', other);
  });

  it("lint's already-sent finds the variant too", async (t) => {
    const ledger = new Ledger(tempDir(t));
    await send(ledger, batchOf(['L-0001', 'L-0002']));
    const text = batchOf(['L-0001 ', '\ufeffL-0002', 'L-0003']);
    const found = await ledgerDiagnostics(ledger, lint(text).batch, { target: { environment: 'local', endpointId: '1001' } });
    assert.deepEqual(
      found.diagnostics.filter((d) => d.code === 'already-sent').map((d) => d.range.start.line),
      [1, 2],
    );
  });
});

describe('a ledger written before the gateway reading', () => {
  it('still finds every row it kept by its cell as written, by the id as the gateway reads it (the guard and lint)', async (t) => {
    const dir = tempDir(t);
    fs.cpSync(FIXTURE, dir, { recursive: true });
    fs.rmSync(path.join(dir, 'README.md'));
    const ledger = new Ledger(dir);
    const target = { environment: 'local', endpointId: '1001' };
    const read = ['OLD-0001', 'OLD-0002', 'OLD-0003', 'CAF\u00c9-0004', 'OLD-0005', 'OLD-0006'];
    const found = await ledgerDiagnostics(ledger, lint(batchOf(read)).batch, { target });
    assert.equal(
      found.diagnostics.filter((d) => d.code === 'already-sent').length,
      6,
      found.diagnostics.map((d) => saidText(d.message)).join('\n'),
    );
    for (const id of read) {
      const r = await send(new Ledger(dir), batchOf([id], ['4242424242424242']));
      assert.equal(r.status, 'already-sent', id);
      assert.ok(r.status === 'already-sent' && r.rows[0].earlier.serialNumbers[0] === '00000000-0000-0000-0000-000000000001');
    }
    // The file as it was sent, unchanged in its rows: still refused (by its rows; the content differs by its amount).
    const asSent = batchOf(['OLD-0001 ', '\u00a0OLD-0002', 'OLD-\ufeff0003', 'CAFE\u0301-0004', '\tOLD-0005', 'OLD-0006'], CARDS, '11.00');
    assert.equal((await send(new Ledger(dir), asSent)).status, 'already-sent');
  });

  it('finds them again after the index is lost and rebuilt from the batches', async (t) => {
    const dir = tempDir(t);
    fs.cpSync(FIXTURE, dir, { recursive: true });
    fs.rmSync(path.join(dir, 'guard'), { recursive: true });
    const r = await send(new Ledger(dir), batchOf(['OLD-0001'], ['4242424242424242']));
    assert.equal(r.status, 'already-sent');
  });
});

describe('the identity of the target', () => {
  it('a local gateway state directory reached through a symlink is the same local gateway: the unchanged file and its rows are refused', async (t) => {
    const dir = tempDir(t);
    const state = path.join(dir, 'state');
    fs.mkdirSync(state);
    fs.symlinkSync(state, path.join(dir, 'link'));
    fs.symlinkSync(path.join(dir, 'link'), path.join(dir, 'link-of-link'));
    const ledger = new Ledger(path.join(dir, 'ledger'));
    assert.equal((await send(ledger, batchOf(['T-0001', 'T-0002']), state)).status, 'sent');
    assert.equal((await send(ledger, batchOf(['T-0001', 'T-0002']), path.join(dir, 'link'))).status, 'duplicate');
    assert.equal((await send(ledger, batchOf(['T-0002', 'T-0001']), path.join(dir, 'link-of-link'))).status, 'already-sent');
    const other = path.join(dir, 'other');
    fs.mkdirSync(other);
    assert.equal(
      (await send(ledger, batchOf(['T-0001', 'T-0002']), other)).status,
      'sent',
      'another state directory is another local gateway',
    );
  });
});
