import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { environmentTargetUrl, prepareSubmission, type Environment } from '../../src/core/gateway';
import { guardedSend, Ledger, type GuardedSendResult, type Target } from '../../src/core/ledger';
import { lint } from '../../src/core/rules/lint';
import { ledgerDiagnostics } from '../../src/core/ledgerLint/ledgerChecks';
import { createRecurringPaymentsUrl } from '../../src/core/gateway/environments';
import { newSubmission, sendThrough } from '../fixtures/ledger/entry';

// The identity of a target (issue 37, item 5), at the ledger: two environments whose base URL and endpoint
// id are the same (as URLs read: scheme and host in any case, the default port written or not, a trailing
// slash or not) are one target for both guards and for lint's already-sent; another host or endpoint id
// is another. A ledger directory reached through a symlink is the same ledger: a send of the same content
// on its way in this process refuses a second at once, before its questions.

const root = path.join(__dirname, '..', '..');
const HEADER = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8').split('\r\n')[0];
const CARDS = ['6011000990139424', '4111111111111111', '5555555555554444'];

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-ledger-target-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function batchOf(ids: readonly string[], amount = '10.00'): string {
  return (
    [HEADER, ...ids.map((id, i) => `${id};DST;x;;;;;;;;;;;;;;;${amount};;;;EUR;P;${CARDS[i % CARDS.length]};05;2030;;;`)].join('\r\n') +
    '\r\n'
  );
}

const environment = (name: string, baseUrl: string, endpointId = '1001'): Environment => ({
  name,
  baseUrl,
  reportBaseUrl: baseUrl,
  endpointId,
  consumerKey: 'merchant',
  production: true,
});

/** The same gateway and endpoint, written another way under another name, and two other targets. */
const PROD = environment('prod', 'https://gw.example.com/paygate');
const SAME = [
  environment('prod-eu', 'HTTPS://GW.Example.COM:443/paygate/'),
  environment('prod-copy', 'https://gw.example.com:443/paygate//'),
];
const OTHER = [
  environment('other-host', 'https://gw2.example.com/paygate'),
  environment('other-endpoint', 'https://gw.example.com/paygate', '1002'),
];

function send(ledger: Ledger, text: string, env: Environment): Promise<GuardedSendResult<string>> {
  return sendThrough(ledger, text, {
    environment: env.name,
    production: true,
    endpointId: env.endpointId,
    endpoint: createRecurringPaymentsUrl(env),
  });
}

/** The target lint reads for an environment (the CLI's activeTarget and the editor's give the same). */
const targetOf = (env: Environment): Target => ({ environment: env.name, endpointId: env.endpointId, url: environmentTargetUrl(env)! });

describe('the identity of a target', () => {
  it('two environments with the same base URL and endpoint id are one target: the file, its rows and lint', async (t) => {
    const ledger = new Ledger(tempDir(t));
    const ids = ['T-1', 'T-2', 'T-3'];
    assert.equal((await send(ledger, batchOf(ids), PROD)).status, 'sent');
    for (const env of SAME) {
      assert.equal((await send(ledger, batchOf(ids), env)).status, 'duplicate', `${env.name}: the unchanged file`);
      const edited = await send(ledger, batchOf(ids, '11.00'), env);
      assert.equal(edited.status, 'already-sent', `${env.name}: an edited file`);
      assert.deepEqual(edited.status === 'already-sent' && edited.rows.map((r) => r.orderId), ids);
      const found = await ledgerDiagnostics(ledger, lint(batchOf(ids, '11.00')).batch, { target: targetOf(env) });
      assert.deepEqual(
        found.diagnostics.filter((d) => d.code === 'already-sent').map((d) => d.range.start.line),
        [1, 2, 3],
        `${env.name}: lint`,
      );
    }
    for (const env of OTHER) {
      const found = await ledgerDiagnostics(ledger, lint(batchOf(ids)).batch, { target: targetOf(env) });
      assert.equal(found.diagnostics.filter((d) => d.code === 'already-sent').length, 0, `${env.name}: lint`);
      assert.equal((await send(ledger, batchOf(ids), env)).status, 'sent', `${env.name}: another target`);
    }
  });

  it('a ledger directory reached through a symlink is the same ledger: a send on its way refuses the same content at once', async (t) => {
    const dir = tempDir(t);
    fs.mkdirSync(path.join(dir, 'ledger'));
    fs.symlinkSync(path.join(dir, 'ledger'), path.join(dir, 'link'));
    const text = batchOf(['L-1', 'L-2']);
    const prepared = prepareSubmission(text);
    let release!: (yes: boolean) => void;
    let asked!: () => void;
    const askedFirst = new Promise<void>((r) => (asked = r));
    const entry = newSubmission({ contentHash: prepared.contentHash, rowCount: prepared.rowCount });
    const common = { entry, batch: prepared.lint.batch, send: async () => 'sent', completion: () => ({ outcome: 'accepted' as const }) };
    // The first waits at its production confirmation (a question on screen), nothing recorded yet.
    const first = guardedSend({
      ...common,
      ledger: new Ledger(path.join(dir, 'ledger')),
      confirmSend: () => {
        asked();
        return new Promise<boolean>((r) => (release = r));
      },
    });
    await askedFirst;
    let secondAsked = false;
    const second = await guardedSend({
      ...common,
      ledger: new Ledger(path.join(dir, 'link')),
      confirmSend: async () => (secondAsked = true),
    });
    release(true);
    assert.equal(second.status, 'in-flight', 'the same ledger, the same content, on its way');
    assert.equal(secondAsked, false, 'refused before any question');
    assert.equal((await first).status, 'sent');
  });
});
