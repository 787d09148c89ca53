// The local gateway's parts on their own: money arithmetic, report CSV quoting, the demo merchant's
// files, the running-gateway file, and the `paygate gateway` command.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGateway } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { chargedAmount } from '../../src/local-gateway/amounts';
import { formatThousandths, thousandthsOf } from '../../src/core/amounts';
import { reportCsv } from '../../src/local-gateway/report';
import { renderPdf, ROWS_PER_PAGE } from '../../src/local-gateway/pdf';
import { sign, verify } from 'node:crypto';
import { defaultStateDir, loadOrCreateDemoMerchant } from '../../src/local-gateway';
import { readRunningGateway } from '../../src/local-gateway/running';
import { tempStateDir } from '../fixtures/local-gateway/helpers';
import { paygateArgs } from '../fixtures/cli/bin';

test('amounts are exact thousandths, written with three decimals', () => {
  assert.equal(thousandthsOf('10'), 10000);
  assert.equal(thousandthsOf('0.1'), 100);
  assert.equal(thousandthsOf('12.345'), 12345);
  assert.equal(thousandthsOf('1.2345'), undefined);
  assert.equal(thousandthsOf('-1'), undefined);
  assert.equal(formatThousandths(thousandthsOf('0.1')! + thousandthsOf('0.2')!), '0.300');
  assert.equal(formatThousandths(5), '0.005');
  // A range is deterministic per seed and inside its bounds.
  const a = chargedAmount({ kind: 'range', from: '1.005', to: '1.009' }, 'x:1');
  assert.ok(a >= 1005 && a <= 1009);
  assert.equal(chargedAmount({ kind: 'range', from: '1', to: '50' }, 'p:3'), chargedAmount({ kind: 'range', from: '1', to: '50' }, 'p:3'));
});

test('report CSV quotes every value and doubles quotes; delimiters and line breaks inside stay in one field', () => {
  const text = reportCsv([['a', 'b"c', 'd;e', 'f\r\ng', '', '', '', '', '']], ';');
  const lines = text.split('\r\n');
  assert.equal(lines[1], '"a";"b""c";"d;e";"f');
  assert.equal(lines[2], 'g";"";"";"";"";""');
});

test('a PDF longer than one page lists every row once, across pages', () => {
  const rows = Array.from({ length: ROWS_PER_PAGE * 2 + 1 }, (_, i) => [`row-${i}`, '(paren)', 'back\\slash', 'Ünïcode €']);
  const pdf = renderPdf({ title: 'T', subtitle: 'S', columns: ['a', 'b', 'c', 'd'], widths: [1, 1, 1, 1], rows }).toString('latin1');
  assert.match(pdf, /\/Count 3 /);
  for (let i = 0; i < rows.length; i++) assert.equal(pdf.split(`(row-${i})`).length, 2, `row-${i} once`);
  assert.ok(pdf.includes('(\\(paren\\))') && pdf.includes('(back\\\\slash)'), 'PDF string escapes');
  assert.ok(pdf.includes('\u00dcn\u00efcode ?'), 'Latin-1 kept, the euro sign outside WinAnsi as text becomes ?');
});

