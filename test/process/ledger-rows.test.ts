import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { OUTCOMES, RECORDED_OUTCOMES } from '../../src/core/gateway/outcomes';
import { diffAgainstLedger, DiffIndex, Ledger, mayHaveCreated, type Completion, type GuardedSendResult } from '../../src/core/ledger';
import { PENDING_LIMIT } from '../../src/core/ledger/rowIndex';
import { KEY_FILE } from '../../src/core/ledger/secret';
import { readBatch } from '../../src/core/rules/batch';
import { sendThrough } from '../fixtures/ledger/entry';

// The row-level guard: what the ledger keeps of each row (and that it is no card data), how an edited,
// reordered or extended batch is found already sent, which outcomes count, the row index at any size
// (compaction, a lost index rebuilt from the batches' row keys), and diff against a send read back.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const CARDS = ['4111111111111111', '5555555555554444', '4000056655665556', '6011111111111117'];
const CVVS = ['123', '456'];

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-rows-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The example with its ids tagged; `edit` changes the rows' lines (not the header). */
function batchText(tag: string, edit: (rows: string[]) => string[] = (r) => r): string {
  const [head, ...rest] = valid.replace(/[A-Z]{3}-2027-/g, `${tag}-`).split(/(?<=\r\n)(?=[A-Z])/);
  return [head, ...edit(rest)].join('');
}

async function send(
  ledger: Ledger,
  text: string,
  over: {
    outcome?: Completion['outcome'];
    environment?: string;
    endpointId?: string;
    stateDir?: string;
    allowResend?: boolean;
    answer?: boolean;
  } = {},
): Promise<GuardedSendResult<string>> {
  return sendThrough(
    ledger,
    text,
    {
      environment: over.environment ?? 'local',
      endpointId: over.endpointId ?? '1001',
      ...(over.stateDir !== undefined && { localGateway: { stateDir: over.stateDir, startId: 'run-1', today: '01.03.2027' } }),
    },
    {
      allowResend: over.allowResend,
      // Tagged copies of the example send its payers under new ids on purpose: same-payer is same-payer.test.ts's.
      allowSamePayer: true,
      ...(over.answer !== undefined ? { confirmRowResend: async () => over.answer! } : {}),
      completion: () => ({ outcome: over.outcome ?? 'accepted', serialNumbers: ['s-1'] }),
    },
  );
}

function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** The three shapes of an accidental resend. */
const edited = (rows: string[]) => [rows[0].replace('Gym membership, monthly', 'Gym membership (monthly)'), ...rows.slice(1)];
const reordered = (rows: string[]) => [...rows].reverse().map((r, i) => (i === 0 && !r.endsWith('\r\n') ? `${r}\r\n` : r));
const extended = (rows: string[]) => [...rows, 'NEW-1;DST;Payout;;;;;;;;;;;;;;;10.00;;;;EUR;PARTNER LTD;6011000990139424;05;2030;;;\r\n'];

describe('may have created payments: one table', () => {
  it('every outcome of the table, and the ledger-only ones, say it; an unknown outcome counts as may', () => {
    for (const name of Object.keys(OUTCOMES).filter((n) => n !== 'report'))
      assert.equal(typeof RECORDED_OUTCOMES[name as keyof typeof RECORDED_OUTCOMES].mayHaveCreated, 'boolean', name);
    const done = (outcome: string, ids: string[] = []) =>
      mayHaveCreated({ state: 'done', outcome: outcome as never, recurringPaymentIds: ids });
    assert.deepEqual(
      [
        'accepted',
        'unknown',
        'unrecognised',
        'cancelled',
        'declined',
        'validation-error',
        'error',
        'auth-failed',
        'server-error',
        'transport-error',
        'withdrawn',
      ].map((o) => done(o)),
      [true, true, true, true, false, false, false, false, false, false, false],
    );
    assert.equal(done('declined', ['7']), true, 'a batch declined in part created payments');
    assert.equal(done('an-outcome-of-a-newer-version'), true);
    assert.equal(mayHaveCreated({ state: 'done', recurringPaymentIds: [] }), true, 'a done record without an outcome');
    assert.equal(mayHaveCreated({ state: 'sending', recurringPaymentIds: [] }), true);
  });
});

