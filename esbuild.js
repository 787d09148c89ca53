// Builds every entry point of the product. `--production` minifies; otherwise sourcemaps.
// `--watch` rebuilds on change. Exits non-zero when any build fails.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  // The extension runs in VS Code's extension host: CommonJS, `vscode` provided by the host.
  { ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', ...node, external: ['vscode'] },
  // The CLI is a plain Node program with a shebang so `npm link` / `npx paygate` work.
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', ...node, banner: { js: '#!/usr/bin/env node' } },
  // The language server runs in its own process: started by the extension over node IPC, by
  // `paygate lsp --stdio` (which bundles it too) or by any editor with `node dist/language-server.js --stdio`.
  { ...common, entryPoints: { 'language-server': 'src/language-server/main.ts' }, outdir: 'dist', ...node },
  // Integration tests run inside the extension host, next to the extension.
  { ...common, entryPoints: ['test/integration/index.ts', 'test/integration/*.test.ts'], outdir: 'out/test/integration', ...node, external: ['vscode', 'mocha'] },
];

// The results page is optional until its sources exist, so the skeleton builds on its own.
if (require('node:fs').existsSync('webview-ui/main.ts')) {
  builds.push({ ...common, entryPoints: { 'webview-ui': 'webview-ui/main.ts' }, outdir: 'dist', platform: 'browser', format: 'iife', target: 'es2022', loader: { '.css': 'css' } });
}

async function main() {
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('[esbuild] watching');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`[esbuild] built ${builds.length} entry groups (${production ? 'production' : 'development'})`);
}

main().catch((err) => {
  console.error(err && err.message ? err.message : err);
  process.exit(1);
});
