// What a merchant stumbled on in the table's grouped summary (issue 43, item 6), in real headless Chromium
// against the built page: the totals keep a DST payout apart from the sales; the exported chart says what
// it shows; and the header's count follows the rows after a chart's bar and then a saved view.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import type { PageToHost } from '../../src/shared/resultsProtocol';
import { csvChunks, launch, openPage, type PageHandle } from './harness';
import { summaryRows } from './summaryRead';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';

const line = (v: readonly string[]) => `${v.map((x) => `"${x.replace(/"/g, '""')}"`).join(',')}\r\n`;
// The local gateway's report after examples/valid.rpcsv: sales, one declined, and the DST row's payout.
const ROWS = [
  ['Demo Shop', '1', 'GYM-2027-0001', '2027-01-05 10:00:00', '29.900', 'EUR', 'Sale approved', 'Gym', '31.01.2027'],
  ['Demo Shop', '2', 'MAG-2027-0002', '2027-01-05 10:00:00', '12.500', 'EUR', 'Sale approved', 'Magazine', '31.01.2027'],
  ['Demo Shop', '3', 'PAY-2027-0004', '2027-01-05 10:00:00', '120.000', 'EUR', 'Payout approved', 'Payout', '31.01.2027'],
  ['Acme', '4', 'SAV-2027-0003', '2027-01-15 10:00:00', '9.990', 'EUR', 'Sale declined', 'Savings', '31.01.2027'],
  ['Acme', '5', 'USD-2027-0005', '2027-02-02 10:00:00', '5.000', 'USD', 'Sale approved', 'Gym', '28.02.2027'],
];
const REPORT = line(REPORT_COLUMNS) + ROWS.map(line).join('');

async function load(h: PageHandle): Promise<void> {
  await h.post({ type: 'csvStart', title: { said: ['Report'] }, source: { kind: 'inline' } });
  for (const piece of csvChunks(REPORT, 97)) await h.post(piece);
  await h.post({ type: 'csvEnd' });
  await h.waitReady();
}

describe("the table's grouped summary", () => {
  let context: BrowserContext;
  let close: () => Promise<void>;

  before(async () => ({ context, close } = await launch()));
  after(async () => close?.());

  // Fails before issue 43's fix: the totals row said "total EUR 172.390", the payout added into the sales.
  it("totals keep the payout apart from the charges, as the report's Transaction_type says", async () => {
    const h = await openPage(context);
    await load(h);
    await h.page.selectOption('.group-by[data-level="0"]', { label: 'Created_date' });
    await h.page.selectOption('.group-period', 'month');
    assert.deepEqual(await summaryRows(h.page), [
      ['Created_date (month)', 'Currency', 'Transaction_type (charges/payouts)', 'count', 'sum Amount'],
      ['2027-01', 'EUR', 'charges', '3', '52.390'],
      ['2027-01', 'EUR', 'payouts', '1', '120.000'],
      ['2027-02', 'USD', 'charges', '1', '5.000'],
      ['total EUR charges', '', '', '3', '52.390'],
      ['total EUR payouts', '', '', '1', '120.000'],
      ['total USD charges', '', '', '1', '5.000'],
    ]);
    assert.match((await h.page.textContent('.summary-notes')) ?? '', /a payout or a refund is never added to the charges/);
    // The summary's CSV export has the same totals.
    await h.page.click('.summary-export-csv');
    const csv = (await h.posted()).find((m): m is Extract<PageToHost, { type: 'export' }> => m.type === 'export');
    assert.deepEqual(
      csv?.rows.filter((r) => r[0].startsWith('total')),
      [
        ['total EUR charges', '', '', '3', '52.390'],
        ['total EUR payouts', '', '', '1', '120.000'],
        ['total USD charges', '', '', '1', '5.000'],
      ],
    );
    assert.deepEqual(h.errors, []);
  });

  // Fails before 2a313c4 (last session): the PNG was the bare chart, with no title, currency or filter.
  it('the exported PNG carries a caption: the table and aggregate, the currencies, the filter', async () => {
    const h = await openPage(context);
    await load(h);
    // Every text drawn on a canvas that is not on the page: the export's own canvas, not the chart's.
    await h.page.evaluate(() => {
      const w = window as unknown as { __drawn: string[] };
      w.__drawn = [];
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (
        this: CanvasRenderingContext2D,
        text: string,
        x: number,
        y: number,
        max?: number,
      ) {
        if (!this.canvas.isConnected) w.__drawn.push(text);
        return max === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, max);
      };
    });
    await h.page.fill('.query-where', 'Amount > 1');
    await h.page.press('.query-where', 'Enter');
    await h.page.selectOption('.group-by[data-level="0"]', { label: 'Merchant_Name' });
    await summaryRows(h.page);
    await h.page.click('.summary-export-png');
    const png = (await h.posted()).find((m): m is Extract<PageToHost, { type: 'exportImage' }> => m.type === 'exportImage');
    assert.ok(png, 'the chart was exported');
    const drawn = await h.page.evaluate(() => (window as unknown as { __drawn: string[] }).__drawn);
    assert.deepEqual(drawn, ['Report: sum Amount per group', 'Currency: EUR, USD', 'Filter: Amount > 1']);
    // The caption is a band above the chart: the image is taller than the chart's canvas (PNG's IHDR height).
    const bytes = Buffer.from(png.dataUrl.slice(png.dataUrl.indexOf(',') + 1), 'base64');
    const chartHeight = await h.page.$eval('.summary-chart canvas', (c) => (c as HTMLCanvasElement).height);
    assert.ok(bytes.readUInt32BE(20) > chartHeight, `${bytes.readUInt32BE(20)} > ${chartHeight}`);
  });

  // Fails before e95a37c (last session): the header kept the bar's "3 of 5 rows" beside a summary of 5.
  it("after a chart's bar and then a saved view, the header's count is the summary's", async () => {
    const h = await openPage(context);
    await load(h);
    await h.post({
      type: 'views',
      views: [{ name: 'By currency', groupBy: ['Currency'], sum: ['Amount'], template: 'transactions.report.json' }],
    });
    await h.page.selectOption('.group-by[data-level="0"]', { label: 'Merchant_Name' });
    await summaryRows(h.page);
    // Two bars (Acme, Demo Shop; the first currency's): a click on the left quarter of the plot is Acme's.
    const over = h.page.locator('.summary-chart .u-over');
    const box = (await over.boundingBox())!;
    await over.click({ position: { x: box.width * 0.25, y: box.height * 0.9 } });
    await h.page.waitForFunction(() => /^Group /.test(document.querySelector('.group-chip')?.textContent ?? ''));
    const drilled = await h.page.textContent('.count');
    assert.notEqual(drilled, '5 of 5 rows', 'the bar shows its own rows');
    await h.page.waitForSelector('.views:not([hidden])');
    await h.page.selectOption('.views', { label: 'By currency' });
    await summaryRows(h.page);
    const heading = (await h.page.textContent('.summary-heading')) ?? '';
    const matched = / (\d+) of (\d+) rows matched/.exec(heading);
    assert.ok(matched, heading);
    await h.page.waitForFunction((t) => document.querySelector('.count')?.textContent === t, `${matched[1]} of ${matched[2]} rows`, {
      timeout: 30_000,
    });
    assert.equal(await h.page.textContent('.count'), '5 of 5 rows');
  });
});