describe('row keys in the ledger', () => {
  it('keeps per row a keyed id, the masked client-orderid, the line, a fingerprint and value hashes: no card number, no CVV', async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir);
    assert.equal((await send(ledger, batchText('K'))).status, 'sent');
    const key = path.join(dir, KEY_FILE);
    assert.equal(fs.statSync(key).mode & 0o777, 0o600, 'the key is its owner’s only');
    assert.match(fs.readFileSync(key, 'utf8'), /^[0-9a-f]{64}\n$/);
    const rows = await ledger.batchRows(prepareSubmission(batchText('K')).contentHash);
    assert.ok(rows);
    assert.deepEqual(
      rows.rows.map((r) => [r.orderId, r.line]),
      [
        ['K-0001', 2],
        ['K-0002', 3],
        ['K-0003', 4],
        ['K-0004', 6],
      ],
    );
    assert.ok(rows.rows.every((r) => /^[0-9a-f]{24}$/.test(r.key) && /^[0-9a-f]{32}$/.test(r.fingerprint)));
    const cvvAt = rows.columns.indexOf('cvv2');
    assert.ok(
      rows.rows.every((r) => r.values.split(' ')[cvvAt] === '-'),
      'cvv2 is never hashed',
    );
    for (const file of allFiles(dir).filter((f) => !f.endsWith(KEY_FILE))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const card of CARDS) assert.ok(!text.includes(card), `${card.slice(0, 6)}… in ${path.relative(dir, file)}`);
      for (const cvv of CVVS) assert.ok(!new RegExp(`"${cvv}"|;${cvv};`).test(text), `a CVV in ${path.relative(dir, file)}`);
    }
  });

  it('a second ledger process uses the same key; two first sends at once agree on one', async (t) => {
    const dir = tempDir(t);
    const [a, b] = await Promise.all([new Ledger(dir).secret(true), new Ledger(dir).secret(true)]);
    assert.equal(a!.mac('x', 64), b!.mac('x', 64));
    assert.equal((await new Ledger(dir).secret(false))!.mac('x', 64), a!.mac('x', 64));
    assert.equal(await new Ledger(tempDir(t)).secret(false), undefined, 'a reader never makes a key');
  });
});

describe('the row-level guard', () => {
  for (const [what, change, sentRows] of [
    ['edited', edited, 4],
    ['reordered', reordered, 4],
    ['extended', extended, 4],
  ] as const) {
    it(`finds an ${what} batch's rows already sent, names each with its line, and sends nothing`, async (t) => {
      const ledger = new Ledger(tempDir(t));
      assert.equal((await send(ledger, batchText('R'))).status, 'sent');
      const text = batchText('R', change);
      const r = await send(ledger, text);
      assert.equal(r.status, 'already-sent');
      assert.ok(r.status === 'already-sent');
      assert.equal(r.rows.length, sentRows);
      const lines = readBatch(text).rows.map((row) => ({
        id: row.value('client-orderid'),
        line: readBatch(text).csv.index.positionAt(row.record.start).line + 1,
      }));
      for (const row of r.rows)
        assert.ok(
          lines.some((l) => l.id === row.orderId && l.line === row.line),
          `${row.orderId} at line ${row.line}`,
        );
      assert.equal(r.rows[0].earlier.outcome, 'accepted');
      assert.deepEqual(r.rows[0].earlier.serialNumbers, ['s-1']);
      assert.equal((await ledger.list()).length, 1, 'nothing recorded for the refused send');
    });
  }

  it('counts only submissions that may have created payments, to the same environment and endpoint', async (t) => {
    const ledger = new Ledger(tempDir(t));
    await send(ledger, batchText('O'), { outcome: 'validation-error' });
    assert.equal((await send(ledger, batchText('O', edited))).status, 'sent', 'a validation-error created nothing');
    for (const [tag, outcome] of [
      ['UNK', 'unknown'],
      ['UNR', 'unrecognised'],
    ] as const) {
      await send(ledger, batchText(tag), { outcome });
      assert.equal((await send(ledger, batchText(tag, edited))).status, 'already-sent', outcome);
    }
    assert.equal((await send(ledger, batchText('O', reordered), { endpointId: '2002' })).status, 'sent', 'another endpoint');
    assert.equal((await send(ledger, batchText('O', reordered), { environment: 'sandbox' })).status, 'sent', 'another environment');
  });

  it('for local, counts rows sent to the same local gateway (or to one the ledger did not name), not to another', async (t) => {
    const ledger = new Ledger(tempDir(t));
    await send(ledger, batchText('L'), { stateDir: '/state/a' });
    assert.equal((await send(ledger, batchText('L', edited), { stateDir: '/state/a' })).status, 'already-sent', 'the same gateway');
    assert.equal((await send(ledger, batchText('L', edited), { stateDir: '/state/b' })).status, 'sent', 'another gateway');
    await send(ledger, batchText('N'));
    assert.equal((await send(ledger, batchText('N', edited), { stateDir: '/state/c' })).status, 'already-sent', 'a record naming none');
  });

  it('sends on --allow-resend or a yes; a resend of the very same content is asked once, by the file-level guard', async (t) => {
    const ledger = new Ledger(tempDir(t));
    await send(ledger, batchText('A'));
    assert.equal((await send(ledger, batchText('A', edited), { answer: false })).status, 'already-sent');
    assert.equal((await send(ledger, batchText('A', edited), { answer: true })).status, 'sent');
    assert.equal((await send(ledger, batchText('A', reordered), { allowResend: true })).status, 'sent');
    assert.equal((await send(ledger, batchText('A'))).status, 'duplicate', 'the file-level guard stays');
  });

  it('two batches sharing a row, sent at the same moment from two processes, are never both sent', async (t) => {
    for (let round = 0; round < 5; round++) {
      const dir = tempDir(t);
      const results = await Promise.all([
        send(new Ledger(dir), batchText(`S${round}`)),
        send(new Ledger(dir), batchText(`S${round}`, extended)),
      ]);
      assert.ok(results.filter((r) => r.status === 'sent').length <= 1, results.map((r) => r.status).join(', '));
    }
  });
});

