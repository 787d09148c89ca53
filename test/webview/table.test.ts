// The results table as a new user meets it, in real headless Chromium: search matches highlighted, the
// empty state and its way out, pinned columns (the first by default, any from the header's menu, by mouse
// or keyboard), sorting and filtering while rows still arrive, and cells that tell the truth about line
// breaks and invisible or bidirectional characters. Screenshots go to test-results/.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { SubmissionView } from '../../src/shared/submissionView';
import { csvChunks, launch, openPage, ROOT, type PageHandle } from './harness';
import { WAIT_MS } from '../fixtures/deadlines';

const SHOTS = path.join(ROOT, 'test-results');
const FIXTURE = fs.readFileSync(path.join(ROOT, 'test/fixtures/webview/report-awkward.csv'), 'utf8');

async function loadCsv(h: PageHandle, text: string): Promise<void> {
  await h.post({ type: 'csvStart', title: { said: ['Report'] }, source: { kind: 'inline' } });
  for (const chunk of csvChunks(text, 101)) await h.post(chunk);
  await h.post({ type: 'csvEnd' });
  await h.waitReady();
}

const waitCount = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('.count')?.textContent === t, text, { timeout: WAIT_MS });

/** The cell of a data column (by header name) in the n-th rendered row (0-based, on-screen order). */
async function cellOf(page: Page, column: string, row: number) {
  const pos = await page.$$eval(
    '[role=columnheader]',
    (els, name) => els.findIndex((e) => e.querySelector('.label')?.textContent === name),
    column,
  );
  assert.ok(pos >= 0, `no column ${column}`);
  return page.locator(`.row.data[aria-rowindex="${row + 3}"] [role=gridcell][aria-colindex="${pos + 1}"]`);
}

const headerNames = (page: Page) => page.$$eval('[role=columnheader]', (els) => els.map((e) => e.querySelector('.label')!.textContent));

