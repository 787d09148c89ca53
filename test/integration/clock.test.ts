import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import type { AdvanceClockResult } from '../../src/extension/environments/advanceClock';
import type { LocalGatewayInfo } from '../../src/extension/environments/localGateway';
import type { SubmitResult } from '../../src/extension/submit/submit';
import { TEST_TIMEOUT_MS } from './wait';

// PayGate: Advance Local Gateway Clock…, on the local gateway the editor starts and on a `paygate gateway`
// found running on the CLI's state directory ($PAYGATE_STATE_DIR, a scratch folder in these runs: the
// editor's too), the way npm start shares one gateway between the terminal and the editor.

const EXTENSION_ID = 'paygate.paygate-toolkit';
// eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
let root: string;
const fixture = (name: string) => vscode.Uri.file(path.join(root, 'test', 'fixtures', 'gateway-ext', name));

function advanced(r: AdvanceClockResult | undefined): Extract<AdvanceClockResult, { status: 'advanced' }> {
  assert.equal(r?.status, 'advanced', JSON.stringify(r));
  return r as Extract<AdvanceClockResult, { status: 'advanced' }>;
}

describe('advance local gateway clock', function () {
  this.timeout(TEST_TIMEOUT_MS);

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    root = ext.extensionPath;
    await run('paygate.selectEnvironment', 'local');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('refuses days outside 1 to 3660 without touching the clock', async () => {
    for (const days of [0, 3661, 1.5]) {
      const r = await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days, show: false });
      assert.equal(r?.status, 'refused', `${days}: ${JSON.stringify(r)}`);
    }
  });

  it('charges the schedules of a submitted batch and lists the payments in a read-only document', async () => {
    const sent = await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true, sendAgain: true });
    assert.equal(sent?.status === 'sent' && sent.outcome, 'accepted', JSON.stringify(sent));
    const ids = sent.status === 'sent' ? sent.record.recurringPaymentIds : [];
    const r = advanced(await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days: 35, show: false, openPayments: true }));
    assert.ok(r.charges > 0, r.message);
    assert.equal(r.approved + r.declined, r.charges);
    assert.match(r.message, new RegExp(`^Advanced 35 days to ${r.today.replace(/\./g, '\\.')}: ${r.charges} charges? \\(`));
    for (const id of ids) assert.ok(r.paymentsText?.includes(`Payment ${id} `), `payment ${id} is listed`);
    const shown = vscode.window.visibleTextEditors.find(
      (e) => e.document.uri.scheme === 'paygate-gateway' && e.document.uri.path.includes('Local gateway payments'),
    );
    assert.ok(shown, 'the payments document is open');
    assert.equal(shown.document.getText(), r.paymentsText);
  });

  describe('with a paygate gateway running on the CLI state directory', () => {
    let external: LocalGateway;
    let stateDir: string;

    before(async () => {
      const dir = process.env.PAYGATE_STATE_DIR;
      assert.ok(dir, 'PAYGATE_STATE_DIR is set by the runner to a scratch folder');
      stateDir = dir;
      // The editor's own gateway holds the same directory: stopped first, so another can take it.
      await run('paygate.stopLocalGateway');
      // As `paygate gateway` does: the gateway announces itself in its state directory's gateway.json (its
      // lock); this extension host stands in for that process.
      external = await startLocalGateway({ stateDir, port: 0, runBy: 'paygate gateway' });
    });

    after(async () => {
      await run('paygate.stopLocalGateway');
      await external?.close();
    });

    it('is the one `local` uses, and the clock that moves', async () => {
      const info = await run<LocalGatewayInfo>('paygate.startLocalGateway');
      assert.equal(info?.baseUrl, external.baseUrl);
      assert.equal(info.externalPid, process.pid);
      const before = external.today();
      const r = advanced(await run<AdvanceClockResult>('paygate.advanceLocalGatewayClock', { days: 3, show: false }));
      assert.notDeepEqual(external.today(), before, "the external gateway's own clock moved");
      assert.equal(r.from.split('.').reverse().join('-') < r.today.split('.').reverse().join('-'), true);
    });

    it('a submission to local lands in it', async () => {
      const count = external.payments().length;
      const sent = await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true, sendAgain: true });
      assert.equal(sent?.status === 'sent' && sent.outcome, 'accepted', JSON.stringify(sent));
      assert.ok(external.payments().length > count);
    });

    it('Stop Local Gateway lets it go without stopping it', async () => {
      assert.equal(await run<boolean>('paygate.stopLocalGateway'), false);
      const again = await run<LocalGatewayInfo>('paygate.startLocalGateway');
      assert.equal(again?.baseUrl, external.baseUrl, 'still running, found again');
    });
  });
});