test('the demo merchant is made once, private files 0600, and read back unchanged', () => {
  const dir = path.join(tempStateDir(), 'nested', 'state');
  const m = loadOrCreateDemoMerchant(dir);
  assert.equal(m.consumerKey, 'demo-merchant');
  assert.equal(m.endpointId, '1001');
  assert.ok(m.consumerSecret.length >= 24);
  assert.match(m.rsaPrivateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  for (const f of fs.readdirSync(dir)) assert.equal(fs.statSync(path.join(dir, f)).mode & 0o777, 0o600, f);
  assert.deepEqual(loadOrCreateDemoMerchant(dir), m);
  const other = loadOrCreateDemoMerchant(tempStateDir());
  assert.notEqual(other.consumerSecret, m.consumerSecret, 'every installation gets its own secret');
  const signature = sign('sha256', Buffer.from('base string'), m.rsaPrivateKeyPem);
  assert.ok(verify('sha256', Buffer.from('base string'), m.rsaPublicKeyPem, signature), 'the key pair belongs together');
});

test('defaultStateDir: PAYGATE_STATE_DIR, else XDG_STATE_HOME, else ~/.local/state', () => {
  const saved = { a: process.env.PAYGATE_STATE_DIR, b: process.env.XDG_STATE_HOME };
  try {
    process.env.PAYGATE_STATE_DIR = '/x/state';
    assert.equal(defaultStateDir(), '/x/state');
    delete process.env.PAYGATE_STATE_DIR;
    process.env.XDG_STATE_HOME = '/xdg';
    assert.equal(defaultStateDir(), path.join('/xdg', 'paygate', 'gateway'));
    delete process.env.XDG_STATE_HOME;
    assert.match(defaultStateDir(), /\.local[\\/]state[\\/]paygate[\\/]gateway$/);
  } finally {
    for (const [k, v] of [
      ['PAYGATE_STATE_DIR', saved.a],
      ['XDG_STATE_HOME', saved.b],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('paygate gateway prints its base URLs, writes gateway.json while running and removes it on stop', async () => {
  const stateDir = tempStateDir();
  let out = '';
  let stop!: (signal: string) => void;
  let printed!: () => void;
  const ready = new Promise<void>((r) => (printed = r));
  const io = {
    stdout: (t: string) => {
      out += t;
      if (out.includes('Press Ctrl+C')) printed();
    },
    stderr: () => undefined,
    stopped: () => new Promise<string>((r) => (stop = r)),
  };
  const running = runGateway(['--port', '0', '--state', stateDir], testContext(io));
  await ready;
  const baseUrl = /base URL:\s+(\S+)/.exec(out)![1];
  const reportBaseUrl = /report base URL:\s+(\S+)/.exec(out)![1];
  assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/paygate$/);
  assert.match(reportBaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/reports$/);
  const info = readRunningGateway(stateDir)!;
  assert.deepEqual([info.pid, info.baseUrl, info.reportBaseUrl, info.kind], [process.pid, baseUrl, reportBaseUrl, 'server']);
  assert.equal(fs.statSync(path.join(stateDir, 'gateway.json')).mode & 0o777, 0o600, 'the admin token is readable by the user alone');
  const token = /admin token:\s+(\S+)/.exec(out)![1];
  assert.equal(token, info.adminToken);
  assert.equal((await fetch(`${new URL(baseUrl).origin}/_local/state`)).status, 401, 'no token, no admin');
  const state = await (await fetch(`${new URL(baseUrl).origin}/_local/state`, { headers: { authorization: `Bearer ${token}` } })).json();
  assert.equal(state.endpointId, '1001');
  assert.ok(!out.includes(loadOrCreateDemoMerchant(stateDir).consumerSecret), 'the secret is never printed');
  stop('SIGTERM');
  assert.equal(await running, 0);
  assert.equal(fs.existsSync(path.join(stateDir, 'gateway.json')), false);
});

test('paygate gateway rejects a bad port as a usage error', async () => {
  let err = '';
  const io = { stdout: () => undefined, stderr: (t: string) => (err += t), stopped: () => new Promise<string>(() => undefined) };
  assert.equal(await runGateway(['--port', 'abc'], testContext(io)), 2);
  assert.equal(await runGateway(['--port', '70000'], testContext(io)), 2);
  assert.equal(await runGateway(['--nope'], testContext(io)), 2);
  assert.match(err, /--port/);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`a real paygate gateway process stops cleanly on ${signal}`, async () => {
    const stateDir = tempStateDir();
    const child = spawn(process.execPath, [...paygateArgs(), 'gateway', '--state', stateDir, '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: path.join(__dirname, '..', '..'),
    });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: string) => {
          out += d;
          if (out.includes('Press Ctrl+C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      const info = readRunningGateway(stateDir);
      assert.equal(info?.pid, child.pid);
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      assert.equal(code, 0);
      assert.equal(fs.existsSync(path.join(stateDir, 'gateway.json')), false);
      await assert.rejects(fetch(`${info!.baseUrl}/api/v4/create-recurring-payments/1001/`, { method: 'POST' }), 'the port is closed');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
}
