// `npm run bench:startup` (part of `npm run bench`): start-up in the real editor. Builds the VSIX as a
// release does, installs it into code-server with a fresh extensions directory and runs the smoke suite,
// whose first test times the activation that opening a .rpcsv file causes, beside a reference measured in
// the same extension host (activating an extension that does nothing), and whose next test times how long
// from that open the first diagnostics take to show (what splitting the activation must not delay). Adds
// the three bundles' weight from esbuild's metafiles; prints a Markdown table and writes it to
// out/bench/startup.md. Measures only.
import { writeReadmeSection } from './report';
import { atMost, targetLines } from './table';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, ensureCodeServer, ensureSystemTools } from '../e2e/install';
import { runInstalledSmoke } from '../e2e/installed';
import { guardRun } from '../e2e/processes';
import { ACTIVATION_BUDGET_BYTES, kib, readSplit } from './bundle';

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'out', 'bench');

const bytes = (n: number) => `${n.toLocaleString('en-US')} B (${kib(n)})`;

async function main(): Promise<number> {
  // Read before the VSIX build rebuilds dist/ (the same production build, without the metafile).
  const split = readSplit('extension');
  const client = readSplit('language-client');
  const features = readSplit('features');
  ensureSystemTools();
  const install = await ensureCodeServer();
  fs.mkdirSync(OUT, { recursive: true });
  const run = await runInstalledSmoke(install, OUT);
  const s = run.startup;
  const rows: [string, string][] = [
    ['`dist/extension.js` (loaded on activation), production', bytes(split.bytes)],
    [
      `its ours + libraries (budget ${ACTIVATION_BUDGET_BYTES / 1000} KB)`,
      `${bytes(split.ours)}, ${((100 * split.ours) / ACTIVATION_BUDGET_BYTES).toFixed(0)}% of the budget`,
    ],
    [
      '`dist/language-client.js` (loaded right after activation)',
      `${bytes(client.bytes)}, of which the language client ${kib(client.languageClient)}`,
    ],
    ['`dist/features.js` (loaded on the first command, tree view or restored panel)', bytes(features.bytes)],
    ['VSIX', bytes(run.vsixBytes)],
    [
      'activation after opening a `.rpcsv` file (installed VSIX)',
      s ? `${s.activationMs.toFixed(0)} ms` : 'not measured (see the smoke suite above)',
    ],
    ...(
      [
        ['of which before our bundle began to evaluate (the editor opening the file, finding us)', s?.beforeBundleMs],
        ['of which evaluating our bundle', s?.bundleMs],
        ['of which the host preparing our context (bundle evaluated → `activate()` called)', s?.contextMs],
        ['of which our `activate()`', s?.activateMs],
        ['`openTextDocument` resolving (the editor reading the file; overlaps the split)', s?.openMs],
        ["seen active by the test (after the host's next turns, which start loading the language client)", s?.seenMs],
      ] as [string, number | undefined][]
    ).map(([k, v]): [string, string] => [k, v === undefined ? '–' : `${v.toFixed(1)} ms`]),
    [
      'open → first diagnostics shown (installed VSIX)',
      s?.firstDiagnosticsMs !== undefined ? `${s.firstDiagnosticsMs.toFixed(0)} ms` : 'not measured (see the smoke suite above)',
    ],
    [
      'reference: an empty extension activated the same way (opening a file of its language), same host',
      s ? `${s.referenceMs.toFixed(0)} ms` : '–',
    ],
    ['activation ÷ reference', s && s.referenceMs > 0 ? `${(s.activationMs / s.referenceMs).toFixed(1)}×` : '–'],
    [
      'reference: of which before its bundle began to evaluate / the host preparing its context',
      s?.referenceBeforeBundleMs !== undefined && s.referenceContextMs !== undefined
        ? `${s.referenceBeforeBundleMs.toFixed(1)} / ${s.referenceContextMs.toFixed(1)} ms`
        : '–',
    ],
    ['activation − reference (what our extension adds)', s ? `${(s.activationMs - s.referenceMs).toFixed(0)} ms` : '–'],
  ];
  const largest = split.parts
    .slice(0, 6)
    .map((p) => `${p.owner} ${kib(p.bytes)}`)
    .join(', ');
  const targets = [atMost('`dist/extension.js`: ours + libraries', split.ours / 1000, ACTIVATION_BUDGET_BYTES / 1000, 'KB', 1)];
  if (s) targets.push(atMost('activation after opening a `.rpcsv` file', s.activationMs, 50, 'ms', 0));
  const md = [
    `| Start-up (code-server ${CODE_SERVER_VERSION}) | |`,
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
    '',
    `Largest parts of \`dist/extension.js\`: ${largest}.`,
    '',
    ...targetLines(targets),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'startup.md'), md);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('startup', md.trimEnd());
  console.log('');
  console.log(md);
  console.log(`(written to ${path.relative(ROOT, path.join(OUT, 'startup.md'))}; smoke suite ${run.passed} passed, ${run.failed} failed)`);
  return run.code;
}

const guard = guardRun('bench:startup', 600);
main().then(
  (code) => guard.finish(code),
  (err: unknown) => {
    console.error(`[bench:startup] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return guard.finish(1);
  },
);
