// `npm run bench:startup` (part of `npm run bench`): start-up in the real editor, as users get it. Builds
// the VSIX as a release does, installs it into code-server with a fresh extensions directory and runs the
// smoke suite, whose first test times the activation that opening a .rpcsv file causes, beside a reference
// measured in the same extension host (activating an extension that does nothing), and whose next test
// times how long from that open the first diagnostics take to show (what splitting the activation must not
// delay). The target is for every start, not a lucky one: the same VSIX is started RUNS times (each a
// fresh code-server, profile and extension host; after the first, only those timing tests run) and each
// start is set beside the target. Adds the four bundles' weight from esbuild's metafiles; prints a Markdown
// table and writes it to out/bench/startup.md. Measures only.
import { median, writeReadmeSection } from './report';
import { atMost, targetLines, type Target } from './table';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, ensureCodeServer, ensureSystemTools } from '../e2e/install';
import { runInstalledSmoke, type InstalledRun, type StartupFigures } from '../e2e/installed';
import { guardRun } from '../e2e/processes';
import { ACTIVATION_BUDGET_BYTES, kib, readSplit } from './bundle';

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'out', 'bench');
/** Starts of the installed VSIX (PAYGATE_BENCH_STARTS): the issue's target is "every one of 10 runs". */
const RUNS = Math.max(1, Number(process.env.PAYGATE_BENCH_STARTS ?? 10) || 10);
/** The smoke tests a repeated start runs: the fresh editor's check and the two timed ones. */
const TIMED_TESTS = 'is not active at start-up|activates it|rule book diagnostics';
/** Ours alone: evaluating dist/extension.js and activate() (issue 40's restated target). */
const OUR_ACTIVATION_TARGET_MS = 5;
/**
 * PAYGATE_BENCH_REFERENCE_LIKE_OURS=1 (test/e2e/installed.ts): the reference is an empty extension given our
 * TextMate grammar, language configuration and example text, and the host's time with ours is set beside
 * it (issue 40's restated target: the editor's work for any language with a grammar is not ours).
 */
const LIKE_OURS = process.env.PAYGATE_BENCH_REFERENCE_LIKE_OURS === '1';
const HOST_RATIO_TARGET = 1.1;

const bytes = (n: number) => `${n.toLocaleString('en-US')} B (${kib(n)})`;
const ms = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

/** One row per start: the activation, its split, the reference and the first diagnostics. */
function startRows(starts: (StartupFigures | undefined)[]): string[] {
  const row = (i: number, s: StartupFigures | undefined) =>
    s
      ? `| ${i + 1} | ${s.oursFirst === 1 ? 'ours' : 'reference'} | ${ms(s.activationMs)} | ${ms(s.beforeBundleMs)} | ${ms(s.bundleMs)} | ${ms(s.contextMs)} | ${ms(s.activateMs)} | ${ms(s.referenceMs)} | ${(s.activationMs / s.referenceMs).toFixed(1)}× | ${ms(s.firstDiagnosticsMs, 0)} |`
      : `| ${i + 1} | | not measured (its smoke run failed: see out/bench/startup-${i + 1}-*.log) | | | | | | | |`;
  const got = starts.filter((s): s is StartupFigures => s !== undefined);
  const med = (pick: (s: StartupFigures) => number | undefined) => median(got.map(pick).filter((x): x is number => x !== undefined));
  return [
    '| start | opened first | activation ms | before our bundle began to evaluate (the editor opening the file, finding us) | evaluating our bundle | the host preparing our context | our `activate()` | reference: an empty extension activated the same way, same host | activation ÷ reference | open → first diagnostics shown ms |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...starts.map((s, i) => row(i, s)),
    ...(got.length > 0
      ? [
          `| median | | ${ms(med((s) => s.activationMs))} | ${ms(med((s) => s.beforeBundleMs))} | ${ms(med((s) => s.bundleMs))} | ${ms(med((s) => s.contextMs))} | ${ms(med((s) => s.activateMs))} | ${ms(med((s) => s.referenceMs))} | ${median(got.map((s) => s.activationMs / s.referenceMs)).toFixed(1)}× | ${ms(
            med((s) => s.firstDiagnosticsMs),
            0,
          )} |`,
        ]
      : []),
  ];
}

