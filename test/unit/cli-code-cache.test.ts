import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { codeCacheDirectory, codeCacheName } from '../../src/cli/codeCache';

// The CLI's code cache (src/cli/codeCache.ts, issue 40): dist/cli.js runs its first bundle compiled from
// the bytecode an earlier lint kept. Here a small bundle of our own is run through it in child processes,
// each with its own cache folder: it runs as require() would run it, the cache is kept once, used for
// exactly the bundle it was made from, and never trusted, nor missed, where it cannot be trusted or kept.

const CODE_CACHE = join(__dirname, '..', '..', 'src', 'cli', 'codeCache.ts');
let dir: string;
let bundle: string;

/** A bundle as esbuild writes one: a shebang, a require of a file beside it, import() made a require() (esbuild.js). */
const bundleText = (value: string) => `#!/usr/bin/env node
const { part } = require('./part.js');
Promise.resolve().then(() => require('node:os')).then((os) => process.stdout.write(JSON.stringify({
  value: ${JSON.stringify(value)}, part, file: __filename, dir: __dirname, cached: require.cache[__filename] === module,
  self: this === module.exports, os: typeof os.EOL,
}) + '\\n'));
`;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-code-cache-'));
  mkdirSync(join(dir, 'dist'));
  bundle = join(dir, 'dist', 'bundle.js');
  writeFileSync(bundle, bundleText('one'));
  writeFileSync(join(dir, 'dist', 'part.js'), "exports.part = 'beside';\n");
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle through the code cache in a process of its own, with `env`; keeps a cache when `keep`. */
function run(env: NodeJS.ProcessEnv, keep = true) {
  const script = `require(${JSON.stringify(CODE_CACHE)}).runCodeCached(${JSON.stringify(bundle)}, module, process.env, ${keep})`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 30_000,
  });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const asRequired = (value: string) => ({
  value,
  part: 'beside',
  file: bundle,
  dir: join(dir, 'dist'),
  cached: true,
  self: true,
  os: 'string',
});

/** A cache folder of its own, and where the bundle's cache file is kept in it. */
function cacheHome(name: string) {
  const home = join(dir, name);
  const folder = join(home, 'paygate', 'code-cache');
  return { env: { XDG_CACHE_HOME: home }, folder, file: join(folder, codeCacheName(bundle)) };
}

test("the cache file: one per bundle's place, Node version and architecture", () => {
  const global = '/usr/lib/node_modules/paygate-toolkit/dist/cli-main.js';
  const name = codeCacheName(global);
  assert.ok(name.startsWith('cli-main-') && name.endsWith(`-${process.version}-${process.arch}.bin`), name);
  assert.equal(codeCacheName(global), name);
  assert.notEqual(codeCacheName('/home/u/project/node_modules/paygate-toolkit/dist/cli-main.js'), name);
});

test('the cache folder: an absolute XDG_CACHE_HOME, else ~/.cache; PAYGATE_CODE_CACHE=off turns it off', () => {
  assert.equal(codeCacheDirectory({ XDG_CACHE_HOME: '/c', HOME: '/h' }), join('/c', 'paygate', 'code-cache'));
  assert.equal(codeCacheDirectory({ XDG_CACHE_HOME: 'relative', HOME: '/h' }), join('/h', '.cache', 'paygate', 'code-cache'));
  assert.equal(
    codeCacheDirectory({}, () => '/home/u'),
    join('/home/u', '.cache', 'paygate', 'code-cache'),
  );
  assert.equal(codeCacheDirectory({ PAYGATE_CODE_CACHE: 'off', XDG_CACHE_HOME: '/c' }), undefined);
  assert.equal(
    codeCacheDirectory({}, () => ''),
    undefined,
  );
});

test('the bundle runs as require() runs it; the first run keeps its cache (the user only), the next one uses it', () => {
  const c = cacheHome('first');
  assert.deepEqual(run(c.env), asRequired('one'));
  assert.equal(statSync(c.folder).mode & 0o777, 0o700);
  assert.equal(statSync(c.file).mode & 0o777, 0o600);
  const kept = readFileSync(c.file);
  assert.ok(kept.includes(readFileSync(bundle)), 'the cache holds the source it was made from');
  const before = statSync(c.file);
  assert.deepEqual(run(c.env), asRequired('one'));
  const again = statSync(c.file);
  assert.deepEqual([again.ino, again.mtimeMs], [before.ino, before.mtimeMs], 'a cache that was used is not written again');
  assert.deepEqual(readFileSync(c.file), kept);
});

test('a cache is used only for the very bundle it was made from: a changed bundle of the same length runs as it is now', () => {
  const c = cacheHome('changed');
  assert.deepEqual(run(c.env), asRequired('one'));
  const old = readFileSync(c.file);
  try {
    writeFileSync(bundle, bundleText('two'));
    assert.deepEqual(run(c.env), asRequired('two'));
    assert.notDeepEqual(readFileSync(c.file), old, 'the cache is made again for the new bundle');
  } finally {
    writeFileSync(bundle, bundleText('one'));
  }
});

test('a damaged cache, or one others could have written, is not used but made again', () => {
  const c = cacheHome('damaged');
  mkdirSync(c.folder, { recursive: true, mode: 0o700 });
  for (const mode of [0o600, 0o666]) {
    writeFileSync(c.file, 'paygate code cache 1\nnot bytecode');
    chmodSync(c.file, mode);
    assert.deepEqual(run(c.env), asRequired('one'));
    assert.ok(readFileSync(c.file).includes(readFileSync(bundle)), `mode ${mode.toString(8)}: made again`);
    assert.equal(statSync(c.file).mode & 0o777, 0o600);
  }
});

test('in a folder others can write to, the cache is neither read nor written', () => {
  const c = cacheHome('shared');
  mkdirSync(c.folder, { recursive: true });
  chmodSync(c.folder, 0o777);
  writeFileSync(c.file, 'not a cache');
  assert.deepEqual(run(c.env), asRequired('one'));
  assert.equal(readFileSync(c.file, 'utf8'), 'not a cache');
});

test('where no cache can be kept, when it is off, or when the run keeps none, the bundle runs the same and nothing is said', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  assert.deepEqual(run({ XDG_CACHE_HOME: join(file, 'cache') }), asRequired('one'));
  const off = cacheHome('off');
  assert.deepEqual(run({ ...off.env, PAYGATE_CODE_CACHE: 'off' }), asRequired('one'));
  assert.equal(existsSync(off.folder), false);
  const none = cacheHome('none');
  assert.deepEqual(run(none.env, false), asRequired('one'));
  assert.equal(existsSync(none.file), false);
});
