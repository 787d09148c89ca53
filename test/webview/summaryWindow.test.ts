// The grouped summary's table is windowed (issue 40): with 1,500 groups only the rows in sight are laid out,
// yet every group is reachable by scrolling and by the keys, a selection's copy takes in the groups past the
// rows on the page, and the table's aria-rowcount and each row's aria-rowindex are the whole table's.
// In real headless Chromium against the built page. Before the window, every group's row was on the page
// (the first assertion fails there: 1,500 rows laid out), and a thousand of them took ~100 ms of layout.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageToHost } from '../../src/shared/resultsProtocol';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { csvChunks, launch, openPage, type PageHandle } from './harness';
import { summaryRows } from './summaryRead';

const GROUPS = 1500;
const line = (v: readonly string[]) => `${v.join(',')}\r\n`;
const shop = (i: number) => `Shop ${String(i).padStart(4, '0')}`;
// A merchant per row, and row i's amount i.000 EUR: a group per merchant, each of one row.
const ROWS = Array.from({ length: GROUPS }, (_, i) => [
  shop(i),
  String(i + 1),
  `OID-${i}`,
  '2027-01-05 10:00:00',
  `${i + 1}.000`,
  'EUR',
  'Sale approved',
  'Gym',
  '31.01.2027',
]);
const REPORT = line(REPORT_COLUMNS) + ROWS.map(line).join('');

async function grouped(h: PageHandle): Promise<void> {
  await h.post({ type: 'csvStart', title: { said: ['Report'] }, source: { kind: 'inline' } });
  for (const piece of csvChunks(REPORT, 64 * 1024)) await h.post(piece);
  await h.post({ type: 'csvEnd' });
  await h.waitReady();
  await h.page.selectOption('.group-by[data-level="0"]', { label: 'Merchant_Name' });
  await h.page.waitForFunction(() => document.body.dataset.grouped === 'true', undefined, { timeout: 30_000 });
}

/** The groups' rows on the page, and each one's distance from where a whole table would put it. */
const laidOut = (page: Page) =>
  page.evaluate(() => {
    const trs = [...document.querySelectorAll<HTMLElement>('.summary-table tbody tr.group')];
    const top = document.querySelector('.summary-table tbody')!.getBoundingClientRect().top;
    const h = trs[0].getBoundingClientRect().height;
    const drift = trs.map((tr) => Math.abs(tr.getBoundingClientRect().top - top - Number(tr.dataset.index) * h));
    return { count: trs.length, indexes: trs.map((tr) => Number(tr.dataset.index)), drift: drift.reduce((a, b) => Math.max(a, b), 0) };
  });

const focused = (page: Page) =>
  page.evaluate(() => ({
    rowIndex: document.activeElement?.getAttribute('aria-rowindex') ?? null,
    merchant: document.activeElement?.querySelector('td')?.textContent ?? null,
  }));