/**
 * The per-start ratio (activation ÷ reference, both in one host) as a median and a spread, and apart by
 * which was opened first: an order bias shows as two different medians.
 */
function ratioSpread(starts: (StartupFigures | undefined)[]): string {
  const got = starts.filter((s): s is StartupFigures => s !== undefined);
  if (got.length === 0) return '';
  const ratio = (s: StartupFigures) => s.activationMs / s.referenceMs;
  const sorted = got.map(ratio).sort((a, b) => a - b);
  const x = (n: number) => `${n.toFixed(2)}×`;
  const byOrder = ([1, 0] as const).map((first) => {
    const rs = got.filter((s) => (s.oursFirst ?? 0) === first).map(ratio);
    return `${first ? 'ours' : 'the reference'} opened first ${rs.length > 0 ? `${x(median(rs))} (${rs.length})` : '–'}`;
  });
  return (
    `Activation ÷ reference per start: median ${x(median(sorted))}, from ${x(sorted[0])} to ${x(sorted[sorted.length - 1])}, ` +
    `middle half ${x(sorted[Math.floor((sorted.length - 1) / 4)])}–${x(sorted[Math.ceil((3 * (sorted.length - 1)) / 4)])}; ${byOrder.join(', ')}.`
  );
}

async function main(): Promise<number> {
  // Read before the VSIX build rebuilds dist/ (the same production build, without the metafile).
  const split = readSplit('extension');
  const screen = readSplit('first-screen');
  const client = readSplit('language-client');
  const features = readSplit('features');
  ensureSystemTools();
  const install = await ensureCodeServer();
  fs.mkdirSync(OUT, { recursive: true });
  // The first start runs the whole smoke suite on a VSIX built as a release builds it; the others start
  // that same VSIX again, each in a fresh editor.
  const runs: InstalledRun[] = [await runInstalledSmoke(install, OUT, { logName: 'startup-1', warmUp: true })];
  for (let i = 1; i < RUNS; i++) {
    // Which of the two timed opens comes first alternates (the first start opens the reference first).
    const oursFirst = i % 2 === 1;
    runs.push(
      await runInstalledSmoke(install, OUT, {
        vsix: runs[0].vsix,
        grep: TIMED_TESTS,
        logName: `startup-${i + 1}`,
        oursFirst,
        warmUp: true,
      }),
    );
    console.log(`[bench:startup] start ${i + 1} of ${RUNS}: activation ${ms(runs[i].startup?.activationMs)} ms`);
  }
  const starts = runs.map((r) => r.startup);
  const weights: [string, string][] = [
    ['`dist/extension.js` (loaded on activation), production', bytes(split.bytes)],
    [
      `its ours + libraries (budget ${ACTIVATION_BUDGET_BYTES / 1000} KB)`,
      `${bytes(split.ours)}, ${((100 * split.ours) / ACTIVATION_BUDGET_BYTES).toFixed(0)}% of the budget`,
    ],
    [
      '`dist/boundary.js` (the output boundary: loaded with the first log line, in the turn after activation)',
      bytes(fs.statSync(path.join(ROOT, 'dist', 'boundary.js')).size),
    ],
    ['`dist/first-screen.js` (status bar, CodeLenses, language detection: loaded in the turn after activation)', bytes(screen.bytes)],
    [
      '`dist/language-client.js` (loaded right after the first screen)',
      `${bytes(client.bytes)}, of which the language client ${kib(client.languageClient)}`,
    ],
    ['`dist/features.js` (loaded on the first command, tree view or restored panel)', bytes(features.bytes)],
    ['VSIX', bytes(runs[0].vsixBytes)],
  ];
  const largest = (parts: { owner: string; bytes: number }[]) =>
    parts
      .slice(0, 6)
      .map((p) => `${p.owner} ${kib(p.bytes)}`)
      .join(', ');
  const targets: Target[] = [atMost('`dist/extension.js`: ours + libraries', split.ours / 1000, ACTIVATION_BUDGET_BYTES / 1000, 'KB', 1)];
  // The target is ours alone (issue 40): evaluating our bundle and our activate(), every start. The rest of
  // the activation is the editor's (opening the file, finding us, preparing the context), which an empty
  // extension pays too: the table shows it beside the reference, not as our target.
  starts.forEach((s, i) => {
    const what = `our part of the activation (evaluating \`dist/extension.js\` + \`activate()\`), start ${i + 1} of ${RUNS}`;
    const ours = s?.bundleMs !== undefined && s.activateMs !== undefined ? s.bundleMs + s.activateMs : undefined;
    targets.push(
      ours !== undefined
        ? atMost(what, ours, OUR_ACTIVATION_TARGET_MS, 'ms', 1)
        : { what, target: `≤ ${OUR_ACTIVATION_TARGET_MS} ms`, figure: 'not measured', met: false },
    );
  });
  const ratios = starts.filter((s): s is StartupFigures => s !== undefined).map((s) => s.activationMs / s.referenceMs);
  if (LIKE_OURS && ratios.length > 0)
    targets.push(
      atMost(
        `the activation ÷ an empty extension's given our grammar, configuration and text (the same kind of language), median of ${RUNS} starts`,
        median(ratios),
        HOST_RATIO_TARGET,
        '×',
        1,
      ),
    );
  const md = [
    `| Start-up (code-server ${CODE_SERVER_VERSION}, the installed VSIX) | |`,
    '|---|---|',
    ...weights.map(([k, v]) => `| ${k} | ${v} |`),
    '',
    `Largest parts of \`dist/extension.js\`: ${largest(split.parts)}; of \`dist/first-screen.js\`: ${largest(screen.parts)}.`,
    '',
    `Activation is from opening a \`.rpcsv\` file to our \`activate()\` returning, on the extension host's clock, in ${RUNS} starts of the same VSIX, each in a fresh code-server ` +
      '(the split: the editor opening the file and finding us, evaluating `dist/extension.js`, the host preparing our context, our `activate()`). ' +
      (LIKE_OURS
        ? "The reference is an extension that does nothing but whose language has our TextMate grammar and language configuration and whose file our example's text (PAYGATE_BENCH_REFERENCE_LIKE_OURS=1), activated the same way in the same host: what the editor itself costs for such a file. "
        : 'The reference is an extension that does nothing, activated the same way in the same host: what the editor itself costs. ') +
      'Before the two timed opens the editor opens a plain text file and shows an INI file (a built-in grammar) for 2 s, so its first open and first grammar load fall on neither; ' +
      'the reference is opened first in odd starts and in even ones after ours, once our start-up has settled (our first diagnostics shown). ' +
      'First diagnostics: from the same open to the problems shown (what the lazy first screen must not delay).',
    '',
    ...startRows(starts),
    '',
    ratioSpread(starts),
    '',
    ...targetLines(targets),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'startup.md'), md);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('startup', md.trimEnd());
  console.log('');
  console.log(md);
  const passed = runs.reduce((n, r) => n + r.passed, 0);
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  console.log(
    `(written to ${path.relative(ROOT, path.join(OUT, 'startup.md'))}; smoke suites ${passed} passed, ${failed} failed over ${RUNS} starts)`,
  );
  return runs.some((r) => r.code !== 0) ? 1 : 0;
}

// Each start is a code-server of its own (about 30 to 60 s on a busy machine).
const guard = guardRun('bench:startup', 600 + 120 * RUNS);
main().then(
  (code) => guard.finish(code),
  (err: unknown) => {
    console.error(`[bench:startup] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return guard.finish(1);
  },
);
