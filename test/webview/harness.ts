// Loads the BUILT results page (dist/webview-ui.js + .css) in headless Chromium inside the same HTML
// shell and CSP the extension uses, with acquireVsCodeApi stubbed. Every request is answered by
// page.route from local files, so nothing can leave the machine, and every request is recorded.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makeNonce, renderShell, tableDirectives } from '../../src/extension/results/html';
import type { HostToPage, PageToHost } from '../../src/shared/resultsProtocol';
import { WAIT_MS } from '../fixtures/deadlines';

export const ROOT = path.resolve(__dirname, '../..');
const ORIGIN = 'https://paygate-webview.test';
/** The results page's bundle: dist/, or another build's (PAYGATE_WEBVIEW_DIST, a bench comparing two versions). */
const PAGE_DIST = process.env.PAYGATE_WEBVIEW_DIST ?? path.join(ROOT, 'dist');
const ASSETS: Record<string, { file: string; type: string }> = {
  '/webview-ui.js': { file: path.join(PAGE_DIST, 'webview-ui.js'), type: 'text/javascript' },
  '/webview-ui.css': { file: path.join(PAGE_DIST, 'webview-ui.css'), type: 'text/css' },
  '/forecast.js': { file: path.join(ROOT, 'dist/forecast.js'), type: 'text/javascript' },
  '/forecast.css': { file: path.join(ROOT, 'dist/forecast.css'), type: 'text/css' },
};

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  for (const a of Object.values(ASSETS)) {
    if (!fs.existsSync(a.file)) throw new Error(`${a.file} is missing: run \`npm run build\` first`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.PAYGATE_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 700 },
    timeout: WAIT_MS,
  });
  // Every page's actions (a click, a wait, an evaluate) get a deadline that holds on a loaded machine.
  context.setDefaultTimeout(WAIT_MS);
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The stub VS Code gives a webview: postMessage to the host, and a state slot kept across reloads. */
export function stubScript(initialState: unknown): string {
  return `
window.__posted = []; window.__violations = []; window.__state = ${JSON.stringify(initialState ?? null).replace(/</g, '\\u003c')};
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
  getState: () => window.__state,
  setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); },
});`;
}

export interface PageHandle {
  page: Page;
  requests: string[];
  console: string[];
  errors: string[];
  post(msg: HostToPage): Promise<void>;
  posted(): Promise<PageToHost[]>;
  violations(): Promise<string[]>;
  state(): Promise<unknown>;
  waitReady(): Promise<void>;
}

