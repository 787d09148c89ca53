// Proof of the artifact: the VSIX that `npm run package` builds, installed into code-server with a fresh
// extensions directory (`--install-extension`), then the smoke suite (test/smoke) run against that
// installed copy. Our extension is NOT loaded in development mode: the development path is an empty
// carrier extension that only exists because VS Code runs extension tests for a development session.
// PAYGATE_E2E_VSIX=<file> installs a VSIX built elsewhere instead of building one.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeServerInstall } from './install';
import { onCleanup } from './processes';
import { runSuite, type SuiteRun } from './suite';
import { workingCopy } from '../tools/working-copy';

const ROOT = path.resolve(__dirname, '..', '..');
export const RUNNER_EXTENSION = { publisher: 'paygate-test', name: 'paygate-smoke-runner' };

export interface StartupFigures {
  /** from opening a .rpcsv file to our activate() returning (the extension host's clock) */
  activationMs: number;
  /** the split of activationMs: before our bundle began to evaluate (the editor opening the file, finding us) */
  beforeBundleMs?: number;
  /** evaluating our bundle (its modules' top-level code) */
  bundleMs?: number;
  /** from the bundle evaluated to activate() being called (the host preparing the extension's context) */
  contextMs?: number;
  /** activate() itself */
  activateMs?: number;
  /** from that open to this test seeing isActive (it polls between other work, so later) */
  seenMs?: number;
  /** until openTextDocument resolved (the editor reading the file; overlaps the split) */
  openMs?: number;
  /** the reference: an extension that does nothing, activated by opening a file of its own language, same host */
  referenceMs: number;
  referenceBeforeBundleMs?: number;
  referenceContextMs?: number;
  /** 1 when ours was opened before the reference in this start, 0 after it */
  oursFirst?: number;
  /** from opening the same .rpcsv file to its first diagnostics being shown (absent when that test failed) */
  firstDiagnosticsMs?: number;
}

export interface InstalledRun extends SuiteRun {
  vsix: string;
  vsixBytes: number;
  startup?: StartupFigures;
}

function manifest(): { name: string; publisher: string; version: string } {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };
}

/**
 * `npm run package -- -o <file>`: the production build and vsce, exactly as a release makes it, in a copy
 * of the work tree: the production bundles it writes into dist/ would otherwise replace the development
 * build the person-style run beside it loads.
 */
