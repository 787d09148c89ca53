import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { runDemo } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { maskFields, maskText } from '../../src/core/output';
import { paygateArgs } from '../fixtures/cli/bin';

// The real `paygate` process: exit codes across the process boundary, and how `--env local` finds its
// gateway (a running one via {stateDir}/gateway.json, else one started for the command's duration).

const root = join(__dirname, '..', '..');
let dir: string;

function paygate(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      { cwd: dir, env: { ...process.env, PAYGATE_DATA_DIR: join(dir, 'data'), ...env } },
      (err, stdout, stderr) => {
        let code = 0;
        if (err) code = typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-proc-'));
  writeFileSync(join(dir, 'batch.rpcsv'), readFileSync(join(root, 'examples', 'valid.rpcsv')));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('without any configuration, submit starts a local gateway for its own duration (exit 0)', async () => {
  const stateDir = join(dir, 'fresh-state');
  const r = await paygate(['submit', 'batch.rpcsv', '--format', 'json'], { PAYGATE_STATE_DIR: stateDir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).outcome, 'accepted');
  // The payments were kept in that state directory: a gateway started on it now knows them.
  const gw = await startLocalGateway({ stateDir, port: 0 });
  try {
    assert.ok(gw.payments().length > 0);
  } finally {
    await gw.close();
  }
});

test('a running gateway announced in gateway.json is used; report auth failure exits 3', async (t) => {
  const stateDir = join(dir, 'running-state');
  const gw: LocalGateway = await startLocalGateway({ stateDir, port: 0 });
  t.after(() => gw.close());
  // The gateway announces itself in gateway.json (its lock); the CLI process finds it there. Its own ledger:
  // the first test sent the same batch to the same local endpoint id, which the guard refuses.
  const submitted = await paygate(['submit', 'batch.rpcsv'], { PAYGATE_STATE_DIR: stateDir, PAYGATE_DATA_DIR: join(dir, 'data-running') });
  assert.equal(submitted.code, 0, submitted.stderr);
  assert.match(submitted.stdout, /^Accepted \(HTTP 200\): batch\.rpcsv \(\d+ rows\) to local, endpoint /);
  assert.ok(gw.payments().length > 0, 'the announced gateway received the batch');
  const template = join(root, 'examples', 'transactions.report.json');
  const denied = await paygate(['report', template, '--format', 'json'], { PAYGATE_STATE_DIR: stateDir, PAYGATE_CONSUMER_SECRET: 'wrong' });
  assert.equal(denied.code, 3);
  assert.equal(JSON.parse(denied.stdout).outcome, 'auth-failed');
  const usage = await paygate(['report'], { PAYGATE_STATE_DIR: stateDir });
  assert.equal(usage.code, 2);
});

test('demo: every step succeeds and the report table lists the example orders', async () => {
  const out: string[] = [];
  // --port: the tour's gateway listens where it is told (a port that was free a moment ago).
  const probe = http.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const code = await runDemo(
    ['--days', '35', '--port', String(port)],
    testContext({
      stdout: (s) => void out.push(s),
      stderr: (s) => void out.push(s),
      env: {},
      cwd: root,
      interactive: false,
      confirm: async () => false,
    }),
  );
  const text = out.join('');
  assert.equal(code, 0, text);
  assert.match(text, /examples\/mistakes\.rpcsv: \d+ row\(s\), [1-9]\d* error/);
  assert.match(text, /Accepted \(HTTP 200\): /);
  assert.match(text, /Merchant_Name\s+Transaction_id\s+Merchant_OID/);
  assert.match(text, /GYM-2027-0001/);
  assert.match(text, new RegExp(`Listening on http://127\\.0\\.0\\.1:${port} `));
  assert.match(text, /\b\d+\.\d{2}\s+EUR\b/, 'report amounts in EUR minor units');
  assert.doesNotMatch(text, /\b\d+\.\d{3}\s+EUR\b/);
  // The tour ends with a reconciliation of the batch it sent against the report it pulled.
  assert.match(text, /Reconcile valid\.rpcsv with the report[\s\S]*Reconciliation of 4 batch row\(s\)[\s\S]*\n {2}ok {16}4\n/);
  assert.doesNotMatch(text, /4111111111111111/);
});

test('card numbers are masked in printed answers', () => {
  // Any 12–19 digit run is taken for a card number in free text, Luhn-valid or not: a mistyped card
  // number is still a customer's card. The gateway's own ids are kept exact by their field names.
  assert.equal(maskText('card 4111111111111111 declined; serial 1234567890123'), 'card 411111******1111 declined; serial 123456***0123');
  assert.equal(maskText('order 12345678901 of 11 digits'), 'order 12345678901 of 11 digits');
  assert.deepEqual(maskFields({ 'credit-card-number': '5555555555554444', 'serial-number': '42' }), {
    'credit-card-number': '555555******4444',
    'serial-number': '42',
  });
  assert.deepEqual(maskFields({ 'serial-number': '1234567890123', cvv2: '123' }), { 'serial-number': '1234567890123' });
});