export async function openPage(
  context: BrowserContext,
  options: {
    initialState?: unknown;
    theme?: 'dark' | 'light' | 'high-contrast';
    bundle?: 'webview-ui' | 'forecast';
    /** The policy's additions instead of the panel's own (to see the page without its worker). */
    extraDirectives?: string[];
  } = {},
): Promise<PageHandle> {
  const page = await context.newPage();
  const requests: string[] = [];
  const consoleLines: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const nonce = makeNonce();
  const theme = options.theme ?? 'dark';
  const shell = renderShell({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/${options.bundle ?? 'webview-ui'}.js`,
    styleUri: `${ORIGIN}/${options.bundle ?? 'webview-ui'}.css`,
    title: 'PayGate results',
    // The table page's own policy additions, as the panel gives them (its parse worker).
    extraDirectives: options.extraDirectives ?? ((options.bundle ?? 'webview-ui') === 'webview-ui' ? tableDirectives() : undefined),
  })
    // The stub runs first, under the same nonce, exactly as VS Code injects acquireVsCodeApi before page scripts.
    .replace(
      '<div id="app"></div>',
      () => `<div id="app"></div>\n<script nonce="${nonce}">${stubScript(options.initialState)}</script>\n${CSP_PROBE}`,
    )
    .replace('<body>', `<body class="${themeClass(theme)}">`)
    .replace('</head>', `<link rel="stylesheet" href="${ORIGIN}/theme-${theme}.css">\n</head>`);
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    requests.push(route.request().url());
    if (url.origin === ORIGIN && url.pathname === '/harness.html') {
      return route.fulfill({ status: 200, contentType: 'text/html', body: shell });
    }
    if (url.origin === ORIGIN && url.pathname === `/theme-${theme}.css`) {
      return route.fulfill({ status: 200, contentType: 'text/css', body: THEMES[theme] });
    }
    const asset = url.origin === ORIGIN ? ASSETS[url.pathname] : undefined;
    if (asset) return route.fulfill({ status: 200, contentType: asset.type, body: fs.readFileSync(asset.file) });
    return route.abort('blockedbyclient');
  });
  await page.goto(`${ORIGIN}/harness.html`);
  const handle: PageHandle = {
    page,
    requests,
    console: consoleLines,
    errors,
    // As the editor's webview host does, a chunk's bytes move to the page (transferred), not copied.
    post: (msg) =>
      page.evaluate((m) => {
        const bytes = (m as { bytes?: unknown }).bytes;
        window.postMessage(m, '*', bytes instanceof Uint8Array ? [bytes.buffer] : []);
      }, msg as unknown),
    posted: () => page.evaluate(() => (window as unknown as { __posted: PageToHost[] }).__posted),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
    state: () => page.evaluate(() => (window as unknown as { __state: unknown }).__state),
    waitReady: () => page.waitForSelector('body[data-state="ready"]', { timeout: WAIT_MS }).then(() => undefined),
  };
  return handle;
}

/** A CSV's csvChunk messages as the host sends them: UTF-8 bytes, `size` at a time, cut anywhere. */
export function csvChunks(text: string, size: number): HostToPage[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: HostToPage[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push({ type: 'csvChunk', bytes: bytes.slice(at, at + size) });
  return chunks;
}

export function themeClass(theme: string): string {
  if (theme === 'light') return 'vscode-light';
  return theme === 'high-contrast' ? 'vscode-high-contrast' : 'vscode-dark';
}

/**
 * An inline <style> after the stub: the CSP must block it (one style-src-elem violation), which shows
 * the policy is in force and has no 'unsafe-inline'.
 */
export const CSP_PROBE = '<style>body { outline: 5px solid red; }</style>';

// A handful of the variables VS Code sets on <html>, enough to see each theme applied.
export const THEMES: Record<'dark' | 'light' | 'high-contrast', string> = {
  dark: `:root { --vscode-editor-background: #1e1e1e; --vscode-editor-foreground: #d4d4d4; --vscode-editorGroupHeader-tabsBackground: #252526;
    --vscode-editorGroup-border: #444444; --vscode-list-hoverBackground: #2a2d2e; --vscode-list-activeSelectionBackground: #04395e;
    --vscode-list-activeSelectionForeground: #ffffff; --vscode-focusBorder: #007fd4; --vscode-input-background: #3c3c3c;
    --vscode-input-foreground: #cccccc; --vscode-button-secondaryBackground: #3a3d41; --vscode-button-secondaryForeground: #cccccc;
    --vscode-descriptionForeground: #ccccccb3; --vscode-errorForeground: #f48771; --vscode-testing-iconPassed: #73c991;
    --vscode-font-family: sans-serif; --vscode-editor-font-family: monospace; --vscode-font-size: 13px; }`,
  light: `:root { --vscode-editor-background: #ffffff; --vscode-editor-foreground: #000000; --vscode-editorGroupHeader-tabsBackground: #f3f3f3;
    --vscode-editorGroup-border: #e7e7e7; --vscode-list-activeSelectionBackground: #0060c0; --vscode-list-activeSelectionForeground: #ffffff; }`,
  'high-contrast': `:root { --vscode-editor-background: #000000; --vscode-editor-foreground: #ffffff; --vscode-contrastBorder: #6fc3df;
    --vscode-contrastActiveBorder: #f38518; --vscode-editorGroup-border: #6fc3df; --vscode-focusBorder: #f38518; }`,
};