function buildVsix(target: string, logFile: string): void {
  const copy = workingCopy(ROOT, 'paygate-e2e-vsix-');
  let r: SpawnSyncReturns<string>;
  try {
    r = spawnSync('npm', ['run', 'package', '--', '-o', target], { cwd: copy, encoding: 'utf8', timeout: 300_000 });
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
  fs.writeFileSync(logFile, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.status !== 0 || !fs.existsSync(target))
    throw new Error(
      `npm run package failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}); log: ${logFile}\n${(r.stderr ?? '').slice(-3000)}`,
    );
}

/** code-server's own CLI installs the VSIX, the way a user installs one. Returns the installed folder. */
function installVsix(install: CodeServerInstall, vsix: string, profile: string, logFile: string): string {
  const extensionsDir = path.join(profile, 'extensions');
  const userDataDir = path.join(profile, 'user-data');
  fs.mkdirSync(extensionsDir, { recursive: true });
  const r = spawnSync(
    install.node,
    [install.entry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXTENSIONS_GALLERY: '{}', PASSWORD: '', HASHED_PASSWORD: '' },
    },
  );
  fs.writeFileSync(logFile, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  const m = manifest();
  const installed = path.join(extensionsDir, `${m.publisher}.${m.name}-${m.version}`);
  if (r.status !== 0 || !fs.existsSync(path.join(installed, 'package.json'))) {
    throw new Error(
      `code-server --install-extension ${path.basename(vsix)} failed (exit ${r.status}); expected ${installed}; log: ${logFile}\n${(r.stdout ?? '').slice(-2000)}${(r.stderr ?? '').slice(-2000)}`,
    );
  }
  return installed;
}

/**
 * PAYGATE_BENCH_REFERENCE_LIKE_OURS=1 (bench:startup): the empty reference extension's language gets our
 * TextMate grammar and language configuration, and its file our example's text, so the editor's work for
 * such a language shows apart from our extension's (issue 40).
 */
const LIKE_OURS = process.env.PAYGATE_BENCH_REFERENCE_LIKE_OURS === '1';

/** The warm-up file of a language with a grammar (installed.test.ts opens it before the timed opens). */
const WARM_GRAMMAR_FILE = 'warm-up.ini';

/** The reference's language: a file of it activates the carrier as a .rpcsv file activates ours. */
export const REFERENCE_LANGUAGE = { id: 'paygate-startup-reference', extension: '.startupref' };

/**
 * The development-mode carrier, and the timing reference: an activate() that does nothing, activated the
 * way ours is, by opening a file of its own language, so both figures hold the editor's open and dispatch.
 */
function writeCarrier(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = {
    name: RUNNER_EXTENSION.name,
    publisher: RUNNER_EXTENSION.publisher,
    version: '0.0.0',
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: [`onLanguage:${REFERENCE_LANGUAGE.id}`],
    contributes: {
      languages: [
        {
          id: REFERENCE_LANGUAGE.id,
          extensions: [REFERENCE_LANGUAGE.extension],
          ...(LIKE_OURS ? { configuration: './language-configuration.json' } : {}),
        },
      ],
      ...(LIKE_OURS
        ? { grammars: [{ language: REFERENCE_LANGUAGE.id, scopeName: 'source.paygate-startup-reference', path: './grammar.json' }] }
        : {}),
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  if (LIKE_OURS) {
    // Our language's grammar and configuration under the reference's names: what the editor does for a
    // language with a TextMate grammar, without our extension's code (issue 40's host share).
    const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, 'syntaxes', 'paygate-recurring-csv.tmLanguage.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    fs.writeFileSync(path.join(dir, 'grammar.json'), JSON.stringify({ ...grammar, scopeName: 'source.paygate-startup-reference' }));
    fs.copyFileSync(path.join(ROOT, 'syntaxes', 'language-configuration.json'), path.join(dir, 'language-configuration.json'));
  }
  // Returns the moments ours does (src/extension/extension.ts), for the same figures.
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    [
      'const bundleStartedAt = performance.now();',
      'const evaluatedAt = bundleStartedAt;',
      'exports.activate = function () {',
      '  const activateCalledAt = performance.now();',
      '  return { startup: { bundleStartedAt, evaluatedAt, activateCalledAt, activatedAt: performance.now() } };',
      '};',
      '',
    ].join('\n'),
  );
}

export interface InstalledOptions {
  /** A VSIX built already (a repeated run of the same build); else PAYGATE_E2E_VSIX, else one is built. */
  vsix?: string;
  /** Only the smoke tests whose titles match (mocha's grep); else PAYGATE_TEST_GREP, else all. */
  grep?: string;
  /** Where this run's logs go under resultsDir (`installed` unless told). */
  logName?: string;
  /** Where its lines go (default: standard output and error), for a run beside another. */
  say?: (line: string) => void;
  /** bench:startup: warm the editor up before the timed opens (see installed.test.ts). */
  warmUp?: boolean;
  /** The timed opens: ours before the reference's (the bench alternates the order from start to start). */
  oursFirst?: boolean;
}

export async function runInstalledSmoke(
  install: CodeServerInstall,
  resultsDir: string,
  options: InstalledOptions = {},
): Promise<InstalledRun> {
  const testsModule = path.join(ROOT, 'out', 'test', 'smoke', 'index.js');
  if (!fs.existsSync(testsModule)) throw new Error(`${path.relative(ROOT, testsModule)} is missing: run \`npm run build\` first`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-installed-'));
  onCleanup('installed-smoke scratch', () => fs.rmSync(scratch, { recursive: true, force: true }));

  const given = options.vsix ?? process.env.PAYGATE_E2E_VSIX;
  let vsix = given ? path.resolve(given) : '';
  if (!vsix) {
    vsix = path.join(scratch, 'paygate.vsix');
    const t = Date.now();
    buildVsix(vsix, path.join(resultsDir, 'installed-package.log'));
    (options.say ?? console.log)(
      `[e2e] built ${path.basename(vsix)} (${fs.statSync(vsix).size} bytes) in ${((Date.now() - t) / 1000).toFixed(1)}s`,
    );
  }
  const profile = path.join(scratch, 'profile');
  const installed = installVsix(install, vsix, profile, path.join(resultsDir, 'installed-install.log'));
  (options.say ?? console.log)(`[e2e] installed into a fresh extensions directory: ${path.relative(scratch, installed)}`);

  const carrier = path.join(scratch, 'runner');
  writeCarrier(carrier);
  // What a user has: the example files, in a folder of their own (the VSIX ships none).
  const files = path.join(scratch, 'files');
  fs.cpSync(path.join(ROOT, 'examples'), files, { recursive: true });
  // For the start-up figures: a file no extension activates on (to warm the editor's open), one of a built-in
  // language with a TextMate grammar and no extension activating on it (INI: the editor's first grammar
  // load, which would otherwise fall on whichever of the two timed opens came first), and the reference's.
  fs.writeFileSync(path.join(files, 'warm-up.txt'), 'warm-up\n');
  fs.writeFileSync(path.join(files, WARM_GRAMMAR_FILE), '[warm-up]\nkey = value\n');
  // PAYGATE_BENCH_REFERENCE_LIKE_OURS=1: the reference's file holds our example's text (and its language our grammar).
  const referenceText = LIKE_OURS ? fs.readFileSync(path.join(ROOT, 'examples', 'mistakes.rpcsv'), 'utf8') : 'reference\n';
  fs.writeFileSync(path.join(files, `reference${REFERENCE_LANGUAGE.extension}`), referenceText);
  const report = path.join(scratch, 'startup.json');
  const env: Record<string, string> = {
    PAYGATE_SMOKE_FILES: files,
    PAYGATE_SMOKE_EXTENSIONS_DIR: path.join(profile, 'extensions'),
    PAYGATE_SMOKE_REPORT: report,
    // A `paygate gateway` the person running this may have would otherwise be the one `local` uses.
    PAYGATE_STATE_DIR: path.join(scratch, 'gateway-state'),
    // The submission ledger of this run only: never the user's (its resend guard would refuse the next run).
    PAYGATE_DATA_DIR: path.join(scratch, 'data'),
    PAYGATE_E2E: '1',
  };
  if (options.warmUp) env.PAYGATE_SMOKE_WARM_GRAMMAR = WARM_GRAMMAR_FILE;
  if (options.oursFirst) env.PAYGATE_SMOKE_OURS_FIRST = '1';
  const grep = options.grep ?? process.env.PAYGATE_TEST_GREP;
  if (grep) env.PAYGATE_TEST_GREP = grep;
  const run = await runSuite({
    label: 'installed VSIX smoke',
    entry: install.entry,
    node: install.node,
    workspace: files,
    env,
    profileDir: profile,
    extensionPath: carrier,
    testsModule,
    resultsDir,
    logName: options.logName ?? 'installed',
    say: options.say,
  });
  let startup: StartupFigures | undefined;
  try {
    startup = JSON.parse(fs.readFileSync(report, 'utf8')) as StartupFigures;
  } catch {
    // the timing test did not run or failed; the suite's count says so
  }
  return { ...run, vsix, vsixBytes: fs.statSync(vsix).size, startup };
}
