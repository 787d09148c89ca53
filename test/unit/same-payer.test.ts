import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { Ledger, type Completion, type GuardedSendResult } from '../../src/core/ledger';
import { GUARD_DIR } from '../../src/core/ledger/ledgerIndex';
import { INDEX_VERSION, Manifest, MANIFEST, type ManifestHead } from '../../src/core/ledger/indexManifest';
import { Codes } from '../../src/core/rules/codes';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { sendThrough } from '../fixtures/ledger/entry';
import { saidText } from '../../src/core/output';

// same-payer (issue 37, item 3): the card and schedule of a row sent to the same target under another
// client-orderid, found from the ledger's sent row records (the index is a cache of them), the same by lint
// (ledgerDiagnostics: `paygate lint` and the language server) and by submit's guard. To the gateway `-RENEW`
// appended, lower case, a look-alike letter and a compatibility form NFC leaves alone are other ids: the
// already-sent guard lets them through, and each failed to be flagged or refused before this rule.

const root = path.join(__dirname, '..', '..');
const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
const TARGET = { environment: 'local', endpointId: '1001' };
const ROWS = 4;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-same-payer-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The example's rows (the same four cards and schedules) with every client-orderid made by `id`. */
function batchText(id: (n: string) => string): string {
  return valid.replace(/[A-Z]{3}-2027-(\d{4})/g, (_, n: string) => id(n));
}
const original = (n: string) => `SP-2027-${n}`;

interface SendOptions {
  target?: typeof TARGET;
  allowSamePayer?: boolean;
  confirm?: (rows: number) => boolean;
  completion?: Completion;
}

function send(ledger: Ledger, text: string, o: SendOptions = {}): Promise<GuardedSendResult<string>> {
  return sendThrough(
    ledger,
    text,
    { file: '/data/january.rpcsv', ...(o.target ?? TARGET) },
    {
      ...(o.allowSamePayer ? { allowSamePayer: true } : {}),
      ...(o.confirm ? { confirmSamePayer: async (rows) => o.confirm!(rows.length) } : {}),
      completion: () => o.completion ?? { outcome: 'accepted', serialNumbers: ['S-77'] },
    },
    'renewals.rpcsv',
  );
}

/** Lint's face: the same-payer and already-sent problems of a text. */
async function lintFindings(ledger: Ledger, text: string, target = TARGET) {
  const found = await ledgerDiagnostics(ledger, prepareSubmission(text).lint.batch, { target });
  return {
    samePayer: found.diagnostics.filter((d) => d.code === Codes.samePayer),
    alreadySent: found.diagnostics.filter((d) => d.code === Codes.alreadySent),
  };
}

/** Ids the gateway reads as other ids than the original's (orderId.ts keeps each as it is). */
const OTHER_IDS: Record<string, (n: string) => string> = {
  '-RENEW appended': (n) => `SP-2027-${n}-RENEW`,
  'lower case': (n) => `sp-2027-${n}`,
  'a look-alike letter (Cyrillic Р for P)': (n) => `S\u0420-2027-${n}`,
  // NFC leaves compatibility forms alone (NFKC would fold them): a full-width S is another id.
  'a compatibility form NFC keeps (full-width S)': (n) => `\uFF33P-2027-${n}`,
};

