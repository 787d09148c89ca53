// Reads the grouped summary's whole table as a person would see it: the summary lays out only the groups'
// rows in sight (webview-ui/query/summaryTable.ts), so this scrolls it from top to bottom, a view at a time,
// and keeps each row by its aria-rowindex. It fails unless it saw every row the table says it has
// (aria-rowcount), so a group that scrolling cannot reach fails the test that reads it.
import type { Page } from 'playwright-core';

/** Every row of the summary's table (header, groups, totals), each as its cells' text. */
export async function summaryRows(page: Page): Promise<string[][]> {
  await page.waitForSelector('.query-summary:not([hidden]) .summary-table', { timeout: 30_000 });
  await page.waitForFunction(() => document.body.dataset.grouped === 'true', undefined, { timeout: 30_000 });
  // No named function inside: tsx would wrap it in a helper (__name) the page does not have.
  const read = await page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('.query-summary')!;
    const table = document.querySelector<HTMLTableElement>('.summary-table')!;
    const seen = new Map<number, string[]>();
    scroller.scrollTop = 0;
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // Bounded: a view at a time, at most 10,000 views.
    for (let step = 0; step < 10_000; step++) {
      for (const tr of table.querySelectorAll<HTMLTableRowElement>('tr[aria-rowindex]'))
        seen.set(
          Number(tr.getAttribute('aria-rowindex')),
          [...tr.querySelectorAll('th,td')].map((c) => c.textContent ?? ''),
        );
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
      scroller.scrollTop += Math.max(1, scroller.clientHeight - 10);
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
    scroller.scrollTop = 0;
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const indexes = [...seen.keys()].sort((a, b) => a - b);
    return { count: Number(table.getAttribute('aria-rowcount')), indexes, rows: indexes.map((i) => seen.get(i)!) };
  });
  const expected = Array.from({ length: read.count }, (_, i) => i + 1);
  if (JSON.stringify(read.indexes) !== JSON.stringify(expected))
    throw new Error(`scrolling the summary showed rows ${read.indexes.length} of the ${read.count} it says it has`);
  return read.rows;
}
