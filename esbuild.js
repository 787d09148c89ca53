// Builds every entry point of the product. `--production` minifies; otherwise sourcemaps.
// `--watch` rebuilds on change. Exits non-zero when any build fails.
// `--only NAME[,NAME]` builds just the bundles with those entry names (`--only cli` for `npm pack`).
// `--metafile` also writes out/meta-<entry>.json per named bundle, for `npm run bench:bundle`.
const esbuild = require('esbuild');
const fs = require('node:fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const metafile = process.argv.includes('--metafile');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : undefined;

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};

// Node bundles prefer a package's ES module entry: jsonc-parser's UMD entry loads its parts with a
// dynamic require that a bundle cannot follow.
const node = { platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] };

/** main.ts's `require('./launch')` stays a require of the program's own bundle, dist/cli-program.js. */
function programApart() {
  return {
    name: 'cli-program-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/launch$/ }, (args) =>
        args.importer.endsWith('src/cli/main.ts') ? { path: './cli-program.js', external: true } : undefined,
      );
      // lint's `require('../lintLedger')` (only when a ledger is there) stays a require of dist/cli-ledger.js.
      build.onResolve({ filter: /^\.\.\/lintLedger$/ }, (args) =>
        args.importer.endsWith('src/cli/commands/lint.ts') ? { path: './cli-ledger.js', external: true } : undefined,
      );
    },
  };
}

/**
 * commander requires node:child_process (and through it node:net and the streams) when it loads, for the
 * executable subcommands we never use: in the CLI it gets a stand-in that loads the module on first use.
 * That load was a fifth of the start-up of `paygate lint` on a one-row file (issue 40).
 */
function lazyChildProcessForCommander() {
  return {
    name: 'lazy-child-process-for-commander',
    setup(build) {
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
        contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
        loader: 'js',
      }));
    },
  };
}

/**
 * The editor's output boundary (src/extension/boundary.ts: src/core/output's floor) is a bundle of its own,
 * dist/boundary.js, which every extension bundle requires on its first message or log line: dist/extension.js
 * then carries only the wiring (5 KB instead of 16 KB for the host to compile at activation: issue 40), and
 * the four bundles share one floor.
 */
function boundaryApart() {
  return {
    name: 'boundary-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/boundary$/ }, (args) =>
        /src[\\/]extension[\\/]say\.ts$/.test(args.importer) ? { path: './boundary.js', external: true } : undefined,
      );
    },
  };
}

/**
 * dist/package.json says the bundles are CommonJS: Node reads the nearest package.json of the program it
 * starts to learn its module type, and the product's own (25 KB, the editor's contributions) cost `paygate`
 * about 5 ms of every start (issue 40). The npm package ships it (.npmignore); the VSIX does not need it.
 */
function writeDistPackageJson() {
  fs.mkdirSync('dist', { recursive: true });
  fs.writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
}

/**
 * One of the extension's bundles: Node, `vscode` left to the host, the output boundary apart. `more` adds to
 * or replaces those options (a banner, more externals).
 * @param {Record<string, string>} entryPoints
 * @param {import('esbuild').BuildOptions} [more]
 * @returns {import('esbuild').BuildOptions}
 */
function extensionBundle(entryPoints, more = {}) {
  return { ...common, entryPoints, outdir: 'dist', ...node, external: ['vscode'], plugins: [boundaryApart()], ...more };
}

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  // The extension runs in VS Code's extension host: CommonJS, `vscode` provided by the host. Four bundles
  // (CONTRIBUTING.md, "Bundles"): the small entry the editor loads on activation, the rest of the first
  // screen and the language client it loads right after, and the features it loads on first use; each
  // built on its own, so what they share is handed over at run time (src/extension/entryState.ts), never
  // imported twice as state.
  // Its first statement notes the host's clock, for the start-up bench's split (src/extension/extension.ts).
  // dist/boundary.js is built with the entry (boundaryApart: every extension bundle requires it).
  extensionBundle(
    { extension: 'src/extension/extension.ts', boundary: 'src/extension/boundary.ts' },
    { banner: { js: 'var __paygateBundleStart = performance.now();' } },
  ),
  extensionBundle({ 'first-screen': 'src/extension/firstScreen.ts' }),
  extensionBundle({ 'language-client': 'src/extension/lint/client.ts' }),
  // The features carry node-postgres for the team ledger (paygate.ledger.url); its native binding is never loaded.
  extensionBundle({ features: 'src/extension/features.ts' }, { external: ['vscode', 'pg-native'] }),
  // The CLI is a plain Node program with a shebang so `npm link` / `npx paygate` work. Four files: dist/cli.js
  // (src/cli/bin.ts) runs dist/cli-main.js from its V8 code cache (src/cli/codeCache.ts); dist/cli-main.js
  // runs `paygate lint` on its own (src/cli/lintLaunch.ts) and loads dist/cli-program.js (src/cli/launch.ts,
  // every command) for anything else, so lint never compiles the other commands' code; dist/cli-ledger.js is
  // what lint adds when a submission ledger is there (already-sent, cvv-after-send).
  {
    ...common,
    entryPoints: {
      cli: 'src/cli/bin.ts',
      'cli-main': 'src/cli/main.ts',
      'cli-program': 'src/cli/launch.ts',
      'cli-ledger': 'src/cli/lintLedger.ts',
    },
    outdir: 'dist',
    ...node,
    banner: { js: '#!/usr/bin/env node' },
    // import() of a Node module becomes a require(): dist/cli.js runs dist/cli-main.js through vm.Script
    // (its code cache), where import() would need Node's experimental loader for vm.
    supported: { 'dynamic-import': false },
    plugins: [programApart(), lazyChildProcessForCommander()],
    // node-postgres (the team ledger) is bundled; its optional native binding is never loaded (pg.native).
    external: ['pg-native'],
  },
  // The language server runs in its own process: started by the extension over node IPC, by
  // `paygate lsp --stdio` (which bundles it too) or by any editor with `node dist/language-server.js --stdio`.
  // It reads the team ledger too (already-sent), so it carries node-postgres like the CLI.
  { ...common, entryPoints: { 'language-server': 'src/language-server/main.ts' }, outdir: 'dist', ...node, external: ['pg-native'] },
  // Integration tests run inside the extension host, next to the extension.
  {
    ...common,
    entryPoints: ['test/integration/index.ts', 'test/integration/*.test.ts'],
    outdir: 'out/test/integration',
    ...node,
    // The team ledger's suite starts a PostgreSQL cluster and reads it with node-postgres (bundled).
    external: ['vscode', 'mocha', 'pg-native'],
  },
  // The smoke suite runs against the installed VSIX (test/e2e/installed.ts), from its own folder.
  {
    ...common,
    entryPoints: ['test/smoke/index.ts', 'test/smoke/*.test.ts'],
    outdir: 'out/test/smoke',
    ...node,
    external: ['vscode', 'mocha'],
  },
];

