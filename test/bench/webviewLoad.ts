// The webview bench's report and its first question (test/bench/webview.ts): a generated custom report
// (the sample's 9 columns) left in the page as 1 MiB chunks, and a sort clicked while it loads.
import type { BrowserContext, Page } from 'playwright-core';
import { openPage } from '../webview/harness';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';

/**
 * How often the bench looks whether a measured view or summary is done (its figure is the page's own
 * performance measure, so looking less often adds nothing to it). Playwright's default looks at every
 * animation frame, which makes the page render 60 times a second for the bench alone: about a hundred
 * frames (commit, pre-paint) during a 5M-row grouping, some 200 ms of the page's main thread that no
 * editor asks of it.
 */
export const POLL_MS = 50;

/** A generated report (the sample's 9 columns) left in the page as 1 MiB chunks; returns its size. */
export async function generate(page: Page, rows: number): Promise<number> {
  // Generated in the page so the bench measures the page, not shipping 150 MB through the driver.
  // The columns travel as an argument: the function runs in the page, where no module of ours is.
  return page.evaluate(
    ({ n, columns }) => {
      const merchants = ['Demo Shop', 'Shop, Inc.', 'Acme', 'Zeta Ltd'];
      const types = ['sale', 'refund', 'chargeback'];
      const descs = ['Plain order', 'Two\r\nlines', 'He said "stop", then left', '<img src=x onerror=alert(1)>', 'Visa card payment'];
      const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
      // The host's chunks are UTF-8 bytes read from a file, which the editor transfers to the page.
      const encoder = new TextEncoder();
      const chunks: Uint8Array[] = [];
      let buf = columns.map(q).join(',') + '\r\n';
      let size = 0;
      let seed = 42;
      const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const p2 = (x: number) => String(x).padStart(2, '0');
      for (let i = 0; i < n; i++) {
        const d = 1 + Math.floor(rnd() * 28);
        const m = 1 + Math.floor(rnd() * 12);
        const created = `2025-${p2(m)}-${p2(d)} ${p2(Math.floor(rnd() * 24))}:${p2(Math.floor(rnd() * 60))}:${p2(Math.floor(rnd() * 60))}`;
        const amount = (rnd() * 10000).toFixed(3);
        buf +=
          [
            merchants[i % 4],
            String(1000000 + i),
            `ORD-${i}`,
            created,
            amount,
            i % 3 ? 'USD' : 'EUR',
            types[i % 3],
            descs[i % 5],
            `${p2(d)}.${p2(m)}.2025`,
          ]
            .map(q)
            .join(',') + '\r\n';
        if (buf.length >= 1 << 20) {
          chunks.push(encoder.encode(buf));
          size += chunks[chunks.length - 1].length;
          buf = '';
        }
      }
      chunks.push(encoder.encode(buf));
      size += chunks[chunks.length - 1].length;
      (window as unknown as { __chunks: Uint8Array[] }).__chunks = chunks;
      return size;
    },
    { n: rows, columns: [...REPORT_COLUMNS] },
  );
}

/**
 * Sorting while rows still arrive: a fresh page is fed the same report, and Amount is clicked as soon as
 * the first rows are on screen; the time of that view (over the rows so far) is returned.
 */
export async function sortWhileLoading(context: BrowserContext, rows: number): Promise<number> {
  const h = await openPage(context);
  const page = h.page;
  await page.evaluate('window.__name = (f) => f');
  await generate(page, rows);
  await page.evaluate(() => {
    const w = window as unknown as { __chunks?: Uint8Array[] };
    const chunks = w.__chunks!;
    delete w.__chunks;
    window.postMessage({ type: 'csvStart', title: { said: ['bench'] }, source: { kind: 'inline' } }, '*');
    for (const bytes of chunks) window.postMessage({ type: 'csvChunk', bytes }, '*', [bytes.buffer]);
    window.postMessage({ type: 'csvEnd' }, '*');
  });
  await page.waitForFunction(() => document.querySelectorAll('.row.data:not([hidden])').length > 0, undefined, { timeout: 600_000 });
  await page.locator('[role=columnheader][aria-colindex="5"]').click();
  await page.waitForFunction(() => performance.getEntriesByName('paygate:view').length > 0, undefined, { timeout: 600_000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('paygate:view')[0].duration);
  await page.close();
  return ms;
}
