import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { cleanEnv, ownStderr, run, type RunResult } from './run';
import { manifestFiles, vsixProblems } from './vsixContents';

// The VSIX as `npm run package` builds it (icon render, production bundles, vsce), written to a temporary
// folder: it exists under vsce's default name, nothing warned, and the archive (read with unzip) holds
// exactly what test/process/vsix.test.ts expects from `vsce ls`.

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let out: string;
let packaged: RunResult;
let vsix: string;
let rootBefore: string[];

const PACKAGE_TIMEOUT = 240_000;

/** vsce stores some files under other names: map them back to the repository's. */
const RENAMED: Record<string, string> = { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md', 'LICENSE.txt': 'LICENSE' };

function entries(): string[] {
  return execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8', timeout: 30_000 }).split('\n').filter(Boolean);
}

function entry(name: string): Buffer {
  return execFileSync('unzip', ['-p', vsix, name], { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
}

before(async () => {
  rootBefore = readdirSync(root).sort();
  out = realpathSync(mkdtempSync(join(tmpdir(), 'paygate-vsix-')));
  // `-o DIR`: vsce names the file itself, as it would in the work tree.
  packaged = await run('npm', ['run', 'package', '--', '-o', `${out}/`], { cwd: root, env: cleanEnv(), timeoutMs: PACKAGE_TIMEOUT });
  vsix = join(out, `${pkg.name}-${pkg.version}.vsix`);
});
after(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

test('npm run package writes paygate-toolkit-<version>.vsix without a warning', () => {
  assert.equal(packaged.code, 0, `npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  assert.deepEqual(readdirSync(out), [`${pkg.name}-${pkg.version}.vsix`]);
  assert.ok(statSync(vsix).size > 0);
  assert.equal(ownStderr(packaged.stderr), '', 'stderr');
  assert.doesNotMatch(packaged.stdout, /WARNING|::warning/);
  assert.match(packaged.stdout, /DONE\s+Packaged:/);
});

test('the archive holds only what runs and everything that does', () => {
  const names = entries();
  assert.ok(names.includes('extension.vsixmanifest') && names.includes('[Content_Types].xml'));
  const files = names
    .filter((n) => n.startsWith('extension/') && !n.endsWith('/'))
    .map((n) => n.slice('extension/'.length))
    .map((f) => RENAMED[f] ?? f);
  assert.deepEqual(vsixProblems(files), []);
  assert.deepEqual(
    manifestFiles(pkg).filter((f) => !files.includes(f)),
    [],
  );
});

test('the bundles are production builds and the icon is a 128×128 PNG named in the manifest', () => {
  for (const bundle of ['extension/dist/extension.js', 'extension/dist/webview-ui.js']) {
    assert.doesNotMatch(entry(bundle).toString('utf8'), /sourceMappingURL/, bundle);
  }
  const png = entry('extension/media/icon.png');
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'PNG signature');
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  assert.match(
    entry('extension.vsixmanifest').toString('utf8'),
    /Type="Microsoft\.VisualStudio\.Services\.Icons\.Default" Path="extension\/media\/icon\.png"/,
  );
});

test('packaging with -o leaves no new file at the top of the work tree', () => {
  assert.deepEqual(readdirSync(root).sort(), rootBefore);
});
