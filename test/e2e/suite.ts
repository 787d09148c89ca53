// Runs one bundled mocha suite inside code-server's extension host and reports what the page says.
// The suite's result is what the page reports through window.codeAutomationExit — the server's own log
// says exit 0 even when tests fail, so it is not consulted. Used for the development-mode integration
// suite and for the smoke suite against the installed VSIX.
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { startCodeServer, type StartOptions } from './codeServer';
import { forwardConsole } from './console';
import { isStopping, stopGroup } from './processes';
import { LONG } from './workbench';

export interface SuiteCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface SuiteRun extends SuiteCounts {
  /** 0 when the host reported success and a summary line was seen */
  code: number;
  seconds: number;
}

export interface SuiteOptions extends Omit<StartOptions, 'logFile'> {
  label: string;
  /** the extension loaded in development mode (ours, or the smoke suite's empty carrier) */
  extensionPath: string;
  /** the bundled runner module (out/test/…/index.js) */
  testsModule: string;
  resultsDir: string;
  /** file name stem for the logs and the failure screenshot in resultsDir */
  logName: string;
  /** where its lines go (default: standard output and error), for a suite run beside another */
  say?: (line: string) => void;
}

export async function runSuite(o: SuiteOptions): Promise<SuiteRun> {
  const started = Date.now();
  const server = await startCodeServer({ ...o, logFile: path.join(o.resultsDir, `${o.logName}-code-server.log`) });
  (o.say ?? console.log)(`[e2e] ${o.label}: code-server on ${server.origin}`);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultNavigationTimeout(LONG);
  let exitCode: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exitCode = resolve));
  await page.exposeFunction('codeAutomationExit', (code: unknown) => exitCode(typeof code === 'number' ? code : 1));
  const output = forwardConsole(page, path.join(o.resultsDir, `${o.logName}-browser-console.log`), o.say);
  let finished = false;
  const serverDied = new Promise<number>((resolve) =>
    server.process.once('exit', (code, signal) => {
      if (finished || isStopping()) return;
      (o.say ?? console.error)(`[e2e] code-server exited early (code ${code}, signal ${signal}); see ${server.logFile}`);
      resolve(1);
    }),
  );

  await page.goto(server.url({ extensionPath: o.extensionPath, extensionTestsPath: o.testsModule }), { waitUntil: 'domcontentloaded' });
  const code = await Promise.race([exited, serverDied, output.hostCrashed]);
  finished = true;
  if (code !== 0) await page.screenshot({ path: path.join(o.resultsDir, `${o.logName}-failure.png`) }).catch(() => undefined);
  const counts = parseSummary(output.summary()) ?? { passed: 0, failed: 1, skipped: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1; // the host said failure without a failing test
  await browser.close();
  await stopGroup(server.process);
  return { ...counts, code: code === 0 && output.summary() ? 0 : 1, seconds: (Date.now() - started) / 1000 };
}

export function parseSummary(line: string | undefined): SuiteCounts | undefined {
  const m = line?.match(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : undefined;
}
