// knip's production pass (`npm run knip`) finds what the product does not use only if its entries are the
// product's entry points: every bundle esbuild.js builds from our sources, and the schema generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';

const root = join(__dirname, '..', '..');

test("knip's production entries are exactly the bundles' entries and schemas/generate.ts", () => {
  // The build options esbuild.js hands over when required (not run). Named bundles, one entry or several
  // (`{ cli: 'src/cli/main.ts', 'cli-program': 'src/cli/launch.ts' }`); the test suites' bundles are lists.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script's own options (CommonJS)
  const { builds } = require(join(root, 'esbuild.js')) as { builds: { entryPoints: string[] | Record<string, string> }[] };
  const bundled = builds.flatMap((b) => (Array.isArray(b.entryPoints) ? [] : Object.values(b.entryPoints)));
  assert.ok(bundled.length >= 9, `bundles found in esbuild.js: ${bundled.join(', ')}`);
  const knip = parse(readFileSync(join(root, 'knip.jsonc'), 'utf8')) as { entry: string[]; project: string[] };
  const production = knip.entry.filter((e) => e.endsWith('!')).map((e) => e.slice(0, -1));
  assert.deepEqual([...production].sort(), [...bundled, 'schemas/generate.ts'].sort());
  for (const entry of production) assert.ok(existsSync(join(root, entry)), `${entry} exists`);
  // Tests are never production: an export only they use must be reported.
  assert.ok(!knip.project.some((p) => p.startsWith('test/') && p.endsWith('!')));
});

test("every command's loader names the export it uses, so knip reports the module's others", () => {
  // `(await import('./x.js')).xCommand` counts every export of x as used (knip cannot follow the member of an
  // awaited import); `import('./x.js').then((m) => m.xCommand)` names one, so `export const unused = 1` in a
  // command module is reported by `npm run knip`.
  const registry = readFileSync(join(root, 'src', 'cli', 'registry.ts'), 'utf8');
  const loads = [...registry.matchAll(/^\s*load: (.*)$/gm)].map((m) => m[1]);
  const commands = [...registry.matchAll(/^\s*name: '([^']+)',$/gm)].map((m) => m[1]);
  assert.equal(loads.length, commands.length, `one load per command: ${commands.join(', ')}`);
  for (const load of loads) assert.match(load, /^\(\) => import\('\.\/commands\/[\w-]+\.js'\)\.then\(\(m\) => m\.\w+\),$/);
});