describe('the row index at any size', () => {
  it('spreads its pending entries into shards past the limit and still finds every row; a lost index is rebuilt', async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir);
    const many = (tag: string, n: number) =>
      [
        valid.split('\r\n')[0],
        ...Array.from({ length: n }, (_, i) => `${tag}-${i};DST;x;;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;`),
      ].join('\r\n') + '\r\n';
    const sends = Math.ceil((PENDING_LIMIT * 1.5) / 500);
    for (let i = 0; i < sends; i++) assert.equal((await send(ledger, many(`B${i}`, 500))).status, 'sent');
    const guard = path.join(dir, 'guard');
    const gen = fs.readdirSync(guard).find((n) => n.startsWith('g-'))!;
    assert.ok(fs.readdirSync(path.join(guard, gen, 'rows')).length > 100, 'entries spread into shards');
    const pending = fs.readdirSync(path.join(guard, gen)).filter((n) => n.startsWith('rows-pending'));
    assert.ok(pending.length <= 1, `one pending file: ${pending.join(', ')}`);
    for (const p of pending) assert.ok(fs.statSync(path.join(guard, gen, p)).size < PENDING_LIMIT * 43, 'the pending file was emptied');
    const probe = (i: number) =>
      many(`B${i}`, 500).replace(/\r\n(?=B)/, '\r\nPROBE;DST;x;;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;\r\n');
    for (const i of [0, sends - 1]) {
      const r = await send(ledger, probe(i));
      assert.ok(r.status === 'already-sent' && r.rows.length === 500, `send ${i}: ${r.status}`);
    }
    fs.rmSync(guard, { recursive: true });
    const again = await send(new Ledger(dir), probe(0));
    assert.ok(again.status === 'already-sent' && again.rows.length === 500, 'found again after the index was rebuilt from the batches');
  });
});

describe('a send read back for diff', () => {
  it('names added, removed and changed rows (by column) against the last send of a file name, and FILE against FILE', async (t) => {
    const dir = tempDir(t);
    const ledger = new Ledger(dir);
    await send(ledger, batchText('D'));
    // The first row dropped, the others in reverse order.
    const now = readBatch(batchText('D', (rows) => rows.slice(1).reverse()));
    const found = await diffAgainstLedger(ledger, now, { last: 'x.rpcsv' });
    assert.ok(found.ok, !found.ok ? found.message : '');
    const d = found.diff;
    assert.deepEqual(
      d.removed.map((r) => r['client-orderid']),
      ['D-0001'],
      'the first row was dropped',
    );
    assert.deepEqual([d.added.length, d.changed.length, d.unchanged], [0, 0, 3]);
    const changed = readBatch(batchText('D', edited));
    const c = await diffAgainstLedger(ledger, changed, { serial: 's-1' });
    assert.ok(c.ok);
    assert.deepEqual(c.diff.changed, [{ 'client-orderid': 'D-0001', line: 2, columns: ['order_desc'] }]);
    assert.deepEqual(DiffIndex.of(readBatch(batchText('D'))).diff(readBatch(batchText('D', extended))).added, [
      { 'client-orderid': 'NEW-1', line: 7 },
    ]);
    assert.equal((await diffAgainstLedger(ledger, now, { last: 'other.rpcsv' })).ok, false);
  });
});
