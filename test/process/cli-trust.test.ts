// CLI trust: a paygate.config.json found in the current folder is used only once trusted (path and
// SHA-256, like direnv's allow); a changed file needs trusting again; --config and the user's own
// config directory are trusted. Unit level (trust.ts, loadCliConfig) and as real processes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadCliConfig } from '../../src/cli/config';
import { checkTrust, readTrustStore, revokeTrust, TRUST_FILE, trustFile, userConfigDir } from '../../src/cli/trust';
import { contentHash } from '../../src/core/contentHash';
import { runTrust } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { PROCESS_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const root = path.join(__dirname, '..', '..');

function scratch(): { dir: string; env: Record<string, string>; done(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-trust-'));
  fs.mkdirSync(path.join(dir, 'project'));
  return {
    dir,
    env: { XDG_CONFIG_HOME: path.join(dir, 'config'), HOME: path.join(dir, 'home') },
    done: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const config = (baseUrl: string, name = 'repo') =>
  `${JSON.stringify({ environment: name, environments: [{ name, baseUrl, reportBaseUrl: baseUrl, endpointId: '1', consumerKey: 'k' }] }, null, 2)}\n`;

test('the trust store lives in $XDG_CONFIG_HOME/paygate, else ~/.config/paygate', () => {
  assert.equal(userConfigDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' }), path.join('/x/cfg', 'paygate'));
  assert.equal(userConfigDir({ HOME: '/h' }), path.join('/h', '.config', 'paygate'));
  assert.equal(
    userConfigDir({ XDG_CONFIG_HOME: 'relative', HOME: '/h' }),
    path.join('/h', '.config', 'paygate'),
    'a relative XDG path is ignored, as the spec says',
  );
});

test('trust records path and SHA-256; a change, even one byte, needs trusting again; revoke forgets', () => {
  const s = scratch();
  try {
    const file = path.join(s.dir, 'project', 'paygate.config.json');
    const text = config('http://127.0.0.1:9/x');
    fs.writeFileSync(file, text);
    const unknown = checkTrust(s.env, file, text);
    assert.equal(unknown.trusted, false);
    assert.ok(
      !unknown.trusted && unknown.reason === 'unknown' && unknown.message.includes(`paygate trust ${fs.realpathSync(file)}`),
      JSON.stringify(unknown),
    );
    const entry = trustFile(s.env, file, text);
    assert.equal(entry.sha256, contentHash(text));
    assert.equal(fs.statSync(path.join(s.env.XDG_CONFIG_HOME, 'paygate', TRUST_FILE)).mode & 0o777, 0o600);
    assert.deepEqual(checkTrust(s.env, file, text), { trusted: true });
    const changed = checkTrust(s.env, file, `${text} `);
    assert.ok(
      !changed.trusted &&
        changed.reason === 'changed' &&
        changed.message.includes(fs.realpathSync(file)) &&
        changed.message.includes('paygate trust'),
    );
    // A link to the file is the same file.
    const link = path.join(s.dir, 'link.json');
    fs.symlinkSync(file, link);
    assert.deepEqual(checkTrust(s.env, link, text), { trusted: true });
    trustFile(s.env, file, text);
    assert.equal(readTrustStore(s.env).length, 1, 'trusting again replaces the entry');
    assert.equal(revokeTrust(s.env, file), true);
    assert.equal(checkTrust(s.env, file, text).trusted, false);
    assert.equal(revokeTrust(s.env, file), false);
  } finally {
    s.done();
  }
});

test("loadCliConfig: an untrusted ./paygate.config.json is an error; --config and the user's own config are used", () => {
  const s = scratch();
  try {
    const cwd = path.join(s.dir, 'project');
    const local = path.join(cwd, 'paygate.config.json');
    fs.writeFileSync(local, config('http://127.0.0.1:9/repo'));
    const refused = loadCliConfig(cwd, undefined, s.env);
    assert.ok(!refused.ok && refused.message.includes(fs.realpathSync(local)) && refused.message.includes('paygate trust'));
    const explicit = loadCliConfig(cwd, 'paygate.config.json', s.env);
    assert.ok(explicit.ok && explicit.value.config.environment === 'repo', '--config FILE is the user choosing it');
    trustFile(s.env, local, fs.readFileSync(local));
    const trusted = loadCliConfig(cwd, undefined, s.env);
    assert.ok(trusted.ok && trusted.value.config.environment === 'repo');

    fs.rmSync(local);
    const own = path.join(userConfigDir(s.env), 'paygate.config.json');
    fs.mkdirSync(path.dirname(own), { recursive: true });
    fs.writeFileSync(own, config('http://127.0.0.1:9/own', 'mine'));
    const mine = loadCliConfig(cwd, undefined, s.env);
    assert.ok(mine.ok && mine.value.config.environment === 'mine' && mine.value.file === own);
    const inOwnDir = loadCliConfig(path.dirname(own), undefined, s.env);
    assert.ok(inOwnDir.ok && inOwnDir.value.config.environment === 'mine', 'the own config needs no trust when run from its folder');
  } finally {
    s.done();
  }
});

test('paygate trust refuses a file that is not a valid configuration, and lists what it trusted', async () => {
  const s = scratch();
  try {
    const cwd = path.join(s.dir, 'project');
    const out: string[] = [];
    const err: string[] = [];
    const ctx = testContext({ stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env: s.env, cwd });
    fs.writeFileSync(path.join(cwd, 'paygate.config.json'), '{ "environments": [ ');
    assert.equal(await runTrust([], ctx), 1);
    assert.match(err.join(''), /paygate\.config\.json:1:\d+: invalid JSON.*not trusted/);
    assert.equal(readTrustStore(s.env).length, 0);
    assert.equal(await runTrust(['missing.json'], ctx), 2);
    fs.writeFileSync(path.join(cwd, 'paygate.config.json'), config('https://sandbox.example/paynet'));
    assert.equal(await runTrust([], ctx), 0);
    assert.match(out.join(''), /It sends to:\n {2}repo: https:\/\/sandbox\.example\/paynet/);
    out.length = 0;
    assert.equal(await runTrust(['--list'], ctx), 0);
    assert.ok(out.join('').includes(fs.realpathSync(path.join(cwd, 'paygate.config.json'))));
  } finally {
    s.done();
  }
});

function paygate(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      { cwd, env: { ...process.env, ...env }, timeout: PROCESS_MS },
      (e, stdout, stderr) => {
        let code = 0;
        if (e) code = typeof e.code === 'number' ? e.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

test('a cloned folder cannot redirect a batch: untrusted or changed config exits 2 and sends nothing', async () => {
  const s = scratch();
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const cwd = path.join(s.dir, 'project');
    fs.copyFileSync(path.join(root, 'examples', 'valid.rpcsv'), path.join(cwd, 'batch.rpcsv'));
    const file = path.join(cwd, 'paygate.config.json');
    fs.writeFileSync(file, config(`http://127.0.0.1:${(server.address() as AddressInfo).port}/evil`));
    const env = { ...s.env, PAYGATE_CONSUMER_SECRET: 'x', PAYGATE_STATE_DIR: path.join(s.dir, 'state') };

    const untrusted = await paygate(['submit', 'batch.rpcsv'], cwd, env);
    assert.equal(untrusted.code, 2);
    assert.ok(untrusted.stderr.includes(fs.realpathSync(file)), untrusted.stderr);
    assert.match(untrusted.stderr, /paygate trust /);
    assert.equal(received.length, 0, 'nothing was sent');

    assert.equal((await paygate(['trust'], cwd, env)).code, 0);
    await paygate(['submit', 'batch.rpcsv'], cwd, env);
    assert.equal(received.length, 1, 'sent once trusted');

    fs.appendFileSync(file, ' ');
    const changed = await paygate(['submit', 'batch.rpcsv'], cwd, env);
    assert.equal(changed.code, 2);
    assert.match(changed.stderr, /changed since you trusted it/);
    assert.equal(received.length, 1, 'nothing more was sent');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    s.done();
  }
});
