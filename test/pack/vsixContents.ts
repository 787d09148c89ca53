// What the VSIX may and must hold, shared by the unit test (vsce's list, no build) and the pack test
// (the real archive). Paths are relative to the extension folder, with forward slashes.

/** Files every VSIX must carry. */
export const REQUIRED_VSIX_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/extension.js',
  'dist/boundary.js',
  'dist/first-screen.js',
  'dist/language-client.js',
  'dist/features.js',
  'dist/webview-ui.js',
  'dist/webview-ui.css',
  'dist/forecast.js',
  'dist/forecast.css',
  'dist/pdf-view.js',
  'dist/pdf-view.css',
  'dist/pdf.worker.mjs',
  'media/icon.png',
  'schemas/report-template.schema.json',
  'syntaxes/language-configuration.json',
  'syntaxes/paygate-recurring-csv.tmLanguage.json',
  'syntaxes/report-template.code-snippets',
];

/** Where a shipped file may live: only what runs or what the Marketplace shows. */
const ALLOWED = [
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/,
  /^dist\/(extension|boundary|first-screen|language-client|features|language-server|webview-ui|forecast)\.js$/,
  /^dist\/(webview-ui|forecast)\.css$/,
  // The PDF report page: pdf.js's viewer, its worker (shipped built by pdf.js) and its icons.
  /^dist\/pdf-view\.(js|css)$/,
  /^dist\/pdf\.worker\.mjs$/,
  /^dist\/pdf-assets\/[^/]+\.(svg|gif)$/,
  /^syntaxes\/[^/]+\.(json|code-snippets)$/,
  /^schemas\/[^/]+\.json$/,
  /^media\/[^/]+\.png$/,
  /^media\/screenshots\/[^/]+\.png$/,
  // The activity bar icon: an SVG VS Code tints with the theme (not the source of a PNG).
  /^media\/views\/[^/]+\.svg$/,
];

/** Files the VSIX must never carry, named so a failure says why. */
const FORBIDDEN: [RegExp, string][] = [
  [/\.(ts|tsx|mts|cts)$/, 'TypeScript source'],
  [/\.map$/, 'source map'],
  [/^(test|src|webview-ui|out|node_modules|examples|docs)\//, 'source, test or build folder'],
  [/^dist\/cli\.js$/, 'the CLI bundle (it ships in the npm package)'],
  [/^schemas\/generate\.ts$|^media\/[^/]+\.(ts|svg)$/, 'generator or icon source'],
  [/\.(vsix|tgz)$/, 'a packaged artifact'],
];

/** Each problem with a list of packaged files, as text; empty when the list is right. */
export function vsixProblems(files: readonly string[]): string[] {
  const problems: string[] = [];
  const set = new Set(files);
  for (const f of REQUIRED_VSIX_FILES) if (!set.has(f)) problems.push(`missing: ${f}`);
  for (const f of files) {
    const forbidden = FORBIDDEN.find(([re]) => re.test(f));
    if (forbidden) problems.push(`${forbidden[1]}: ${f}`);
    else if (!ALLOWED.some((re) => re.test(f))) problems.push(`not on the allow-list: ${f}`);
  }
  return problems;
}

interface Manifest {
  main?: string;
  icon?: string;
  contributes?: {
    languages?: { configuration?: string }[];
    grammars?: { path?: string }[];
    snippets?: { path?: string }[];
    jsonValidation?: { url?: string }[];
  };
}

/** Every local file package.json points at, so an ignore rule cannot drop one the extension needs. */
export function manifestFiles(manifest: Manifest): string[] {
  const c = manifest.contributes ?? {};
  const paths = [
    manifest.main,
    manifest.icon,
    ...(c.languages ?? []).map((l) => l.configuration),
    ...(c.grammars ?? []).map((g) => g.path),
    ...(c.snippets ?? []).map((s) => s.path),
    ...(c.jsonValidation ?? []).map((j) => j.url),
  ];
  return paths.filter((p): p is string => typeof p === 'string' && !/^[a-z]+:/i.test(p)).map((p) => p.replace(/^\.\//, ''));
}
