import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

// dist/extension.js as esbuild.js builds it for a release (minified, CommonJS, `vscode` external), evaluated
// and activated in plain Node under a fake `vscode` (issue 40: our part of the activation ≤ 5 ms). What the
// host does for a require() of `vscode` is make the extension's API object; what the bundle then does with
// it is ours: esbuild wraps an `import * as vscode` in `__toESM`, which copies every one of the API's
// top-level names (some 260 in VS Code 1.100: namespaces, classes, enums) into a new object of getters, once
// per module that imports it, at evaluation. The entry's modules import by name, so it is used as it comes.

const ROOT = join(__dirname, '..', '..');

async function entryBundle(): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, 'src/extension/extension.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['vscode'],
    banner: { js: 'var __paygateBundleStart = performance.now();' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

test('the entry bundle uses the vscode module as it comes: no __toESM copy of the API at evaluation', async () => {
  const text = await entryBundle();
  assert.ok(text.includes('require("vscode")'), 'the entry requires vscode');
  assert.equal(text.includes('__toESM'), false, 'an `import * as vscode` in a module of the entry bundle');
  // Nor any other helper around it: each require of vscode is kept as it comes (`x=require("vscode")`).
  assert.deepEqual(text.match(/[^=\s]\s*require\("vscode"\)/g), null);
});

test('evaluating the entry bundle and activate() require vscode only; the other bundles load in the next turn', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-entry-'));
  try {
    mkdirSync(join(dir, 'dist'));
    const file = join(dir, 'dist', 'extension.js');
    writeFileSync(file, await entryBundle());
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: unknown[] } };
    const required: string[] = [];
    let commands = 0;
    const done = () => ({ dispose() {} });
    const fake = {
      EventEmitter: class {
        event = () => done();
        fire(): void {}
        dispose(): void {}
      },
      window: {
        createOutputChannel: () => ({ info() {}, error() {}, dispose() {} }),
        createTreeView: done,
        registerWebviewPanelSerializer: done,
      },
      commands: { registerCommand: () => (commands++, done()) },
    };
    const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const load = mod._load;
    mod._load = function (request: string, ...rest: unknown[]) {
      required.push(request);
      return request === 'vscode' ? fake : load.apply(this, [request, ...rest]);
    };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, under the fake host
      const ext = require(file) as { activate: (context: unknown) => unknown };
      assert.deepEqual([...new Set(required.filter((r) => r !== file))], ['vscode'], 'evaluating dist/extension.js');
      required.length = 0;
      ext.activate({ subscriptions: [], extension: { packageJSON: manifest }, asAbsolutePath: (p: string) => join(dir, p) });
      assert.deepEqual([...required], [], 'activate() required something');
      assert.equal(commands, manifest.contributes.commands.length);
      await new Promise((next) => setImmediate(next));
      // The next turn loads the first screen and the language client (absent here: the failures go to the log).
      const bundles = required.filter((r) => r.startsWith(join(dir, 'dist'))).map((r) => r.slice(dir.length + 1));
      assert.deepEqual(bundles, ['dist/first-screen.js', 'dist/language-client.js']);
    } finally {
      mod._load = load;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
