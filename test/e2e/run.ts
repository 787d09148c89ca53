// `npm run test:e2e`: the extension's integration suite in a real VS Code (code-server + headless
// Chromium), then the person-style run (person.ts). The suite's result is what the page reports through
// window.codeAutomationExit — the server's own log says exit 0 even when tests fail, so it is not
// consulted. PAYGATE_E2E_PERSON=0 skips the person-style run; PAYGATE_TEST_GREP narrows the suite.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { startCodeServer } from './codeServer';
import { forwardConsole } from './console';
import { ensureCodeServer, ensureSystemTools } from './install';
import { runPersonStyle } from './person';
import { guardRun, isStopping, onCleanup, stopGroup } from './processes';

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
  const env: Record<string, string> = { PAYGATE_STATE_DIR: path.join(scratch, 'gateway-state'), PAYGATE_DATA_DIR: path.join(scratch, 'data'), PAYGATE_E2E: '1' };
  if (process.env.PAYGATE_TEST_GREP) env.PAYGATE_TEST_GREP = process.env.PAYGATE_TEST_GREP;

  const server = await startCodeServer({
    entry: install.entry,
    node: install.node,
    workspace,
    env,
    logFile: path.join(RESULTS, 'e2e-code-server.log'),
  });
  console.log(`[e2e] code-server ${install.version} on ${server.origin}`);

  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let exitCode: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exitCode = resolve));
  await page.exposeFunction('codeAutomationExit', (code: unknown) => exitCode(typeof code === 'number' ? code : 1));
  const output = forwardConsole(page, path.join(RESULTS, 'e2e-browser-console.log'));
  let finished = false;
  const serverDied = new Promise<number>((resolve) =>
    server.process.once('exit', (code, signal) => {
      if (finished || isStopping()) return;
      console.error(`[e2e] code-server exited early (code ${code}, signal ${signal}); see ${path.relative(ROOT, server.logFile)}`);
      resolve(1);
    }),
  );

  await page.goto(server.url({ extensionPath: ROOT, extensionTestsPath: testsModule }), { waitUntil: 'domcontentloaded' });
  const code = await Promise.race([exited, serverDied, output.hostCrashed]);
  finished = true;
  if (code !== 0) {
    await page.screenshot({ path: path.join(RESULTS, 'e2e-failure.png') }).catch(() => undefined);
  }
  const suite = parseSummary(output.summary()) ?? { passed: 0, failed: 1, skipped: 0 };
  if (code !== 0 && suite.failed === 0) suite.failed = 1; // the host said failure without a failing test
  const suiteSeconds = ((Date.now() - started) / 1000).toFixed(1);
  await browser.close();
  await stopGroup(server.process);

  let person = { passed: 0, failed: 0, skipped: 0 };
  if (process.env.PAYGATE_E2E_PERSON !== '0') {
    console.log('');
    const personStarted = Date.now();
    person = await runPersonStyle({ entry: install.entry, node: install.node, resultsDir: RESULTS });
    console.log(`[e2e] person-style run took ${((Date.now() - personStarted) / 1000).toFixed(1)}s; screenshots in test-results/person/`);
  }

  const total = { passed: suite.passed + person.passed, failed: suite.failed + person.failed, skipped: suite.skipped + person.skipped };
  console.log('');
  console.log(
    `[e2e] integration suite ${suite.passed} passed, ${suite.failed} failed (${suiteSeconds}s); ` +
      `person-style run ${person.passed} passed, ${person.failed} failed, ${person.skipped} skipped; ` +
      `total ${((Date.now() - started) / 1000).toFixed(1)}s${install.installSeconds ? ` including the code-server install (${install.installSeconds}s)` : ''}`,
  );
  // The closing line counts both, and comes last so CI reads it rather than a log line after it.
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  return code === 0 && total.failed === 0 && output.summary() ? 0 : 1;
}

function parseSummary(line: string | undefined): { passed: number; failed: number; skipped: number } | undefined {
  const m = line?.match(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : undefined;
}

const guard = guardRun('e2e', Number(process.env.PAYGATE_E2E_TIMEOUT_S || 900));
main().then(
  (code) => guard.finish(code),
  (err: unknown) => {
    console.error(`[e2e] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.log('0 passed, 1 failed');
    return guard.finish(1);
  },
);
