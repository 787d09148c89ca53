// The built forecast page (dist/forecast.js, uPlot bundled in) in real headless Chromium, in the same
// shell and CSP as the extension's panel: it draws, switches the bucket size, lists the rows of a
// clicked bar, reveals a line, exports PNG/SVG/CSV, works from the keyboard, and follows the three themes.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { parseGatewayDate } from '../../src/core/dates';
import { defaultWindow, forecastBatch, rowsInBucket, type ForecastBy } from '../../src/core/forecast';
import { readBatch } from '../../src/core/rules/batch';
import type { ForecastHostToPage, ForecastPageToHost } from '../../src/shared/forecastProtocol';
import type { HostToPage } from '../../src/shared/resultsProtocol';
import { said, typed } from '../../src/shared/said';
import { launch, openPage, ROOT, type PageHandle } from './harness';

const SHOTS = path.join(ROOT, 'test-results');
const TODAY = parseGatewayDate('01.01.2027')!;
const HEADER =
  'client-orderid;rp_card_type;credit-card-number;currency;amount;amount-from;amount-to;period;interval;start-date;max-repeats-number';
const BATCH = [
  HEADER,
  'GYM-1;SRC;4111111111111111;EUR;29.90;;;month;1;31.01.2027;',
  'MAG-2;SRC;4111111111111111;EUR;;5.00;15.00;week;2;04.01.2027;26',
  'USD-3;SRC;4111111111111111;USD;120;;;month;3;15.02.2027;',
  'BAD-4;SRC;4111111111111111;EUR;10;;;month;1;2027-03-01;',
  '<img src=x onerror=alert(1)>;SRC;4111111111111111;EUR;1;;;;;10.03.2027;',
  // A payout to the receiver's card: its own outlined series, never in the EUR charges.
  'PAY-6;DST;6011111111111117;EUR;80.00;;;;;15.02.2027;',
].join('\r\n');
const batch = readBatch(BATCH);
const optionsBy = (by: ForecastBy) => ({ ...defaultWindow(TODAY), by, today: TODAY });
const runBy = (by: ForecastBy) => forecastBatch(batch, optionsBy(by));
const message = (by: ForecastBy, file = 'gym.rpcsv'): ForecastHostToPage => ({
  type: 'forecast',
  file,
  generation: 1,
  forecast: runBy(by).forecast,
});

const post = (h: PageHandle, m: ForecastHostToPage) => h.post(m as unknown as HostToPage);
const posted = async (h: PageHandle) => (await h.posted()) as unknown as ForecastPageToHost[];
const last = async <T extends ForecastPageToHost['type']>(h: PageHandle, type: T) =>
  (await posted(h)).filter((m): m is Extract<ForecastPageToHost, { type: T }> => m.type === type).pop();

async function show(h: PageHandle, by: ForecastBy): Promise<void> {
  await h.page.evaluate(() => delete document.body.dataset.state);
  await post(h, message(by));
  await h.waitReady();
}

/** How many pixels of the chart's canvas are painted (it is transparent where nothing is drawn). */
const painted = (h: PageHandle) =>
  h.page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>('.uplot canvas')!;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });

