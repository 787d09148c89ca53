import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

// dist/extension.js and dist/boundary.js as esbuild.js builds them for a release (its own options, minified),
// evaluated and activated in plain Node under a fake `vscode` (issue 40: our part of the activation ≤ 5 ms).
// What the host does for a require() of `vscode` is make the extension's API object; what the bundle then
// does with it is ours: esbuild wraps an `import * as vscode` in `__toESM`, which copies every one of the
// API's top-level names (some 260 in VS Code 1.100: namespaces, classes, enums) into a new object of
// getters, once per module that imports it, at evaluation. The entry's modules import by name, so it is
// used as it comes. The output boundary (src/core/output's floor) is dist/boundary.js, required with the
// first log line or message, so the host compiles none of it at activation.

const ROOT = join(__dirname, '..', '..');

interface Built {
  text: Record<string, string>;
  inputs: Record<string, string[]>;
}

async function entryBundles(): Promise<Built> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script's own options (CommonJS)
  const { builds } = require(join(ROOT, 'esbuild.js')) as { builds: (BuildOptions & { entryPoints: Record<string, string> })[] };
  const options = builds.find((b) => !Array.isArray(b.entryPoints) && 'extension' in b.entryPoints);
  assert.ok(options, 'esbuild.js builds no `extension` entry');
  const result = await build({
    ...options,
    minify: true,
    sourcemap: false,
    write: false,
    metafile: true,
    absWorkingDir: ROOT,
    logLevel: 'silent',
  });
  const built: Built = { text: {}, inputs: {} };
  for (const f of result.outputFiles) built.text[relative(ROOT, f.path)] = f.text;
  for (const [file, out] of Object.entries(result.metafile.outputs)) built.inputs[file] = Object.keys(out.inputs);
  return built;
}

test('the entry bundle uses the vscode module as it comes: no __toESM copy of the API at evaluation', async () => {
  const text = (await entryBundles()).text['dist/extension.js'];
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
    const built = await entryBundles();
    for (const name of ['extension', 'boundary']) writeFileSync(join(dir, 'dist', `${name}.js`), built.text[`dist/${name}.js`]);
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
      // The log's two activation lines came first, through the boundary's own bundle.
      assert.equal(required[0], './boundary.js');
    } finally {
      mod._load = load;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the output boundary is a bundle of its own: dist/extension.js holds none of src/core', async () => {
  const built = await entryBundles();
  assert.deepEqual(
    built.inputs['dist/extension.js'].filter((i) => i.startsWith('src/core/')),
    [],
  );
  assert.ok(built.inputs['dist/boundary.js'].includes('src/core/output/said.ts'), 'dist/boundary.js holds the floor');
  assert.ok(built.text['dist/extension.js'].includes('require("./boundary.js")'), 'the entry requires dist/boundary.js');
});
