// Headless Chromium (Debian's) driven by playwright-core. Runs as root in CI, so no sandbox; a fresh
// profile each time; and a resolver that knows only loopback, so nothing the workbench or the browser
// tries in the background can leave this machine.
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from './install';
import { onCleanup } from './processes';
import { LONG } from './workbench';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication',
  '--no-pings',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export async function launchBrowser(opts: { headless?: boolean } = {}): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium not found: run test/e2e/setup-system.sh or set PAYGATE_CHROMIUM');
  // playwright-core creates and removes a fresh user-data-dir for launch().
  const browser = await chromium.launch({
    executablePath,
    headless: opts.headless ?? true,
    args: CHROMIUM_ARGS,
    timeout: LONG,
    // Our own handlers stop the browser together with code-server; playwright still kills it at exit.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onCleanup('chromium', () => browser.close().catch(() => undefined));
  return browser;
}
