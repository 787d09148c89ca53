// TypeScript for the node:test suites without tsx's loader thread (issue 42). `node --import tsx` boots an
// ESM hooks thread in every test file's process: about 0.2 s of CPU each, before any test runs, for some
// 250 test files per `npm test`. This file does tsx's work in the process's own thread instead:
//
// - `node test/tools/ts-hook.js` (each suite's script runs it first) transpiles every .ts file of the
//   repository with esbuild, tsx's options (below), into out/ts-cache/ (the same paths, .js), each ending
//   with the SHA-1 of its source (a last line, so the source map's lines stay true). Files whose source did not change since are left as they are.
// - `node --require ./test/tools/ts-hook.js --test …` loads .ts files as CommonJS modules, as tsx does in
//   this package (no "type": "module"): under their own file names, so __dirname, __filename, require(),
//   require.cache and stack traces are the source's. A file's code is taken from out/ts-cache/ when its
//   last line names the source's present hash, else esbuild transpiles it there and then (an edit made
//   while the suite runs is seen). `import('./x.js')` becomes a require(), as in the production bundles
//   (esbuild.js), and a relative `./x.js` that does not exist resolves to `./x.ts`, as tsx resolves it.
// Plain JavaScript, CommonJS: it is what makes TypeScript loadable.

'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = path.join(__dirname, '..', '..');
const CACHE = path.join(ROOT, 'out', 'ts-cache');
/** Folders never transpiled: dependencies, outputs, and the hostile fixtures' cases. */
const SKIP = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', '.vscode-test']);

/** tsx 4's transform options for a CommonJS file (its register: node target, source map, names kept). */
function options(file) {
  return {
    loader: 'ts',
    format: 'cjs',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: file,
    keepNames: true,
    minifyWhitespace: true,
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
    tsconfigRaw: { compilerOptions: TSCONFIG },
  };
}

const TSCONFIG = (() => {
  // The root tsconfig.json's options esbuild reads (it has comments: JSON after dropping them).
  const text = readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const { target, useDefineForClassFields, verbatimModuleSyntax, experimentalDecorators } = JSON.parse(text).compilerOptions;
  return { target, useDefineForClassFields, verbatimModuleSyntax, experimentalDecorators };
})();

const hashOf = (source) => createHash('sha1').update(source).digest('hex');
const cacheFile = (file) => path.join(CACHE, path.relative(ROOT, file).replace(/\.ts$/, '.js'));
const footer = (hash) => `\n//${hash}\n`;

/** Whether `file` is one compileAll() transpiles: under the repository, outside SKIP's folders. */
const ours = (file) => {
  const parts = path.relative(ROOT, file).split(path.sep);
  return parts[0] !== '..' && !path.isAbsolute(parts[0]) && !parts.some((p) => SKIP.has(p));
};

/** The cached code of `file` when it was made from the source whose hash is `hash`, else undefined. */
function cached(file, hash) {
  if (!ours(file)) return undefined;
  try {
    const code = readFileSync(cacheFile(file), 'utf8');
    return code.endsWith(footer(hash)) ? code : undefined;
  } catch {
    return undefined;
  }
}

function store(file, code) {
  const to = cacheFile(file);
  mkdirSync(path.dirname(to), { recursive: true });
  const temp = `${to}.${process.pid}.tmp`;
  writeFileSync(temp, code);
  renameSync(temp, to); // whole or not at all, for a suite reading it meanwhile
}

function tsFiles(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tsFiles(full, found);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/** Transpiles every .ts file whose cached code is missing or stale; a file esbuild refuses is left to load time. */
async function compileAll() {
  const esbuild = require('esbuild');
  let made = 0;
  await Promise.all(
    tsFiles(ROOT).map(async (file) => {
      const source = readFileSync(file, 'utf8');
      const hash = hashOf(source);
      if (cached(file, hash) !== undefined) return;
      try {
        const { code } = await esbuild.transform(source, options(file));
        store(file, code + footer(hash));
        made++;
      } catch {
        // Not TypeScript we load (a fixture's broken case): loading it reports esbuild's error.
      }
    }),
  );
  return made;
}

function register() {
  process.setSourceMapsEnabled(true);
  Module._extensions['.ts'] = (module, file) => {
    const source = readFileSync(file, 'utf8');
    const hash = hashOf(source);
    let code = cached(file, hash);
    if (code === undefined) code = require('esbuild').transformSync(source, options(file)).code;
    module._compile(code, file);
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (error) {
      if (!/^\.\.?\/.*\.js$/.test(request) || error?.code !== 'MODULE_NOT_FOUND') throw error;
      return resolve.call(this, request.replace(/\.js$/, '.ts'), parent, ...rest);
    }
  };
}

if (require.main === module) {
  compileAll().then(
    (made) => process.stdout.write(`ts-hook: ${made} file(s) transpiled into ${path.relative(ROOT, CACHE)}/\n`),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else {
  register();
}