describe('same-payer: the same card and schedule under another id', () => {
  for (const [what, id] of Object.entries(OTHER_IDS)) {
    it(`${what}: lint flags every row naming the earlier id, when and which submission; submit refuses, then sends on purpose`, async (t) => {
      const dir = tempDir(t);
      assert.equal((await send(new Ledger(dir), batchText(original))).status, 'sent');
      const text = batchText(id);

      const lint = await lintFindings(new Ledger(dir), text);
      assert.equal(lint.alreadySent.length, 0, 'another id to the gateway: not already-sent');
      assert.equal(lint.samePayer.length, ROWS);
      const first = lint.samePayer[0];
      assert.equal(first.severity, 'warning');
      assert.equal(first.columnName, 'client-orderid');
      assert.equal(first.range.start.line, 1, 'on the first row');
      assert.equal(first.range.start.character, 0, "on the row's client-orderid cell");
      assert.match(saidText(first.message), /under client-orderid "SP-2027-0001"/);
      assert.match(saidText(first.message), new RegExp(`on ${new Date().toISOString().slice(0, 10)} \\d\\d:\\d\\d UTC`));
      assert.match(saidText(first.message), /submission of "january\.rpcsv", serial-number S-77, accepted/);

      const refused = await send(new Ledger(dir), text);
      assert.ok(refused.status === 'same-payer', `refused as same-payer, got ${refused.status}`);
      assert.deepEqual(
        refused.rows.map((r) => [r.ref.line, r.earlierOrderId]),
        lint.samePayer.map((d, i) => [d.range.start.line + 1, `SP-2027-000${i + 1}`]),
        'submit names the rows lint flags, with the same earlier ids',
      );
      assert.equal((await send(new Ledger(dir), text, { confirm: () => false })).status, 'same-payer', 'a no sends nothing');
      assert.equal((await send(new Ledger(dir), text, { allowSamePayer: true })).status, 'sent');
    });
  }

  it('the same id (NFD of an NFC id, a trailing space) is already-sent alone, never also same-payer', async (t) => {
    const dir = tempDir(t);
    const nfc = (n: string) => `CAFÉ-${n}`;
    assert.equal((await send(new Ledger(dir), batchText(nfc))).status, 'sent');
    for (const variant of [(n: string) => nfc(n).normalize('NFD'), (n: string) => `${nfc(n)} `]) {
      const lint = await lintFindings(new Ledger(dir), batchText(variant));
      assert.equal(lint.alreadySent.length, ROWS);
      assert.equal(lint.samePayer.length, 0);
      assert.equal((await send(new Ledger(dir), batchText(variant))).status, 'already-sent');
    }
    // An edited file with the same ids (one description changed): already-sent too, no same-payer.
    const edited = batchText(nfc).replace('Gym membership, monthly', 'Gym membership (monthly)');
    assert.deepEqual(
      Object.values(await lintFindings(new Ledger(dir), edited)).map((l) => l.length),
      [0, ROWS],
    );
  });

  it('another card or schedule, another target, or an earlier send that created nothing: not the same payer', async (t) => {
    const dir = tempDir(t);
    assert.equal((await send(new Ledger(dir), batchText(original))).status, 'sent');
    const renew = (n: string) => `SP-2027-${n}-RENEW`;
    // Every row's schedule changed (the currency), then one card number changed: nothing found for them.
    const otherSchedule = batchText(renew).replaceAll(';EUR;', ';USD;');
    assert.equal((await lintFindings(new Ledger(dir), otherSchedule)).samePayer.length, 0);
    const otherCard = batchText(renew).replace('4111111111111111', '4012888888881881');
    assert.equal((await lintFindings(new Ledger(dir), otherCard)).samePayer.length, ROWS - 1);
    const sandbox = { environment: 'sandbox', endpointId: '1001' };
    assert.equal((await lintFindings(new Ledger(dir), batchText(renew), sandbox)).samePayer.length, 0);
    assert.equal((await send(new Ledger(dir), batchText(renew), { target: sandbox })).status, 'sent');

    const declined = tempDir(t);
    const completion: Completion = { outcome: 'declined', message: 'no' };
    assert.equal((await send(new Ledger(declined), batchText(original), { completion })).status, 'sent');
    assert.equal((await lintFindings(new Ledger(declined), batchText(renew))).samePayer.length, 0);
    assert.equal((await send(new Ledger(declined), batchText(renew))).status, 'sent');
  });

  it("found from the sent rows whatever became of the index: removed, or an older version's (no payer entries) rebuilt", async (t) => {
    const dir = tempDir(t);
    // Enough sends that the row entries were spread into shards and sealed.
    for (let i = 0; i < 5; i++) {
      const other = batchText((n) => `H${i}-${n}`).replaceAll(';EUR;', `;${['USD', 'GBP', 'CHF', 'SEK', 'NOK'][i]};`);
      assert.equal((await send(new Ledger(dir), other)).status, 'sent');
    }
    assert.equal((await send(new Ledger(dir), batchText(original))).status, 'sent');
    const renew = batchText((n) => `SP-2027-${n}-RENEW`);
    fs.rmSync(path.join(dir, GUARD_DIR), { recursive: true });
    assert.equal((await lintFindings(new Ledger(dir), renew)).samePayer.length, ROWS, 'lint, index removed');
    // A manifest of version 2 (the index before payer entries) is not trusted: rebuilt with them.
    const file = path.join(dir, GUARD_DIR, MANIFEST);
    const m = Manifest.parse(fs.readFileSync(file))!;
    fs.writeFileSync(file, m.with({ ...m.head, v: 2 } as unknown as ManifestHead, new Map()).bytes());
    assert.equal((await send(new Ledger(dir), renew)).status, 'same-payer', 'submit, an index of version 2');
    const rebuilt = Manifest.parse(fs.readFileSync(file))!;
    assert.ok(rebuilt.head.v === INDEX_VERSION && rebuilt.head.gen !== m.head.gen, 'the index of version 2 was rebuilt, not read');
    assert.equal((await lintFindings(new Ledger(dir), renew)).samePayer.length, ROWS, 'lint after the rebuild');
  });

  it('the earlier id is masked as the ledger keeps it: a card number in an id never shows', async (t) => {
    const dir = tempDir(t);
    assert.equal(
      (
        await send(
          new Ledger(dir),
          batchText((n) => `4111111111111111-${n}`),
        )
      ).status,
      'sent',
    );
    const lint = await lintFindings(
      new Ledger(dir),
      batchText((n) => `RENEW-${n}`),
    );
    assert.equal(lint.samePayer.length, ROWS);
    for (const d of lint.samePayer) {
      assert.doesNotMatch(saidText(d.message), /4111111111111111/);
      assert.match(saidText(d.message), /under client-orderid "411111\*+1111-000\d"/);
    }
  });
});
