import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheName } from '../../src/cli/codeCache';
import { cleanEnv, ownStderr, run } from './run';

// The npm package as a user gets it: `npm pack` (whose prepack builds the CLI in production mode), the
// tarball's exact file list, an offline install into an empty folder (it has no dependencies, so it
// needs nothing from anywhere), then `paygate` from that install. Home, XDG and temporary folders point
// into the test's own folder, so nothing touches the real home directory.

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies?: object;
  bin: Record<string, string>;
};
let work: string;
let tarball: string;
let packedFiles: string[];
let app: string;
let userEnv: NodeJS.ProcessEnv;

const PACK_TIMEOUT = 180_000;
const INSTALL_TIMEOUT = 120_000;
const CLI_TIMEOUT = 60_000;

/** The installed `paygate`, through npx as a user would run it; --no: never fetch it from anywhere. */
function paygate(args: string[], cwd = app) {
  return run('npx', ['--no', '--', 'paygate', ...args], { cwd, env: userEnv, timeoutMs: CLI_TIMEOUT });
}

before(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'paygate-pack-')));
  for (const d of ['out', 'app', 'home', 'state', 'tmp', 'files']) mkdirSync(join(work, d));
  app = join(work, 'app');
  const h = join(work, 'home');
  userEnv = cleanEnv({
    HOME: h,
    USERPROFILE: h,
    XDG_CONFIG_HOME: join(h, '.config'),
    XDG_CACHE_HOME: join(h, '.cache'),
    XDG_DATA_HOME: join(h, '.local', 'share'),
    XDG_STATE_HOME: join(h, '.local', 'state'),
    PAYGATE_STATE_DIR: join(work, 'state'),
    TMPDIR: join(work, 'tmp'),
    NO_COLOR: '1',
  });

  const packed = await run('npm', ['pack', '--json', '--pack-destination', join(work, 'out')], { cwd: root, timeoutMs: PACK_TIMEOUT });
  assert.equal(packed.code, 0, `npm pack failed:\n${packed.stderr}`);
  // prepack's build log shares stdout with npm's JSON: the JSON is the part from the line "[" on.
  const json = packed.stdout.slice(packed.stdout.search(/^\[\s*$/m));
  const [info] = JSON.parse(json) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, 'out', info.filename);
  packedFiles = info.files.map((f) => f.path).sort();
});
after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the CLI bundle, the examples and the documents, nothing else', () => {
  assert.equal(tarball, join(work, 'out', `${pkg.name}-${pkg.version}.tgz`));
  const examples = readdirSync(join(root, 'examples')).map((f) => `examples/${f}`);
  const expected = [
    'CHANGELOG.md',
    'LICENSE',
    'README.md',
    'dist/cli-ledger.js',
    'dist/cli-main.js',
    'dist/cli-program.js',
    'dist/cli.js',
    'dist/package.json',
    'package.json',
    ...examples,
  ].sort();
  assert.deepEqual(packedFiles, expected);
  assert.deepEqual(pkg.bin, { paygate: 'dist/cli.js' });
  assert.equal(pkg.dependencies, undefined, 'everything is bundled: the package must not pull dependencies');
});

test('it installs offline into an empty folder and puts paygate on the path', async () => {
  assert.deepEqual(readdirSync(app), []);
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--prefix', app, tarball], {
    cwd: app,
    timeoutMs: INSTALL_TIMEOUT,
  });
  assert.equal(installed.code, 0, `npm install failed:\n${installed.stdout}\n${installed.stderr}`);
  assert.deepEqual(
    readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.')),
    [pkg.name],
    'no dependency came along',
  );
  assert.ok(existsSync(join(app, 'node_modules', '.bin', 'paygate')));
  const cli = readFileSync(join(app, 'node_modules', pkg.name, 'dist', 'cli.js'), 'utf8');
  assert.ok(cli.startsWith('#!/usr/bin/env node\n'), 'the bundle starts with its shebang');
  assert.ok(!cli.includes('sourceMappingURL'), 'the bundle is a production build (no source map)');
});

test('paygate --version prints the package version', async () => {
  const r = await paygate(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), pkg.version);
  assert.equal(ownStderr(r.stderr), '');
});