describe('forecast page in Chromium', () => {
  let context: BrowserContext;
  let close: () => Promise<void>;
  let h: PageHandle;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ({ context, close } = await launch());
    h = await openPage(context, { bundle: 'forecast' });
    await h.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    await show(h, 'month');
  });
  after(async () => close?.());

  it('handshakes, draws bars per currency, the totals and the skipped rows, under the strict CSP', async () => {
    assert.deepEqual((await posted(h))[0], { type: 'ready', version: 2 });
    assert.ok((await painted(h)) > 2000, 'the canvas has bars and lines on it');
    const totals = await h.page.locator('.totals').textContent();
    // 12 monthly charges of 29.90, 26 fortnightly of 5.00..15.00 and one of 1.00.
    assert.match(totals ?? '', /EUR: 39 charges, 489\.80\.\.749\.80/);
    assert.match(totals ?? '', /USD: 4 charges, 480\.00/);
    assert.match(totals ?? '', /EUR payouts: 1 payout, 80\.00/);
    assert.equal(await h.page.locator('.totals .swatch.payouts').count(), 1, 'the payouts are drawn apart, outlined');
    const skipped = await h.page.locator('.skipped').textContent();
    assert.match(skipped ?? '', /Skipped rows \(1; 5 counted\)/);
    assert.match(skipped ?? '', /line 5: start-date "2027-03-01"/);
    assert.deepEqual(h.errors, []);
    const paths = h.requests.map((u) => new URL(u).pathname).sort();
    assert.deepEqual(paths, ['/forecast.css', '/forecast.js', '/harness.html', '/theme-dark.css']);
    // Only the harness's own inline <style> probe is blocked: uPlot styles through the CSSOM.
    assert.deepEqual(await h.violations(), ['style-src-elem inline']);
    await h.page.screenshot({ path: path.join(SHOTS, 'forecast-dark.png') });
  });

  it('a tooltip per bar gives the period, the count and min..max', async () => {
    const box = (await h.page.locator('.uplot .u-over').boundingBox())!;
    const periods = runBy('month').forecast.currencies.EUR.map((b) => b.period);
    const all = [...new Set([...periods, ...runBy('month').forecast.currencies.USD.map((b) => b.period)])].sort();
    const i = all.indexOf('2027-02');
    await h.page.mouse.move(box.x + (box.width * (i + 0.5)) / all.length, box.y + box.height - 5);
    const tip = h.page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = (await tip.textContent()) ?? '';
    assert.match(text, /^2027-02/);
    assert.match(text, /EUR: 3 charges, 39\.90\.\.59\.90/);
    assert.match(text, /USD: 1 charge, 120\.00/);
    assert.match(text, /EUR payouts: 1 payout, 80\.00/);
  });

  it('a click on a bar asks for its rows; the list reveals a line; row text stays text', async () => {
    await h.page.mouse.down();
    await h.page.mouse.up();
    const ask = await last(h, 'bucket');
    assert.deepEqual(ask, { type: 'bucket', period: '2027-02' });
    const { rows, total } = rowsInBucket(batch, runBy('month'), '2027-02', 500);
    await post(h, { type: 'bucketRows', period: '2027-02', rows, total });
    await h.page.locator('.rows h2').waitFor();
    const items = h.page.locator('.rows li button');
    assert.equal(await items.count(), 4);
    assert.match((await items.nth(3).textContent()) ?? '', /PAY-6 · EUR · 1 payout, 80\.00/);
    assert.match((await h.page.locator('.rows h2').textContent()) ?? '', /Rows charging or paying out in 2027-02 \(4\)/);
    await items.nth(2).click();
    assert.deepEqual(await last(h, 'reveal'), { type: 'reveal', line: 4 });
    // The skipped row's reason is a button too, revealing its line.
    await h.page.locator('.skipped li button').first().click();
    assert.deepEqual(await last(h, 'reveal'), { type: 'reveal', line: 5 });
  });

  it('lists a row whose client-orderid is markup as text', async () => {
    const { rows, total } = rowsInBucket(batch, runBy('month'), '2027-03', 500);
    await post(h, { type: 'bucketRows', period: '2027-03', rows, total });
    await h.page.locator('.rows h2', { hasText: '2027-03' }).waitFor();
    assert.ok(((await h.page.locator('.rows').textContent()) ?? '').includes('<img src=x onerror=alert(1)>'));
    assert.equal(await h.page.locator('.rows img').count(), 0);
  });

  it('switches to weeks and days: asks the host, then draws the new buckets', async () => {
    await h.page.locator('button[data-by="week"]').click();
    assert.deepEqual(await last(h, 'setBy'), { type: 'setBy', by: 'week' });
    await show(h, 'week');
    assert.equal(await h.page.locator('button[data-by="week"]').getAttribute('aria-pressed'), 'true');
    assert.equal(await h.page.locator('button[data-by="month"]').getAttribute('aria-pressed'), 'false');
    assert.ok((await painted(h)) > 1000);
    await h.page.locator('button[data-by="day"]').click();
    assert.deepEqual(await last(h, 'setBy'), { type: 'setBy', by: 'day' });
    await show(h, 'day');
    await h.page.locator('.plot').focus();
    await h.page.keyboard.press('Home');
    assert.match((await h.page.locator('.tooltip').textContent()) ?? '', /^2027-01-04/);
  });

  it('is reachable from the keyboard: arrows move between periods, Enter lists one', async () => {
    await show(h, 'month');
    await h.page.locator('.plot').focus();
    await h.page.keyboard.press('ArrowRight');
    await h.page.keyboard.press('ArrowRight');
    assert.match((await h.page.locator('.tooltip').textContent()) ?? '', /^2027-02/);
    await h.page.keyboard.press('Enter');
    assert.deepEqual(await last(h, 'bucket'), { type: 'bucket', period: '2027-02' });
    await h.page.keyboard.press('End');
    await h.page.keyboard.press('Enter');
    assert.deepEqual(await last(h, 'bucket'), { type: 'bucket', period: '2027-12' });
  });

  it('exports PNG (the canvas), SVG (built from the buckets) and CSV (written by the host)', async () => {
    await h.page.locator('button[data-export="png"]').click();
    const png = await last(h, 'export');
    assert.ok(png?.format === 'png' && png.dataUrl.startsWith('data:image/png;base64,'));
    const bytes = Buffer.from(png.dataUrl.split(',')[1], 'base64');
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(bytes.length > 3000);
    await h.page.locator('button[data-export="svg"]').click();
    const svg = await last(h, 'export');
    assert.ok(svg?.format === 'svg');
    assert.ok(svg.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
    // One rect per non-empty bucket of each series (charges and payouts per currency), plus the background.
    const f = runBy('month').forecast;
    const buckets = [...Object.values(f.currencies), ...Object.values(f.payouts)].reduce((s, b) => s + b.length, 0);
    assert.equal((svg.svg.match(/<rect /g) ?? []).length, buckets + 1);
    assert.equal((svg.svg.match(/<polyline /g) ?? []).length, 3);
    assert.ok(svg.svg.includes('2027-02 EUR: 3 charges, 39.90..59.90'));
    assert.ok(svg.svg.includes('2027-02 EUR payouts: 1 payout, 80.00'));
    await h.page.locator('button[data-export="csv"]').click();
    assert.deepEqual(await last(h, 'export'), { type: 'export', format: 'csv' });
    await post(h, { type: 'exportDone', ok: true, message: said`Exported to ${typed.text('/tmp/x.csv')}.` });
    await h.page.locator('.status', { hasText: 'Exported to /tmp/x.csv.' }).waitFor();
  });

  it("says the batch's name and window on its status line, a card number in the name masked (issue 38)", async () => {
    await h.page.evaluate(() => delete document.body.dataset.state);
    await post(h, message('month', '4111 1111 1111 1111.rpcsv'));
    await h.waitReady();
    const { from, to } = runBy('month').forecast.window;
    // Before, the page set the composed line as it was: the card number was shown whole.
    assert.equal(await h.page.locator('.status').textContent(), `4111 11** **** 1111.rpcsv: ${from} to ${to}`);
    await show(h, 'month');
  });

  it('follows the light and high-contrast themes', async () => {
    for (const theme of ['light', 'high-contrast'] as const) {
      const page = await openPage(context, { bundle: 'forecast', theme });
      await page.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
      await post(page, message('month'));
      await page.waitReady();
      const bg = await page.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)');
      assert.ok((await painted(page)) > 2000);
      await page.page.screenshot({ path: path.join(SHOTS, `forecast-${theme}.png`) });
      await page.page.close();
    }
  });
});