describe("the grouped summary's table, windowed", () => {
  let context: BrowserContext;
  let close: () => Promise<void>;

  before(async () => ({ context, close } = await launch()));
  after(async () => close?.());

  it('lays out only the rows in sight, at their places, and scrolling reaches every group in order', async () => {
    const h = await openPage(context);
    await grouped(h);
    const first = await laidOut(h.page);
    assert.ok(first.count > 0 && first.count < 100, `${first.count} groups' rows laid out of ${GROUPS}`);
    assert.equal(first.indexes[0], 0);
    assert.equal(await h.page.getAttribute('.summary-table', 'aria-rowcount'), String(1 + GROUPS + 1));
    // Halfway down: other rows, still few, each where a whole table would have it (the spacers' heights).
    await h.page.$eval('.query-summary', (s) => (s.scrollTop = s.scrollHeight / 2));
    await h.page.waitForFunction(() => Number(document.querySelector('.summary-table tbody tr.group')?.getAttribute('data-index')) > 100);
    const middle = await laidOut(h.page);
    assert.ok(middle.count < 100, `${middle.count} rows laid out halfway`);
    // Within the collapsed borders' 1 px: a spacer of a wrong height would be off by rows, not pixels.
    assert.ok(middle.drift <= 1.5, `rows ${middle.drift} px from their places`);
    // Every group, read by scrolling, is the export's (which has every group), in the same order.
    const rows = await summaryRows(h.page);
    assert.deepEqual(rows[0], ['Merchant_Name', 'Currency', 'Transaction_type (charges/payouts)', 'count', 'sum Amount']);
    const groups = rows.slice(1, 1 + GROUPS);
    assert.deepEqual(
      groups.map((r) => r[0]),
      ROWS.map((r) => r[0]),
    );
    assert.deepEqual(groups[GROUPS - 1], [shop(GROUPS - 1), 'EUR', 'charges', '1', `${GROUPS}.000`]);
    assert.deepEqual(rows[1 + GROUPS], ['total EUR charges', '', '', '1,500', '1125750.000']);
    await h.page.click('.summary-export-csv');
    const csv = (await h.posted()).find((m): m is Extract<PageToHost, { type: 'export' }> => m.type === 'export');
    assert.deepEqual(csv?.rows.slice(0, GROUPS), groups);
    assert.deepEqual(h.errors, []);
  });

  it('the keys reach every group: End, Home, Page Down, arrows; Enter opens the one focused; Ctrl+C copies it', async () => {
    const h = await openPage(context);
    await grouped(h);
    await h.page.focus('.summary-table tr.group[data-index="0"]');
    await h.page.keyboard.press('End');
    assert.deepEqual(await focused(h.page), { rowIndex: String(GROUPS + 1), merchant: shop(GROUPS - 1) });
    await h.page.keyboard.press('ArrowUp');
    assert.deepEqual(await focused(h.page), { rowIndex: String(GROUPS), merchant: shop(GROUPS - 2) });
    await h.page.keyboard.press('Home');
    assert.deepEqual(await focused(h.page), { rowIndex: '2', merchant: shop(0) });
    await h.page.keyboard.press('PageDown');
    const paged = await focused(h.page);
    assert.ok(Number(paged.rowIndex) > 3, `Page Down went to row ${paged.rowIndex}`);
    assert.equal(paged.merchant, shop(Number(paged.rowIndex) - 2));
    await h.page.keyboard.press('ArrowDown');
    assert.equal((await focused(h.page)).merchant, shop(Number(paged.rowIndex) - 1));
    assert.ok((await laidOut(h.page)).count < 100);
    await h.page.keyboard.press('Control+c');
    const copied = (await h.posted()).filter((m) => m.type === 'copy').pop();
    assert.deepEqual(copied, {
      type: 'copy',
      text: `${shop(Number(paged.rowIndex) - 1)}\tEUR\tcharges\t1\t${paged.rowIndex}.000`,
      what: 'row',
    });
    await h.page.keyboard.press('End');
    await h.page.keyboard.press('Enter');
    await h.page.waitForFunction(() => /^Group /.test(document.querySelector('.group-chip')?.textContent ?? ''));
    assert.match((await h.page.textContent('.group-chip .chip-label')) ?? '', new RegExp(`^Group ${shop(GROUPS - 1)} · EUR`));
    assert.equal(await h.page.textContent('.count'), '1 of 1,500 rows');
    assert.deepEqual(h.errors, []);
  });

  it('a selection of the whole table copies every group, not only the rows on the page', async () => {
    const h = await openPage(context);
    await grouped(h);
    await h.page.evaluate(() => {
      const range = document.createRange();
      range.selectNode(document.querySelector('.summary-table')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      document.dispatchEvent(new ClipboardEvent('copy', { bubbles: true, cancelable: true }));
    });
    const copied = (await h.posted()).filter((m) => m.type === 'copy').pop();
    assert.ok(copied && copied.type === 'copy' && copied.what === 'rows');
    const lines = copied.text.split('\n');
    assert.equal(lines.length, 1 + GROUPS + 1);
    assert.equal(lines[0], 'Merchant_Name\tCurrency\tTransaction_type (charges/payouts)\tcount\tsum Amount');
    assert.equal(lines[GROUPS], `${shop(GROUPS - 1)}\tEUR\tcharges\t1\t${GROUPS}.000`);
    assert.equal(lines[GROUPS + 1], 'total EUR charges\t\t\t1,500\t1125750.000');
    // Back to the table (no Group by): a Select All's copy is the page's own, not the hidden summary's.
    await h.page.selectOption('.group-by[data-level="0"]', '');
    await h.page.waitForSelector('.query-summary', { state: 'hidden' });
    const copies = (await h.posted()).filter((m) => m.type === 'copy').length;
    const taken = await h.page.evaluate(() => {
      getSelection()!.selectAllChildren(document.body);
      const e = new ClipboardEvent('copy', { bubbles: true, cancelable: true });
      document.dispatchEvent(e);
      return e.defaultPrevented;
    });
    assert.equal(taken, false);
    assert.equal((await h.posted()).filter((m) => m.type === 'copy').length, copies);
  });
});
