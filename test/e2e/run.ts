// `npm run test:e2e`: in a real VS Code (code-server + headless Chromium), two runs side by side, each with
// its own code-server (its own port on 127.0.0.1, profile and workspace copy), its own browser and its own
// local gateway state: here, the extension's integration suite in development mode, then the smoke suite
// against the VSIX installed as a user installs it (installed.ts); beside it, in a process of its own, the
// person-style run (person.ts, with the team ledger's part), whose output is printed whole after this
// one's. Both mostly wait on the editor, so side by side they take about the longer one's time.
// PAYGATE_E2E_INSTALLED=0 skips the installed run, PAYGATE_E2E_PERSON=0 the person-style one;
// PAYGATE_TEST_GREP narrows the suites.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer, ensureSystemTools } from './install';
import { runInstalledSmoke } from './installed';
import { guardRun, onCleanup, stopGroup } from './processes';
import { parseSummary, runSuite, type SuiteCounts } from './suite';

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'test-results');
const DEADLINE_S = Number(process.env.PAYGATE_E2E_TIMEOUT_S || 1800);

/**
 * `tsx test/e2e/person.ts` in a process of its own (its own guard stops its editors, browsers and cluster),
 * its output kept and handed back whole with its counts once it ended. Stopped, with time to clean up,
 * when this run stops.
 */
function personBeside(): Promise<SuiteCounts & { output: string; seconds: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'person.ts')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PAYGATE_E2E_TIMEOUT_S: String(DEADLINE_S) },
  });
  // Its own cleanup stops code-server and the cluster (process groups of their own): time for that first.
  onCleanup('person-style run', () => stopGroup(child, 60_000));
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  return new Promise((resolve) => {
    child.once('error', (err) => (output += `[e2e] the person-style run did not start: ${err.message}\n`));
    child.once('close', (code, signal) => {
      const lines = output.trimEnd().split('\n');
      const counts = parseSummary(lines[lines.length - 1]?.trim()) ?? { passed: 0, failed: 1, skipped: 0 };
      if (code !== 0 && counts.failed === 0) counts.failed = 1; // it failed without a failing step
      if (code !== 0) output += `[e2e] the person-style run exited (code ${code}, signal ${signal})\n`;
      resolve({ ...counts, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  ensureSystemTools();
  const install = await ensureCodeServer();
  const testsModule = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(testsModule)) throw new Error(`${path.relative(ROOT, testsModule)} is missing: run \`npm run build\` first`);
  fs.mkdirSync(RESULTS, { recursive: true });

  // Suites may write into the workspace and the local gateway's state: both are throwaway copies.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-e2e-'));
  onCleanup('scratch', () => fs.rmSync(scratch, { recursive: true, force: true }));
  const workspace = path.join(scratch, 'workspace');
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'e2e', 'workspace'), workspace, { recursive: true });
  const env: Record<string, string> = {
    PAYGATE_STATE_DIR: path.join(scratch, 'gateway-state'),
    PAYGATE_DATA_DIR: path.join(scratch, 'data'),
    PAYGATE_E2E: '1',
  };
  if (process.env.PAYGATE_TEST_GREP) env.PAYGATE_TEST_GREP = process.env.PAYGATE_TEST_GREP;

  console.log(`[e2e] code-server ${install.version}`);
  const beside = process.env.PAYGATE_E2E_PERSON !== '0' ? personBeside() : undefined;
  if (beside) console.log('[e2e] person-style run started beside the suites; its steps are printed when it ends');
  const suiteRun = runSuite({
    label: 'integration suite (development mode)',
    entry: install.entry,
    node: install.node,
    workspace,
    env,
    extensionPath: ROOT,
    testsModule,
    resultsDir: RESULTS,
    logName: 'e2e',
  });
  // The installed VSIX's smoke suite takes whichever side frees first (the integration suite here, or the
  // person-style run beside it); its lines are kept and printed after the integration suite's.
  const installedLines: string[] = [];
  const installedRun =
    process.env.PAYGATE_E2E_INSTALLED === '0'
      ? undefined
      : Promise.race([suiteRun, beside ?? suiteRun]).then(() =>
          runInstalledSmoke(install, RESULTS, { say: (line) => installedLines.push(line) }),
        );
  installedRun?.catch(() => undefined); // awaited below, after the suite: not an unhandled rejection meanwhile
  const suite = await suiteRun;

  let installed: SuiteCounts & { code: number } = { passed: 0, failed: 0, skipped: 0, code: 0 };
  let installedLine = 'installed VSIX smoke skipped';
  if (installedRun) {
    const r = await installedRun.finally(() => console.log(['', ...installedLines].join('\n')));
    installed = r;
    installedLine = `installed VSIX smoke ${r.passed} passed, ${r.failed} failed (${r.seconds.toFixed(1)}s)`;
  }

  let person = { passed: 0, failed: 0, skipped: 0 };
  if (beside) {
    console.log('');
    const r = await beside;
    process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
    person = { passed: r.passed, failed: r.failed, skipped: r.skipped };
    console.log(`[e2e] person-style run took ${r.seconds.toFixed(1)}s beside the suites; screenshots in test-results/person/`);
  }

  const runs = [suite, installed, person];
  const total = {
    passed: runs.reduce((a, r) => a + r.passed, 0),
    failed: runs.reduce((a, r) => a + r.failed, 0),
    skipped: runs.reduce((a, r) => a + r.skipped, 0),
  };
  console.log('');
  console.log(
    `[e2e] integration suite ${suite.passed} passed, ${suite.failed} failed (${suite.seconds.toFixed(1)}s); ${installedLine}; ` +
      `person-style run ${person.passed} passed, ${person.failed} failed, ${person.skipped} skipped; ` +
      `total ${((Date.now() - started) / 1000).toFixed(1)}s${install.installSeconds ? ` including the code-server install (${install.installSeconds}s)` : ''}`,
  );
  // The closing line counts all three, and comes last so CI reads it rather than a log line after it.
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  return suite.code === 0 && installed.code === 0 && total.failed === 0 ? 0 : 1;
}

const guard = guardRun('e2e', DEADLINE_S);
main().then(
  (code) => guard.finish(code),
  (err: unknown) => {
    console.error(`[e2e] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.log('0 passed, 1 failed');
    return guard.finish(1);
  },
);
