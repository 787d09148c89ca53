// Start-up weight: what a production bundle is made of, by package, from esbuild's metafile.
// `npm run bench:bundle` builds with --production --metafile and runs this; by default it reports the
// extension's four bundles: dist/extension.js (what the extension host loads on activation, the one the
// budget is for), dist/first-screen.js and dist/language-client.js (loaded right after) and dist/features.js
// (loaded on first use).
// Other bundles: pass their entry names (`cli`, `webview-ui`). Measures only; nothing here asserts a size.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** The package an input belongs to (`zod`, `@scope/name`), or our own folder (`src/core`, `webview-ui`). */
export function owner(input: string): string {
  // The innermost node_modules names the package (a nested copy belongs to itself, not to its parent).
  const nm = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!(?:.*\/)?node_modules\/)/.exec(input);
  if (nm) return nm[1];
  const own = /^(src\/[^/]+|[^/]+)\//.exec(input);
  return own ? `${own[1]}/ (ours)` : input;
}

export interface BundleSplit {
  file: string;
  bytes: number;
  parts: { owner: string; bytes: number }[];
  /** The budget's two sides: our code with its libraries (and the bundler's glue), and the LSP client. */
  ours: number;
  languageClient: number;
}

/** The extension's bundles, in the order the editor loads them. */
export const EXTENSION_BUNDLES = ['extension', 'first-screen', 'language-client', 'features'];

/** The budget of ours + libraries in the bundle loaded on activation (dist/extension.js). */
export const ACTIVATION_BUDGET_BYTES = 50 * 1000;

/** The language client and the packages it brings: weighed apart from ours + libraries. */
export const LANGUAGE_CLIENT_PACKAGES = [
  'vscode-languageclient',
  'vscode-languageserver-protocol',
  'vscode-jsonrpc',
  'vscode-languageserver-types',
];

export function isLanguageClient(owner: string): boolean {
  return LANGUAGE_CLIENT_PACKAGES.includes(owner);
}

export function splitBundle(meta: Metafile, file: string): BundleSplit {
  const output = meta.outputs[file];
  if (!output) throw new Error(`${file} is not in the metafile (outputs: ${Object.keys(meta.outputs).join(', ')})`);
  const byOwner = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
    byOwner.set(owner(input), (byOwner.get(owner(input)) ?? 0) + bytesInOutput);
  const counted = [...byOwner.values()].reduce((a, b) => a + b, 0);
  // What no input accounts for: esbuild's module wrappers and runtime helpers.
  if (output.bytes > counted) byOwner.set('(bundler glue)', output.bytes - counted);
  const parts = [...byOwner].map(([o, bytes]) => ({ owner: o, bytes })).sort((a, b) => b.bytes - a.bytes);
  const languageClient = parts.filter((p) => isLanguageClient(p.owner)).reduce((a, p) => a + p.bytes, 0);
  return { file, bytes: output.bytes, parts, ours: output.bytes - languageClient, languageClient };
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The split of dist/<entry>.js from out/meta-<entry>.json (written by `node esbuild.js --production --metafile`). */
export function readSplit(entry: string): BundleSplit {
  const metaPath = join(ROOT, 'out', `meta-${entry}.json`);
  let meta: Metafile;
  try {
    meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Metafile;
  } catch {
    throw new Error(`${metaPath}: not found; build it with 'node esbuild.js --production --metafile' (npm run bench:bundle)`);
  }
  return splitBundle(meta, `dist/${entry}.js`);
}

function report(entry: string): void {
  const split = readSplit(entry);
  const file = split.file;
  const onDisk = statSync(join(ROOT, file)).size;
  console.log(
    `${file}: ${split.bytes} bytes (${kib(split.bytes)})${onDisk !== split.bytes ? `; on disk ${onDisk} bytes (built since?)` : ''}`,
  );
  const width = split.parts.reduce((w, p) => Math.max(w, p.owner.length), 0);
  for (const p of split.parts) {
    console.log(
      `  ${p.owner.padEnd(width)}  ${String(p.bytes).padStart(8)}  ${kib(p.bytes).padStart(10)}  ${((100 * p.bytes) / split.bytes).toFixed(1).padStart(5)}%`,
    );
  }
  console.log(
    `  ours + libraries: ${split.ours} bytes (${kib(split.ours)}); language client: ${split.languageClient} bytes (${kib(split.languageClient)})`,
  );
}

if (require.main === module) {
  const entries = process.argv.slice(2);
  for (const entry of entries.length > 0 ? entries : EXTENSION_BUNDLES) report(entry);
}