/**
 * `import source from './x?worker'` gives x.ts built as a browser bundle, as text: the results page starts
 * its parse worker from that text (webview-ui/parseWorker.ts), since a webview's own files are served from
 * another origin than the page and a worker must be same-origin. Rebuilt with the page, also when watching.
 */
const workerSource = {
  name: 'worker-source',
  setup(build) {
    build.onResolve({ filter: /\?worker$/ }, (args) => ({
      path: require('node:path').join(args.resolveDir, `${args.path.slice(0, -'?worker'.length)}.ts`),
      namespace: 'worker-source',
    }));
    build.onLoad({ filter: /.*/, namespace: 'worker-source' }, async (args) => {
      const result = await esbuild.build({
        ...common,
        sourcemap: false,
        entryPoints: [args.path],
        platform: 'browser',
        format: 'iife',
        target: 'es2022',
        write: false,
        metafile: true,
      });
      return { contents: result.outputFiles[0].text, loader: 'text', watchFiles: Object.keys(result.metafile.inputs) };
    });
  },
};

// The results page is optional until its sources exist, so the skeleton builds on its own.
if (require('node:fs').existsSync('webview-ui/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { 'webview-ui': 'webview-ui/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'css' },
    plugins: [workerSource],
  });
}

// The forecast page: its own small entry, with uPlot and uPlot's stylesheet bundled in (never loaded
// from a network); dist/forecast.js and dist/forecast.css.
builds.push({
  ...common,
  entryPoints: { forecast: 'webview-ui/forecast/main.ts' },
  outdir: 'dist',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  loader: { '.css': 'css' },
});

// The PDF report page: its own bundle, loaded only in a panel that shows a PDF. pdf.js's viewer styles
// bring their icons (files next to the bundle, so the page's CSP needs no data: images).
if (fs.existsSync('webview-ui/pdf/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { 'pdf-view': 'webview-ui/pdf/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'css', '.svg': 'file', '.gif': 'file' },
    assetNames: 'pdf-assets/[name]-[hash]',
  });
}

/** pdf.js's worker ships built and minified: it is copied as it is, next to the page that starts it. */
function copyPdfWorker() {
  const from = require.resolve('pdfjs-dist/build/pdf.worker.min.mjs');
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(from, 'dist/pdf.worker.mjs');
}

/** A bundle's name is its (first) entry name (`extension`, `cli`, `webview-ui`); the test groups have none. */
function nameOf(build) {
  return Array.isArray(build.entryPoints) ? undefined : Object.keys(build.entryPoints)[0];
}

async function main() {
  if (only && only.length === 0) throw new Error('--only needs entry names, e.g. --only cli');
  const selected = only ? builds.filter((b) => only.includes(nameOf(b))) : builds;
  const unknown = (only ?? []).filter((n) => !builds.some((b) => nameOf(b) === n));
  if (unknown.length > 0) throw new Error(`--only: no bundle named ${unknown.join(', ')}`);
  if (watch) {
    const contexts = await Promise.all(selected.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('[esbuild] watching');
    return;
  }
  await Promise.all(
    selected.map(async (b) => {
      const name = nameOf(b);
      const result = await esbuild.build({ ...b, metafile: metafile && name !== undefined });
      if (result.metafile) {
        fs.mkdirSync('out', { recursive: true });
        fs.writeFileSync(`out/meta-${name}.json`, JSON.stringify(result.metafile));
      }
    }),
  );
  if (selected.some((b) => nameOf(b) === 'pdf-view')) copyPdfWorker();
  if (selected.some((b) => nameOf(b) === 'cli')) writeDistPackageJson();
  console.log(`[esbuild] built ${selected.length} entry groups (${production ? 'production' : 'development'})`);
}

// Required (not run) by a test, it hands over the build options: the bundles tested are the ones shipped.
if (require.main === module) {
  main().catch((err) => {
    console.error(err && err.message ? err.message : err);
    process.exit(1);
  });
}
module.exports = { builds };