test("paygate lint of a one-row file and paygate --version load only dist/cli.js and dist/cli-main.js, and none of the modules lint's start-up left out", async () => {
  // What the process loaded, written as it exits: our files, and Node's own modules (moduleLoadList).
  // node:child_process (with node:net and the streams under it), node:tty and node:readline were a third
  // of a one-row lint's start-up; the rest of the program (dist/cli-program.js) most of --version's.
  // (node:net itself comes with standard output when it is a pipe, as here, or a terminal.) dist/cli.js
  // runs dist/cli-main.js from the code cache the lint keeps in the user's cache folder (src/cli/codeCache.ts).
  const hook = join(work, 'loaded-hook.js');
  const report = join(work, 'loaded.json');
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)) })));\n`,
  );
  const batch = join(work, 'files', 'one.rpcsv');
  writeFileSync(
    batch,
    readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8')
      .split('\r\n')
      .slice(0, 2)
      .join('\r\n') + '\r\n',
  );
  const cli = join(app, 'node_modules', pkg.name, 'dist', 'cli.js');
  for (const args of [['lint', '--no-ledger', batch], ['--version']]) {
    const r = await run(process.execPath, ['--require', hook, cli, ...args], { cwd: app, env: userEnv, timeoutMs: CLI_TIMEOUT });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    const loaded = JSON.parse(readFileSync(report, 'utf8')) as { files: string[]; builtins: string[] };
    assert.deepEqual(
      loaded.files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort(),
      ['cli-main.js', 'cli.js', 'loaded-hook.js'],
      args.join(' '),
    );
    for (const m of ['child_process', 'tty', 'readline', 'readline/promises'])
      assert.ok(!loaded.builtins.includes(m), `${args.join(' ')} loaded node:${m}`);
  }
  const cache = join(
    userEnv.XDG_CACHE_HOME!,
    'paygate',
    'code-cache',
    codeCacheName(join(app, 'node_modules', pkg.name, 'dist', 'cli-main.js')),
  );
  assert.ok(existsSync(cache), "the lint kept a code cache in the user's cache folder");
});

test('paygate --help lists the commands', async () => {
  const r = await paygate(['--help']);
  assert.equal(r.code, 0, r.stderr);
  for (const command of ['lint', 'fix', 'schedule', 'sign', 'submit', 'report', 'gateway', 'demo'])
    assert.match(r.stdout, new RegExp(`^  ${command} `, 'm'));
});

test('paygate lint: a valid batch passes, the mistakes file fails with codes', async () => {
  const files = join(work, 'files');
  copyFileSync(join(root, 'examples', 'valid.rpcsv'), join(files, 'valid.rpcsv'));
  copyFileSync(join(root, 'examples', 'mistakes.rpcsv'), join(files, 'mistakes.rpcsv'));
  const ok = await paygate(['lint', join(files, 'valid.rpcsv')]);
  assert.equal(ok.code, 0, `${ok.stdout}${ok.stderr}`);
  assert.match(ok.stdout, /0 errors/);
  const bad = await paygate(['lint', join(files, 'mistakes.rpcsv')]);
  assert.equal(bad.code, 1, `${bad.stdout}${bad.stderr}`);
  assert.match(bad.stdout, /mistakes\.rpcsv:\d+:\d+: error [a-z]+(-[a-z]+)* /);
  assert.match(bad.stdout, /\bcolumn-alias\b/);
});

test('paygate schedule prints dated charges', async () => {
  const r = await paygate(['schedule', join(work, 'files', 'valid.rpcsv'), '--today', '15.01.2027']);
  assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
  // The first row has no start-date, so it starts on --today and charges monthly.
  assert.match(r.stdout, /^\s+0\s+15\.01\.2027\s/m);
  assert.match(r.stdout, /^\s+1\s+15\.02\.2027\s/m);
});

test('paygate demo runs the whole tour from the shipped examples', async () => {
  // The install folder has no examples/: the demo must find the ones in the package.
  assert.ok(!existsSync(join(app, 'examples')));
  const r = await paygate(['demo']);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, new RegExp(`node_modules/${pkg.name}/examples`));
  assert.match(r.stdout, /Done\./);
  // Its temporary state went to TMPDIR and was removed; nothing was written to the home folder (but the
  // code cache the lints before it kept, docs/install.md#code-cache: a demo keeps none).
  assert.deepEqual(
    readdirSync(join(work, 'tmp')).filter((f) => f.startsWith('paygate-')),
    [],
  );
  const home = join(work, 'home');
  const written = readdirSync(home, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(home, f)).isFile() && !/^\.npm\b/.test(f) && !f.startsWith('.cache/paygate/code-cache/cli-main-'));
  assert.deepEqual(written, []);
});

test('paygate lint beside a ledger: a batch sent from the installed CLI is already-sent (lint loads dist/cli-ledger.js)', async () => {
  // After the demo's check of the home folder: this send keeps its ledger under work/, the gateway in work/state.
  const env = { ...userEnv, PAYGATE_DATA_DIR: join(work, 'ledger') };
  const batch = join(work, 'files', 'sent.rpcsv');
  copyFileSync(join(root, 'examples', 'valid.rpcsv'), batch);
  const cli = (args: string[]) => run('npx', ['--no', '--', 'paygate', ...args], { cwd: app, env, timeoutMs: CLI_TIMEOUT });
  const sent = await cli(['submit', batch]);
  assert.equal(sent.code, 0, `${sent.stdout}\n${sent.stderr}`);
  const linted = await cli(['lint', '--no-git', batch]);
  assert.equal(linted.code, 1, `${linted.stdout}\n${linted.stderr}`);
  assert.match(linted.stdout, /sent\.rpcsv:2:1: error already-sent client-orderid "GYM-2027-0001" was already sent on /);
  assert.match(linted.stdout, /warning cvv-after-send/);
  const without = await cli(['lint', '--no-git', '--no-ledger', batch]);
  assert.equal(without.code, 0, `${without.stdout}\n${without.stderr}`);
});
