import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { EXTENSION_BUNDLES, owner } from '../bench/bundle';
import { REQUIRED_VSIX_FILES } from '../pack/vsixContents';

// What each of the extension's bundles is made of (esbuild.js builds them the same way): activation
// loads dist/extension.js only, so everything but the stand-ins must stay out of it (the first screen
// loads in the next turn, dist/first-screen.js), and the language client must be in
// one bundle only (the others talk to it through what the entry hands over, src/extension/entryState.ts).

const ROOT = join(__dirname, '..', '..');

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['vscode'],
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const LANGUAGE_CLIENT = /node_modules\/vscode-(languageclient|jsonrpc|languageserver-protocol)\//;

test('dist/extension.js (loaded on activation) holds no language client, gateway, results, submit or report code', async () => {
  const inputs = await inputsOf('src/extension/extension.ts');
  const heavy = inputs.filter(
    (i) =>
      LANGUAGE_CLIENT.test(i) ||
      /node_modules\/(papaparse|oauth-1\.0a|jsonc-parser)\//.test(i) ||
      /^src\/(local-gateway|callback-listener|language-server)\//.test(i) ||
      /^src\/extension\/(results|report|reconcile|history|callbacks)\//.test(i) ||
      /^src\/extension\/(submit\/submit|forecast\/panel|environments\/localGateway)\.ts$/.test(i) ||
      /^src\/core\/(ledger|oauth|forecast)/.test(i),
  );
  assert.deepEqual(heavy, []);
  // Nor the first screen's parts and the settings checks behind them (zod): they load in the next turn.
  assert.deepEqual(
    inputs.filter((i) => /node_modules\/zod\//.test(i) || /^src\/extension\/(submit|forecast|environments|lint)\//.test(i)).map(owner),
    [],
  );
  assert.ok(inputs.includes('src/extension/lazy.ts'), 'the stand-ins are not in the entry');
});

test('dist/first-screen.js holds the first screen and nothing heavy', async () => {
  const inputs = await inputsOf('src/extension/firstScreen.ts');
  for (const part of [
    'src/extension/submit/codeLens.ts',
    'src/extension/forecast/codeLens.ts',
    'src/extension/environments/statusBar.ts',
    'src/extension/lint/detect.ts',
  ])
    assert.ok(inputs.includes(part), `${part} is not in dist/first-screen.js`);
  assert.deepEqual(
    inputs.filter(
      (i) =>
        LANGUAGE_CLIENT.test(i) ||
        /^src\/(local-gateway|callback-listener|language-server)\//.test(i) ||
        /^src\/extension\/(results|report|reconcile|history|callbacks)\//.test(i) ||
        /^src\/core\/(ledger|oauth|forecast)/.test(i),
    ),
    [],
  );
});

test('the language client is in dist/language-client.js only', async () => {
  const client = await inputsOf('src/extension/lint/client.ts');
  assert.ok(client.some((i) => i.includes('node_modules/vscode-languageclient/')));
  const features = await inputsOf('src/extension/features.ts');
  assert.deepEqual(features.filter((i) => LANGUAGE_CLIENT.test(i)).map(owner), []);
  // Nor does it bring the local gateway along for the hover's "today" (only the simulated date's reader).
  assert.deepEqual(
    client.filter((i) => /^src\/local-gateway\/(server|handlers|http|payments|report)\.ts$/.test(i)),
    [],
  );
});

test('every bundle the entry loads is one of the extension bundles, and the VSIX carries each', () => {
  const entry = readFileSync(join(ROOT, 'src/extension/extension.ts'), 'utf8');
  const loaded = [...entry.matchAll(/loadBundle<[^>]+>\(context, '([a-z-]+)'\)/g)].map((m) => m[1]);
  assert.ok(loaded.length >= 3, `the entry's loadBundle calls were not found: ${loaded.join(', ')}`);
  for (const name of loaded)
    assert.ok(EXTENSION_BUNDLES.includes(name), `dist/${name}.js is not in EXTENSION_BUNDLES (test/bench/bundle.ts)`);
  for (const name of EXTENSION_BUNDLES)
    assert.ok(REQUIRED_VSIX_FILES.includes(`dist/${name}.js`), `dist/${name}.js is not among the VSIX's required files`);
});
