import { describe, it, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRecurringPayments, prepareSubmission } from '../../src/core/gateway';
import { startLocalGateway, MAX_ADVANCE_DAYS, RUNNING_FILE, type LocalGateway } from '../../src/local-gateway';
import { advanceMessage, parseDays, paymentsText } from '../../src/extension/environments/clockText';
import { saidText } from '../../src/core/output';
import { findRunningGateway } from '../../src/local-gateway/finding';

// "PayGate: Advance Local Gateway Clock…": the words it uses, and how the editor finds and drives a
// `paygate gateway` that already runs (npm start's), against a real local gateway on loopback.

const ROOT = path.join(__dirname, '..', '..');
const charge = (status: 'approved' | 'declined') => ({
  transactionId: '1',
  'recurring-payment-id': '1',
  'client-orderid': 'A',
  index: 1,
  date: '01.01.2027',
  amount: '1.000',
  currency: 'EUR',
  status,
});

describe('advance clock: the words', () => {
  it('accepts whole days from 1 to the gateway maximum, and says why otherwise', () => {
    assert.deepEqual(parseDays(' 35 '), { ok: true, days: 35 });
    assert.deepEqual(parseDays(String(MAX_ADVANCE_DAYS)), { ok: true, days: MAX_ADVANCE_DAYS });
    for (const bad of ['', '0', '-1', '1.5', '35 days', 'x', String(MAX_ADVANCE_DAYS + 1), '1e3']) {
      const r = parseDays(bad);
      assert.equal(r.ok, false, bad);
      if (!r.ok) assert.match(r.message, new RegExp(`1 to ${MAX_ADVANCE_DAYS}`));
    }
  });

  it('counts the charges by outcome, with singulars, and names stopped payments', () => {
    const charges = [...Array(6).fill(charge('approved')), charge('declined')];
    assert.equal(
      saidText(advanceMessage(35, { today: '26.02.2027', charges, stopped: [] })),
      'Advanced 35 days to 26.02.2027: 7 charges (6 approved, 1 declined)',
    );
    assert.equal(
      saidText(advanceMessage(1, { today: '02.01.2027', charges: [charge('declined')], stopped: ['9'] })),
      'Advanced 1 day to 02.01.2027: 1 charge (0 approved, 1 declined); 1 payment stopped',
    );
    assert.equal(
      saidText(advanceMessage(2, { today: '03.01.2027', charges: [], stopped: ['1', '2'] })),
      'Advanced 2 days to 03.01.2027: no charges; 2 payments stopped',
    );
  });
});

describe('advance clock: a paygate gateway found on the state directory', () => {
  let scratch: string;
  let stateDir: string;
  let gw: LocalGateway;
  /** The gateway's own gateway.json (its lock); a test may change what it says and puts it back. */
  let lockText = '';
  const rewriteLock = (patch: Record<string, unknown>) => {
    const file = path.join(stateDir, RUNNING_FILE);
    fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(lockText) as object), ...patch }), { mode: 0o600 });
  };

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-clock-'));
    stateDir = path.join(scratch, 'state');
    gw = await startLocalGateway({ stateDir, port: 0, initialDate: { year: 2027, month: 1, day: 1 } });
    const created = await createRecurringPayments({
      environment: gw.environment,
      payload: prepareSubmission(fs.readFileSync(path.join(ROOT, 'examples', 'valid.rpcsv'), 'utf8')).payload,
      credentials: { signatureMethod: 'RSA-SHA256', consumerKey: gw.merchant.consumerKey, privateKeyPem: gw.merchant.rsaPrivateKeyPem },
    });
    assert.equal(created.outcome, 'accepted');
    lockText = fs.readFileSync(path.join(stateDir, RUNNING_FILE), 'utf8');
  });

  after(async () => {
    fs.writeFileSync(path.join(stateDir, RUNNING_FILE), lockText, { mode: 0o600 });
    await gw?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('finds nothing without a running-gateway file', async () => {
    const r = await findRunningGateway(path.join(scratch, 'elsewhere'));
    assert.equal(r.handle, undefined);
    assert.match(r.reason, /no paygate gateway is running/);
  });

  it('ignores a file left by a process that has gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    rewriteLock({ pid: gone });
    assert.equal((await findRunningGateway(stateDir)).handle, undefined);
  });

  it('never reaches for an address that is not loopback', async () => {
    rewriteLock({ baseUrl: 'http://192.0.2.1:9/paygate', reportBaseUrl: 'http://192.0.2.1:9/reports', origin: 'http://192.0.2.1:9' });
    const r = await findRunningGateway(stateDir);
    assert.equal(r.handle, undefined);
    assert.match(r.reason, /not a loopback address/);
  });

  it('uses a live one: its addresses and merchant, its clock and payments through the admin endpoints', async () => {
    rewriteLock({});
    const { handle } = await findRunningGateway(stateDir);
    assert.ok(handle);
    assert.equal(handle.environment.baseUrl, gw.baseUrl);
    assert.equal(handle.environment.reportBaseUrl, gw.reportBaseUrl);
    assert.equal(handle.environment.endpointId, gw.merchant.endpointId);
    assert.equal(handle.merchant.rsaPrivateKeyPem, gw.merchant.rsaPrivateKeyPem);
    assert.equal(handle.alive(), true);

    const summary = await handle.advanceDays(35);
    assert.equal(summary.from, '01.01.2027');
    assert.equal(summary.today, '05.02.2027');
    assert.ok(summary.charges.length > 0, 'the example batch charges within 35 days');
    assert.equal(gw.today().day, 5, 'the gateway process itself moved');
    const payments = await handle.payments();
    assert.deepEqual(payments, gw.payments());

    const text = paymentsText(summary.today, payments);
    assert.match(text, /simulated date 05\.02\.2027/);
    for (const p of payments) assert.ok(text.includes(`Payment ${p['recurring-payment-id']}`));
    assert.equal(
      (text.match(/^ {2}\d+ /gm) ?? []).length,
      payments.reduce((n, p) => n + p.charges.length, 0),
      'one line per charge',
    );
    for (const card of ['4111111111111111', '5555555555554444']) assert.ok(!text.includes(card));
    await assert.rejects(handle.advanceDays(0), /400/);
  });
});
