import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

// test/tools/ts-hook.js, which loads the node:test suites' TypeScript in place of `--import tsx` (issue 42).
// A copy of it runs in a repository of its own (a temporary folder with a tsconfig.json, the hook at
// test/tools/, a link to our node_modules for esbuild): it transpiles once into out/ts-cache/, loads a
// module from there under the source's own name, and never runs a cached file its source has moved on from.

const HOOK = join(__dirname, '..', 'tools', 'ts-hook.js');
let root: string;
let hook: string;

before(() => {
  root = mkdtempSync(join(tmpdir(), 'paygate-ts-hook-'));
  mkdirSync(join(root, 'test', 'tools'), { recursive: true });
  mkdirSync(join(root, 'src', 'commands'), { recursive: true });
  hook = join(root, 'test', 'tools', 'ts-hook.js');
  copyFileSync(HOOK, hook);
  symlinkSync(join(__dirname, '..', '..', 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'tsconfig.json'), '// the root options\n{ "compilerOptions": { "target": "ES2022" } }\n');
  writeFileSync(
    join(root, 'src', 'main.ts'),
    [
      "import { type Shape, said } from './part';",
      'const shape: Shape = { name: said };',
      "void import('./commands/lint.js').then((m) => {",
      '  process.stdout.write(JSON.stringify({ shape, lint: m.lint(), file: __filename, dir: __dirname, cached: require.cache[__filename] === module }));',
      '});',
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'part.ts'), "export interface Shape { name: string }\nexport const said: string = 'from the source';\n");
  writeFileSync(join(root, 'src', 'commands', 'lint.ts'), "export const lint = (): string => 'lint.ts';\n");
});
after(() => rmSync(root, { recursive: true, force: true }));

const node = (args: string[]) => {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};
const compile = () => node([hook]);
const main = () => JSON.parse(node(['--require', hook, join(root, 'src', 'main.ts')]));

test('transpiles each .ts file once into out/ts-cache/, keyed by its source; a second run has nothing to do', () => {
  assert.match(compile(), /^ts-hook: 3 file\(s\) transpiled/);
  const cached = readFileSync(join(root, 'out', 'ts-cache', 'src', 'part.js'), 'utf8');
  assert.match(cached, /\n\/\/[0-9a-f]{40}\n$/);
  assert.match(cached, /from the source/);
  assert.match(compile(), /^ts-hook: 0 file\(s\) transpiled/);
});

test('loads TypeScript as CommonJS under its own name: types dropped, import() of ./x.js is x.ts', () => {
  compile();
  assert.deepEqual(main(), {
    shape: { name: 'from the source' },
    lint: 'lint.ts',
    file: join(root, 'src', 'main.ts'),
    dir: join(root, 'src'),
    cached: true,
  });
});

test('runs the cached code when its source is unchanged, and the source when it changed since', () => {
  compile();
  const cacheFile = join(root, 'out', 'ts-cache', 'src', 'part.js');
  const cached = readFileSync(cacheFile, 'utf8');
  // The cache is what runs: a changed body under the same header is seen.
  writeFileSync(cacheFile, cached.replace('from the source', 'from the cache'));
  assert.equal(main().shape.name, 'from the cache');
  // An edit after the cache was made: the source runs, not the stale cache.
  writeFileSync(join(root, 'src', 'part.ts'), "export interface Shape { name: string }\nexport const said: string = 'edited';\n");
  assert.equal(main().shape.name, 'edited');
  assert.match(compile(), /^ts-hook: 1 file\(s\) transpiled/);
  assert.equal(main().shape.name, 'edited');
});

test("a stack trace names the source's line and column, also from the cache", () => {
  const where = join(root, 'src', 'where.ts');
  writeFileSync(where, "// one\nconst at: string = '';\nprocess.stdout.write(JSON.stringify(new Error(at).stack));\n");
  assert.match(compile(), /^ts-hook: 1 file\(s\) transpiled/);
  const stack = JSON.parse(node(['--require', hook, where])) as string;
  assert.ok(stack.includes(`${where}:3:37`), stack);
});
