// `npm run test:e2e`: in a real VS Code (code-server + headless Chromium), the extension's integration
// suite in development mode, then the smoke suite against the VSIX installed as a user installs it
// (installed.ts), then the person-style run (person.ts). PAYGATE_E2E_INSTALLED=0 skips the installed
// run, PAYGATE_E2E_PERSON=0 the person-style one; PAYGATE_TEST_GREP narrows the suites.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer, ensureSystemTools } from './install';
import { runInstalledSmoke } from './installed';
import { runPersonStyle } from './person';
import { runTeamPersonStyle } from './personTeam';
import { guardRun, onCleanup } from './processes';
import { runSuite, type SuiteCounts } from './suite';

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'test-results');

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
  const suite = await runSuite({
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

  let installed: SuiteCounts & { code: number } = { passed: 0, failed: 0, skipped: 0, code: 0 };
  let installedLine = 'installed VSIX smoke skipped';
  if (process.env.PAYGATE_E2E_INSTALLED !== '0') {
    console.log('');
    const r = await runInstalledSmoke(install, RESULTS);
    installed = r;
    installedLine = `installed VSIX smoke ${r.passed} passed, ${r.failed} failed (${r.seconds.toFixed(1)}s)`;
  }

  let person = { passed: 0, failed: 0, skipped: 0 };
  if (process.env.PAYGATE_E2E_PERSON !== '0') {
    console.log('');
    const personStarted = Date.now();
    const alone = await runPersonStyle({ entry: install.entry, node: install.node, resultsDir: RESULTS });
    // The team ledger's part, in an editor of its own with a throwaway PostgreSQL cluster (personTeam.ts).
    const team = await runTeamPersonStyle({ entry: install.entry, node: install.node, resultsDir: RESULTS });
    person = { passed: alone.passed + team.passed, failed: alone.failed + team.failed, skipped: alone.skipped + team.skipped };
    console.log(`[e2e] person-style run took ${((Date.now() - personStarted) / 1000).toFixed(1)}s; screenshots in test-results/person/`);
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

const guard = guardRun('e2e', Number(process.env.PAYGATE_E2E_TIMEOUT_S || 1800));
main().then(
  (code) => guard.finish(code),
  (err: unknown) => {
    console.error(`[e2e] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.log('0 passed, 1 failed');
    return guard.finish(1);
  },
);
