// The built PDF report page in real headless Chromium, under the CSP the extension gives it: a 200-page
// report from the local gateway's own PDF writer drawn lazily and searched, a damaged file and a hostile
// one (a script and a link) refused or made harmless, and the themes. Screenshots in test-results/.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeNonce, pdfDirectives, renderShell } from '../../src/extension/results/html';
import { renderPdf, ROWS_PER_PAGE } from '../../src/local-gateway/pdf';
import type { HostToPdfPage, PdfPageToHost } from '../../src/shared/pdfProtocol';
import { said, typed } from '../../src/shared/said';
import { CSP_PROBE, launch, ROOT, stubScript, THEMES, themeClass } from './harness';
import { WAIT_MS } from '../fixtures/deadlines';

const ORIGIN = 'https://paygate-webview.test';
const SHOTS = path.join(ROOT, 'test-results');
const NEEDLE = 'NEEDLE-ORDER-7731';
const CONTENT_TYPES: Record<string, string> = { '.css': 'text/css', '.svg': 'image/svg+xml', '.gif': 'image/gif' };

interface PdfPage {
  page: Page;
  requests: string[];
  errors: string[];
  show(bytes: Uint8Array, title?: string): Promise<void>;
  posted(): Promise<PdfPageToHost[]>;
  violations(): Promise<string[]>;
}