describe('the results table for a new user', () => {
  let context: BrowserContext;
  let close: () => Promise<void>;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    ({ context, close } = await launch());
  });
  after(async () => close?.());

  it("offers Reconcile… on a report, never on one record's details (a callback), where it cannot work", async () => {
    const report = await openPage(context);
    await loadCsv(report, FIXTURE);
    assert.equal(await report.page.locator('button#reconcile').isVisible(), true);
    const details = await openPage(context);
    await details.post({
      type: 'table',
      title: { said: ['Callback PERSON-2'] },
      columns: ['property', 'value'],
      rows: [
        ['id', 'cb_1'],
        ['field status', 'declined'],
      ],
      source: { kind: 'inline', details: true },
    });
    await details.waitReady();
    assert.equal(await details.page.locator('button#reconcile').isVisible(), false);
  });

  it('highlights search matches and, when nothing matches, says so and how to clear it', async () => {
    const h = await openPage(context);
    await loadCsv(h, FIXTURE);
    await h.page.fill('.search', 'ShOp');
    await waitCount(h.page, '6 of 12 rows');
    const marks = await h.page.$$eval('.row.data:not([hidden]) mark.hit', (els) => els.map((e) => e.textContent));
    assert.ok(marks.length >= 6, `${marks.length} highlights`);
    assert.ok(
      marks.every((m) => m?.toLowerCase() === 'shop'),
      JSON.stringify(marks),
    );
    // The highlighted cell still reads as its value.
    assert.equal(await (await cellOf(h.page, 'Merchant_Name', 0)).textContent(), 'Demo Shop');
    assert.equal(await h.page.locator('.empty').isVisible(), false);
    await h.page.screenshot({ path: path.join(SHOTS, 'webview-search-highlight.png') });

    await h.page.fill('.search', 'no such thing');
    await waitCount(h.page, '0 of 12 rows');
    const empty = h.page.locator('.empty');
    assert.equal(await empty.isVisible(), true);
    assert.equal(await empty.getAttribute('role'), 'status');
    assert.match(
      (await empty.textContent()) ?? '',
      /No rows match the search “no such thing”\. Press Escape in the search box to clear it/,
    );
    await h.page.screenshot({ path: path.join(SHOTS, 'webview-no-match.png') });
    await empty.getByRole('button', { name: 'Clear search' }).click();
    await waitCount(h.page, '12 of 12 rows');
    assert.equal(await h.page.inputValue('.search'), '');
    assert.equal(await empty.isVisible(), false);

    // Escape in the search box clears it too; a column filter is named and cleared with the search.
    await h.page.fill('input[aria-label="Filter Currency"]', 'zzz');
    await waitCount(h.page, '0 of 12 rows');
    assert.match((await empty.textContent()) ?? '', /the column filter/);
    await empty.getByRole('button', { name: 'Clear column filters' }).click();
    await waitCount(h.page, '12 of 12 rows');
    assert.equal(await h.page.inputValue('input[aria-label="Filter Currency"]'), '');
    await h.page.fill('.search', 'refund');
    await waitCount(h.page, '2 of 12 rows');
    await h.page.press('.search', 'Escape');
    await waitCount(h.page, '12 of 12 rows');
    assert.deepEqual(h.errors, []);
    await h.page.close();
  });

  it('pins the first column by default and any column from the header menu, by mouse or keyboard', async () => {
    const h = await openPage(context);
    await h.page.setViewportSize({ width: 700, height: 500 });
    await loadCsv(h, FIXTURE);
    const page = h.page;
    const first = page.locator('#h-0');
    assert.equal(await first.evaluate((e) => e.classList.contains('is-pinned')), true);
    assert.equal(await first.locator('.pin-indicator').getAttribute('aria-label'), 'pinned');
    // Scrolled sideways, the pinned column stays where it was; the others move.
    const grid = page.locator('[role=grid]');
    const before = (await (await cellOf(page, 'Merchant_Name', 0)).boundingBox())!.x;
    const amountBefore = (await page.locator('#h-4').boundingBox())!.x;
    await grid.evaluate((g) => (g.scrollLeft = 300));
    await page.waitForFunction(() => document.querySelector('[role=grid]')!.scrollLeft === 300);
    assert.equal((await (await cellOf(page, 'Merchant_Name', 0)).boundingBox())!.x, before);
    assert.ok((await page.locator('#h-4').boundingBox())!.x < amountBefore - 250);
    await grid.evaluate((g) => (g.scrollLeft = 0));

    // Right-click a header: a menu; "Pin column" moves the column next to the first pinned one.
    await page.locator('#h-4').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Column Amount' });
    assert.equal(await menu.isVisible(), true);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Pin column');
    await menu.getByRole('menuitem', { name: 'Pin column' }).click();
    assert.deepEqual((await headerNames(page)).slice(0, 3), ['Merchant_Name', 'Amount', 'Transaction_id']);
    assert.equal(await page.locator('#h-4').getAttribute('aria-colindex'), '2');
    assert.equal(await (await cellOf(page, 'Amount', 0)).textContent(), '9.50', 'the cells follow their header');
    await page.screenshot({ path: path.join(SHOTS, 'webview-pinned.png') });

    // Keyboard only: move to a header, Shift+F10 opens the menu, arrows and Enter choose, focus returns.
    await (await cellOf(page, 'Currency', 0)).click();
    await page.keyboard.press('ArrowUp');
    assert.equal(await grid.getAttribute('aria-activedescendant'), 'h-5');
    await page.keyboard.press('Shift+F10');
    assert.equal(await page.getByRole('menu', { name: 'Column Currency' }).isVisible(), true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    assert.deepEqual((await headerNames(page)).slice(0, 4), ['Merchant_Name', 'Amount', 'Currency', 'Transaction_id']);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'grid', 'focus is back on the grid');
    assert.equal(await grid.getAttribute('aria-activedescendant'), 'h-5', 'the column keeps the keyboard focus');
    // Unpin from the menu again (Menu key), and Escape closes a menu without choosing.
    await page.keyboard.press('ContextMenu');
    await page.keyboard.press('Enter');
    assert.deepEqual((await headerNames(page)).slice(0, 3), ['Merchant_Name', 'Amount', 'Transaction_id']);
    await page.keyboard.press('Shift+F10');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.menu').count(), 0);
    // Pinning is kept for a reload.
    await page.waitForFunction(
      () => JSON.stringify((window as unknown as { __state?: { view?: { pinned?: number[] } } }).__state?.view?.pinned) === '[0,4]',
    );
    const again = await openPage(context, { initialState: await h.state() });
    await again.waitReady();
    assert.deepEqual((await headerNames(again.page)).slice(0, 2), ['Merchant_Name', 'Amount']);
    await again.page.close();
    await page.close();
  });

  it('sorts, filters and searches while rows are still arriving', async () => {
    const h = await openPage(context);
    const page = h.page;
    const row = (i: number) => `"M${i % 7}","${(i * 7919) % 1000}.${String(i % 1000).padStart(3, '0')}","${i % 3 ? 'sale' : 'refund'}"\r\n`;
    let text = '"Merchant","Amount","Type"\r\n';
    for (let i = 0; i < 3000; i++) text += row(i);
    await h.post({ type: 'csvStart', title: { said: ['Loading'] }, source: { kind: 'inline' } });
    for (const chunk of csvChunks(text, 1 << 20)) await h.post(chunk);
    await page.waitForFunction(() => /Loading… 3,000 rows/.test(document.querySelector('.count')?.textContent ?? ''));
    assert.equal(await page.getAttribute('body', 'data-state'), 'loading');
    // Sort by Amount now, without waiting for the end.
    await page.locator('[role=columnheader][aria-colindex="2"]').click();
    await page.waitForFunction(() => document.body.dataset.busy === 'false');
    const amounts = async () =>
      (
        await page.$$eval('.row.data:not([hidden])', (rs) =>
          rs.map((r) => ({ i: Number(r.getAttribute('aria-rowindex')), v: Number(r.children[1].textContent) })),
        )
      )
        .sort((a, b) => a.i - b.i)
        .map((x) => x.v);
    const sorted = await amounts();
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => a - b),
    );
    assert.equal(await page.getAttribute('body', 'data-state'), 'loading', 'still loading while sorted');
    assert.match((await page.textContent('.statusline')) ?? '', /so far/);
    // More rows arrive, among them a new smallest amount: it takes its place at the top.
    for (const chunk of csvChunks('"New","-1.000","refund"\r\n' + Array.from({ length: 2000 }, (_, i) => row(i + 3000)).join(''), 1 << 20))
      await h.post(chunk);
    await page.waitForFunction(
      () => document.querySelector('.row.data[aria-rowindex="3"]')?.children[1].textContent === '-1.000',
      undefined,
      { timeout: WAIT_MS },
    );
    // A search typed while loading counts the matches so far and keeps up with new rows.
    await page.fill('.search', 'refund');
    await page.waitForFunction(
      () => /^Loading… 1,668 of 5,001 rows so far/.test(document.querySelector('.count')?.textContent ?? ''),
      undefined,
      { timeout: WAIT_MS },
    );
    for (const chunk of csvChunks('"Last","0.500","refund"\r\n', 1 << 20)) await h.post(chunk);
    await h.post({ type: 'csvEnd' });
    await h.waitReady();
    await waitCount(page, '1,669 of 5,002 rows');
    // Refunds by amount: -1, the two 0.000 refunds (rows 0 and 3000), then the last row's 0.5.
    assert.deepEqual((await amounts()).slice(0, 4), [-1, 0, 0, 0.5]);
    assert.deepEqual(h.errors, []);
    await page.close();
  });

  it('shows line breaks, tabs, bidirectional controls and invisible characters as markers, never applied', async () => {
    const h = await openPage(context);
    const page = h.page;
    const rows = [
      ['Line 1\nLine 2', 'Shop\u202Efdp.exe', 'a\u200Bb'],
      ['Line ↵ 1', 'x\u2066y\u2069z', 'soft\u00ADhyphen\uFEFF'],
      ['tab\there', 'ltr\u200Emark\u061C', 'A very long value that is certainly cut short by a narrow column of this table'],
    ];
    await h.post({
      type: 'table',
      title: { said: ['Truth'] },
      columns: ['Description', 'File', 'Other'],
      rows,
      source: { kind: 'inline' },
    });
    await h.waitReady();
    const multi = await cellOf(page, 'Description', 0);
    // A line break is an element with a name, not a character: the cell's text is the data only.
    assert.equal(await multi.textContent(), 'Line 1Line 2');
    const eol = multi.locator('.ctl-eol');
    assert.equal(await eol.getAttribute('aria-label'), 'line break');
    assert.equal(await eol.getAttribute('role'), 'img');
    assert.equal(await eol.evaluate((e) => getComputedStyle(e, '::before').content), '"⏎"');
    // A literal ↵ in the data stays text, so the two can be told apart.
    const literal = await cellOf(page, 'Description', 1);
    assert.equal(await literal.textContent(), 'Line ↵ 1');
    assert.equal(await literal.locator('.ctl').count(), 0);
    // The right-to-left override is shown as a boxed code point and not applied: the text keeps its order.
    const rlo = await cellOf(page, 'File', 0);
    assert.equal(await rlo.textContent(), 'Shopfdp.exe');
    assert.equal(await rlo.locator('.ctl-char').getAttribute('aria-label'), 'U+202E RIGHT-TO-LEFT OVERRIDE');
    assert.equal(await rlo.locator('.ctl-char').evaluate((e) => getComputedStyle(e, '::before').content), '"U+202E"');
    assert.ok(!(await rlo.evaluate((e) => e.innerHTML)).includes('\u202E'), 'the control character is not in the page');
    const labels = async (column: string, row: number) =>
      (await cellOf(page, column, row)).locator('.ctl').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.deepEqual(await labels('File', 1), ['U+2066 LEFT-TO-RIGHT ISOLATE', 'U+2069 POP DIRECTIONAL ISOLATE']);
    assert.deepEqual(await labels('File', 2), ['U+200E LEFT-TO-RIGHT MARK', 'U+061C ARABIC LETTER MARK']);
    assert.deepEqual(await labels('Other', 0), ['U+200B ZERO WIDTH SPACE']);
    assert.deepEqual(await labels('Other', 1), ['U+00AD SOFT HYPHEN', 'U+FEFF ZERO WIDTH NO-BREAK SPACE']);
    assert.deepEqual(await labels('Description', 2), ['tab']);
    // The order on screen is the order of the data: "Shop", the marker, then "fdp.exe", left to right.
    const xs = await rlo.evaluate((cell) => {
      const range = document.createRange();
      const [before, , after] = [...cell.childNodes];
      range.selectNodeContents(before);
      const a = range.getBoundingClientRect().x;
      range.selectNodeContents(after);
      return [a, range.getBoundingClientRect().x];
    });
    assert.ok(xs[0] < xs[1], `"Shop" left of "fdp.exe": ${xs}`);

    // The full value on hover: multi-line values and values cut short, with special characters written out.
    await multi.hover();
    assert.equal(await multi.getAttribute('title'), 'Line 1\nLine 2');
    await rlo.hover();
    assert.equal(await rlo.getAttribute('title'), 'Shop<U+202E>fdp.exe');
    const long = await cellOf(page, 'Other', 2);
    await long.hover();
    assert.equal(await long.getAttribute('title'), rows[2][2]);
    const short = await cellOf(page, 'Description', 1);
    await short.hover();
    assert.equal(await short.getAttribute('title'), null, 'a short plain value needs no tooltip');
    // Copying a cell copies the data, control characters included (it is the user's value).
    await rlo.click();
    await page.keyboard.press('Control+c');
    const copied = (await h.posted()).filter((m) => m.type === 'copy').pop();
    assert.deepEqual(copied, { type: 'copy', text: 'Shop\u202Efdp.exe', what: 'cell' });
    // A search matches across a marker's neighbours and highlights around it.
    await page.fill('.search', 'line 2');
    await waitCount(page, '1 of 3 rows');
    assert.deepEqual(await page.$$eval('mark.hit', (els) => els.map((e) => e.textContent)), ['Line 2']);
    await page.fill('.search', '');
    await waitCount(page, '3 of 3 rows');
    await page.screenshot({ path: path.join(SHOTS, 'webview-markers.png') });
    assert.deepEqual(h.errors, []);
    await page.close();
  });

  it('puts a submission’s outcome columns first and pinned, and its time in local time', async () => {
    const columns = [
      'recurring-payment-id',
      'status',
      'serial-number',
      'client-orderid',
      'rp_card_type',
      ...Array.from({ length: 25 }, (_, i) => `extra-${i}`),
    ];
    const view: SubmissionView = {
      title: 'Submission: batch.rpcsv → local',
      outcome: { outcome: 'accepted', status: 200 },
      file: 'batch.rpcsv',
      environment: 'local',
      submittedAt: '2026-11-22T21:05:09.000Z',
      fields: { 'serial-number': 'S-1' },
      columns,
      rows: [['11', 'active', 'S-1', 'A-1', 'SRC', ...Array.from({ length: 25 }, () => 'x')]],
    };
    const h = await openPage(context);
    await h.post({ type: 'submission', view });
    await h.waitReady();
    const pinned = await h.page.$$eval('[role=columnheader].is-pinned', (els) => els.map((e) => e.querySelector('.label')!.textContent));
    assert.deepEqual(pinned, ['recurring-payment-id', 'status', 'serial-number']);
    const time = h.page.locator('.banner time');
    assert.equal(await time.getAttribute('datetime'), '2026-11-22T21:05:09.000Z');
    const shown = (await time.textContent()) ?? '';
    const local = await h.page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
      view.submittedAt!,
    );
    assert.equal(shown, local);
    assert.ok(!((await h.page.textContent('.banner')) ?? '').includes('T21:05:09'), 'no raw ISO in the text');
    await h.page.locator('[role=grid]').evaluate((g) => (g.scrollLeft = 2000));
    assert.ok((await (await cellOf(h.page, 'status', 0)).boundingBox())!.x < 400, 'the outcome stays in view when scrolling sideways');
    await h.page.screenshot({ path: path.join(SHOTS, 'webview-submission-pinned.png') });
    await h.page.close();
  });
});
