import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { manifestFiles, REQUIRED_VSIX_FILES, vsixProblems } from '../pack/vsixContents';
import { PROCESS_MS } from '../fixtures/deadlines';

// What `vsce package` would put in the VSIX, from `vsce ls` (the same file selection, no build, no
// network). It runs on a mirror of the work tree: every file as an empty stand-in, package.json and
// .vscodeignore for real, plus every output a build, a bench or a pack can leave behind (bundles, source
// maps, metafiles, the icon, packed artifacts) — so the answer does not depend on what was built before.

const root = join(__dirname, '..', '..');
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
let mirror: string;

const BUILD_OUTPUTS = [
  'dist/extension.js',
  'dist/extension.js.map',
  'dist/boundary.js',
  'dist/boundary.js.map',
  'dist/first-screen.js',
  'dist/first-screen.js.map',
  'dist/language-client.js',
  'dist/language-client.js.map',
  'dist/features.js',
  'dist/features.js.map',
  'dist/language-server.js',
  'dist/language-server.js.map',
  'dist/cli.js',
  'dist/cli.js.map',
  'dist/cli-main.js',
  'dist/cli-main.js.map',
  'dist/cli-program.js',
  'dist/cli-program.js.map',
  'dist/package.json',
  'dist/webview-ui.js',
  'dist/webview-ui.js.map',
  'dist/webview-ui.css',
  'dist/webview-ui.css.map',
  'dist/forecast.js',
  'dist/forecast.js.map',
  'dist/forecast.css',
  'dist/forecast.css.map',
  'dist/pdf-view.js',
  'dist/pdf-view.js.map',
  'dist/pdf-view.css',
  'dist/pdf.worker.mjs',
  'dist/pdf-assets/loading-icon-3SBOJUC7.gif',
  'out/meta-extension.json',
  'out/test/integration/index.js',
  `${name}-${version}.tgz`,
  `${name}-${version}.vsix`,
  'test-results/e2e-failure.png',
];

function workTreeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const f of workTreeFiles(path)) found.push(f);
    else if (entry.isFile()) found.push(relative(root, path).split(sep).join('/'));
  }
  return found;
}

function vsceLs(): string[] {
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: mirror, encoding: 'utf8', timeout: PROCESS_MS });
  assert.equal(r.status, 0, `vsce ls failed:\n${r.stderr}${r.error ? String(r.error) : ''}`);
  assert.equal(r.stderr.trim(), '', 'vsce ls wrote to stderr');
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

before(() => {
  mirror = mkdtempSync(join(tmpdir(), 'paygate-vsix-'));
  for (const f of [...workTreeFiles(root), ...BUILD_OUTPUTS]) {
    mkdirSync(dirname(join(mirror, f)), { recursive: true });
    writeFileSync(join(mirror, f), '');
  }
  copyFileSync(join(root, 'package.json'), join(mirror, 'package.json'));
  copyFileSync(join(root, '.vscodeignore'), join(mirror, '.vscodeignore'));
});
after(() => rmSync(mirror, { recursive: true, force: true }));

test('the VSIX holds only what runs and everything that does', () => {
  const files = vsceLs();
  assert.deepEqual(vsixProblems(files), []);
  // The stand-ins include a language-server bundle: it is let in ahead of the build that makes it.
  assert.ok(files.includes('dist/language-server.js'));
});

test('every file package.json points at is packaged', () => {
  const files = new Set(vsceLs());
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const referenced = manifestFiles(manifest);
  assert.ok(
    referenced.includes('dist/extension.js') && referenced.includes('media/icon.png'),
    `references found: ${referenced.join(', ')}`,
  );
  assert.deepEqual(
    referenced.filter((f) => !files.has(f)),
    [],
  );
});

test('.vscodeignore lets in only paths that exist or are built', () => {
  const built = new Set([...workTreeFiles(root), ...BUILD_OUTPUTS]);
  const rules = readFileSync(join(root, '.vscodeignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1));
  const literal = rules.filter((r) => !/[*?[{]/.test(r));
  assert.deepEqual(
    literal.filter((r) => !built.has(r)),
    [],
  );
  // Globs must each match something too (syntaxes/*.json and the like).
  for (const glob of rules.filter((r) => /[*?[{]/.test(r))) {
    const re = new RegExp(
      `^${glob
        .replace(/[.+^$()|\\]/g, '\\$&')
        .replace(/\*\*/g, '\u0000')
        .replace(/\*/g, '[^/]*')
        .replaceAll('\u0000', '.*')}$`,
    );
    assert.ok(
      [...built].some((f) => re.test(f)),
      `${glob} matches nothing`,
    );
  }
  assert.ok(REQUIRED_VSIX_FILES.every((f) => built.has(f)));
});

// The extension's Details page renders the packaged README: its images must be in the VSIX and linked
// relatively (vsce would otherwise rewrite them to the repository host, and offline only alt text shows).
test("the README's images are relative links to files the VSIX carries", () => {
  const files = new Set(vsceLs());
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length > 0);
  assert.deepEqual(
    images.filter((src) => /^[a-z]+:/i.test(src) || !files.has(src.replace(/^\.\//, ''))),
    [],
  );
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(pkg.scripts.package, /vsce package .*--no-rewrite-relative-links/);
});