async function openPdfPage(context: BrowserContext, theme: 'dark' | 'light' | 'high-contrast' = 'dark'): Promise<PdfPage> {
  for (const f of ['pdf-view.js', 'pdf-view.css', 'pdf.worker.mjs']) {
    if (!fs.existsSync(path.join(ROOT, 'dist', f))) throw new Error(`dist/${f} is missing: run \`npm run build\` first`);
  }
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const nonce = makeNonce();
  const shell = renderShell({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/pdf-view.js`,
    styleUri: `${ORIGIN}/pdf-view.css`,
    title: 'PDF report',
    extraDirectives: pdfDirectives(ORIGIN),
    data: { worker: `${ORIGIN}/pdf.worker.mjs` },
  })
    .replace(/(<div id="app"[^>]*><\/div>)/, (m) => `${m}\n<script nonce="${nonce}">${stubScript(null)}</script>\n${CSP_PROBE}`)
    .replace('<body>', `<body class="${themeClass(theme)}">`)
    .replace('</head>', `<link rel="stylesheet" href="${ORIGIN}/theme.css">\n</head>`);
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    requests.push(route.request().url());
    if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
    if (url.pathname === '/harness.html') return route.fulfill({ status: 200, contentType: 'text/html', body: shell });
    if (url.pathname === '/theme.css') return route.fulfill({ status: 200, contentType: 'text/css', body: THEMES[theme] });
    const file = path.join(ROOT, 'dist', path.normalize(url.pathname).replace(/^[/\\]+/, ''));
    if (!file.startsWith(path.join(ROOT, 'dist')) || !fs.existsSync(file)) return route.fulfill({ status: 404, body: '' });
    const type = CONTENT_TYPES[path.extname(file)] ?? 'text/javascript';
    return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
  });
  await page.goto(`${ORIGIN}/harness.html`);
  return {
    page,
    requests,
    errors,
    async show(bytes, title = 'Transactions (local)') {
      const msg = {
        type: 'pdf' as const,
        title: { said: [title] },
        info: { template: 'transactions.report.json', environment: 'local', bytes: bytes.length },
      };
      await page.evaluate(
        ([m, b64]) => {
          const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          window.postMessage({ ...m, data } satisfies HostToPdfPage, '*');
        },
        [msg, Buffer.from(bytes).toString('base64')] as const,
      );
      await page.waitForFunction(() => ['ready', 'refused'].includes(document.body.dataset.state ?? ''), undefined, { timeout: WAIT_MS });
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: PdfPageToHost[] }).__posted),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
}

/** The local gateway's report writer, at 200 pages, with one order id only on a late page. */
function twoHundredPages(): Uint8Array {
  const rowsPerPage = ROWS_PER_PAGE;
  const rows = Array.from({ length: 200 * rowsPerPage - 5 }, (_, i) => [
    `Demo merchant`,
    String(100000 + i),
    i === 150 * rowsPerPage ? NEEDLE : `ORDER-${i}`,
    '2026-12-01 10:00:00',
    '29.900',
    'EUR',
    'Sale approved',
  ]);
  return renderPdf({
    title: 'Transactions',
    subtitle: 'local gateway',
    columns: ['Merchant_Name', 'Transaction_id', 'Merchant_OID', 'Created_date', 'Amount', 'Currency', 'Transaction_type'],
    widths: [2, 1, 2, 2, 1, 1, 2],
    rows,
  });
}

/** A one-page PDF with a script that runs on open and a link to an outside address, with a correct xref. */
function hostilePdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\("opened"\\);) >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R] >>',
    null, // the content stream, below
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Annot /Subtype /Link /Rect [40 180 360 230] /Border [0 0 0] /A << /S /URI /URI (https://phish.example.invalid/pay) >> >>',
  ];
  const content = 'BT /F1 18 Tf 50 200 Td (Click here to pay) Tj ET';
  objects[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const renderedPages = (page: Page) => page.$$eval('.pdfViewer .page', (ps) => ps.filter((p) => p.querySelector('canvas')).length);

describe('PDF report page in Chromium', () => {
  let context: BrowserContext;
  let close: () => Promise<void>;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ({ context, close } = await launch());
  });
  after(async () => close());

  it('draws a 200-page report lazily, and finds an order id on page 151', async () => {
    const h = await openPdfPage(context);
    await h.show(twoHundredPages());
    assert.equal(await h.page.getAttribute('body', 'data-state'), 'ready', (await h.page.textContent('.pdf-message')) ?? '');
    assert.equal(await h.page.getAttribute('body', 'data-pages'), '200');
    assert.equal(await h.page.$$eval('.pdfViewer .page', (ps) => ps.length), 200, 'every page has its place');
    await h.page.waitForSelector('.pdfViewer .page[data-page-number="1"] canvas', { timeout: WAIT_MS });
    const drawn = await renderedPages(h.page);
    assert.ok(drawn >= 1 && drawn <= 12, `only the pages in view and a few around them are drawn (${drawn})`);
    assert.match((await h.page.textContent('.report-facts')) ?? '', /^transactions\.report\.json · local · \d+(\.\d)? (KB|MB)$/);

    await h.page.keyboard.press('Control+f');
    assert.equal(await h.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Find in PDF');
    await h.page.keyboard.type(NEEDLE);
    await h.page.keyboard.press('Enter');
    await h.page.waitForFunction(() => /1 of 1 match/.test(document.querySelector('.pdf-find-count')?.textContent ?? ''), undefined, {
      timeout: WAIT_MS,
    });
    await h.page.waitForFunction(() => (document.querySelector('.pdf-page-input') as HTMLInputElement).value === '151', undefined, {
      timeout: WAIT_MS,
    });
    // The match is in the text layer (selectable text), on the page the search moved to.
    await h.page.waitForSelector('.page[data-page-number="151"] .textLayer .highlight', { timeout: WAIT_MS });
    const layerText = await h.page.textContent('.page[data-page-number="151"] .textLayer');
    assert.ok(layerText?.includes(NEEDLE));
    await h.page.screenshot({ path: path.join(SHOTS, 'pdf-200-pages-find.png') });
    assert.deepEqual(await h.violations(), ['style-src-elem inline'], 'only the harness probe is blocked');
    assert.ok(
      h.requests.every((r) => r.startsWith(ORIGIN)),
      `nothing is fetched from anywhere else: ${h.requests.join(', ')}`,
    );
    assert.deepEqual(h.errors, []);
    await h.page.close();
  });

  it('opens readable: fitted to the pane, and re-fitted when a narrow pane widens, until the person zooms', async () => {
    const h = await openPdfPage(context);
    await h.page.setViewportSize({ width: 420, height: 700 });
    await h.show(twoHundredPages());
    await h.page.waitForSelector('.pdfViewer .page[data-page-number="1"] canvas', { timeout: 30_000 });
    const pageWidth = () => h.page.$eval('.pdfViewer .page[data-page-number="1"]', (p) => p.getBoundingClientRect().width);
    const paneWidth = () => h.page.$eval('.pdf-container', (c) => c.clientWidth);
    const narrow = await pageWidth();
    await h.page.setViewportSize({ width: 1300, height: 800 });
    await h.page.waitForFunction(
      (w) => (document.querySelector('.pdfViewer .page[data-page-number="1"]')?.getBoundingClientRect().width ?? 0) > w * 2,
      narrow,
      {
        timeout: 30_000,
      },
    );
    const wide = await pageWidth();
    assert.ok(wide > (await paneWidth()) * 0.85, `the page fills the pane: ${wide} of ${await paneWidth()} px`);
    await h.page.screenshot({ path: path.join(SHOTS, 'pdf-fit-width.png') });
    // A zoom of the person's own is kept when the pane changes again.
    await h.page.getByRole('button', { name: 'Zoom out' }).click();
    const zoomed = await h.page.locator('.pdf-zoom').textContent();
    await h.page.setViewportSize({ width: 900, height: 800 });
    await h.page.waitForTimeout(300);
    assert.equal(await h.page.locator('.pdf-zoom').textContent(), zoomed);
    await h.page.close();
  });

  it('says a damaged PDF cannot be shown, without hanging', async () => {
    const h = await openPdfPage(context);
    const whole = twoHundredPages();
    const damaged = new Uint8Array([...Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R'), ...whole.subarray(400, 900)]);
    await h.show(damaged);
    assert.equal(await h.page.getAttribute('body', 'data-state'), 'refused');
    assert.match((await h.page.textContent('.pdf-message')) ?? '', /damaged or is not a PDF.*Save PDF/);
    const log = (await h.posted()).filter((m) => m.type === 'log' && m.level === 'warn');
    assert.equal(log.length, 1);
    await h.page.screenshot({ path: path.join(SHOTS, 'pdf-damaged.png') });
    await h.page.close();
  });

  it('runs no script of the PDF and hands its link to the host instead of following it', async () => {
    const h = await openPdfPage(context, 'light');
    await h.show(hostilePdf(), 'Hostile');
    assert.equal(await h.page.getAttribute('body', 'data-state'), 'ready', (await h.page.textContent('.pdf-message')) ?? '');
    const link = await h.page.waitForSelector('.annotationLayer a', { timeout: WAIT_MS });
    assert.equal(await link.getAttribute('href'), 'https://phish.example.invalid/pay', 'the link is shown');
    const pageUrl = h.page.url();
    await link.click();
    await h.page.waitForFunction(() => (window as unknown as { __posted: PdfPageToHost[] }).__posted.some((m) => m.type === 'openLink'));
    const asked = (await h.posted()).filter((m) => m.type === 'openLink');
    assert.deepEqual(asked, [{ type: 'openLink', url: 'https://phish.example.invalid/pay' }]);
    assert.equal(h.page.url(), pageUrl, 'the page did not navigate');
    assert.ok(!h.requests.some((r) => r.includes('phish')), 'nothing was fetched from the link');
    assert.deepEqual(h.errors, [], 'no alert from the PDF script');
    await h.page.screenshot({ path: path.join(SHOTS, 'pdf-hostile-light.png') });
    await h.page.close();
  });

  it('asks the host to save the bytes, and follows the theme around the page', async () => {
    const dark = await openPdfPage(context, 'dark');
    const hc = await openPdfPage(context, 'high-contrast');
    const bytes = hostilePdf();
    await dark.show(bytes);
    await hc.show(bytes);
    const bg = (p: Page) => p.$eval('.pdf-container', (e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(await bg(dark.page), await bg(hc.page));
    await dark.page.click('button:has-text("Save PDF")');
    assert.ok((await dark.posted()).some((m) => m.type === 'save'));
    // A Said (issue 38), laid out by the page: a card number in the path masked, the words as they were.
    const saved = said`Saved to ${typed.text('/tmp/4111 1111 1111 1111 r.pdf')}.`;
    await dark.page.evaluate((message) => window.postMessage({ type: 'saveDone', ok: true, message }, '*'), saved);
    await dark.page.waitForFunction(
      () => document.querySelector('.pdf-message')?.textContent === 'Saved to /tmp/4111 11** **** 1111 r.pdf.',
    );
    await hc.page.screenshot({ path: path.join(SHOTS, 'pdf-high-contrast.png') });
    await dark.page.close();
    await hc.page.close();
  });
});
