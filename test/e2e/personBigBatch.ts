// The person-style run's batch over 50 MB (issue 32): VS Code shows such a file only after "Open Anyway"
// and passes it to no extension, so its problems come from the language server's check of the file on
// disk. Generated when the run starts (never committed): 300,000 rows, about 54 MB, with a card type
// the gateway does not know on a few rows. A person opens it, sees its problems and why they are checked on
// save (and that it is too large to send whole: batch-too-large), asks to submit it and to see its
// forecast, fixes a row, saves, and sees the check follow.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { generateBatch } from '../bench/generate';
import * as wb from './workbench';

export const BIG_BATCH = 'big-batch.rpcsv';
const ROWS = 300_000;
/** Data rows (0-based, all SRC rows) whose rp_card_type is wrong: at the top, in the middle and at the very end. */
const WRONG = [3, 40, 1_000, 150_000, 299_990];
/** How a wrong row shows in the Problems panel. */
const WRONG_ROW = /rp_card_type must be .*\(got "SRX"\)/;
/** batch-too-large, as `paygate lint` words it: about 72 MB of Base64 against the local gateway's 8 MiB. */
const TOO_LARGE = /payload is [\d,]+ bytes \(Base64, as sent\), over the environment's maximum of 8,388,608/;

export interface PersonSteps {
  page: Page;
  step(name: string, fn: () => Promise<string | void>, needs?: { previous?: boolean }): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** A command's title by its id, when the manifest declares it. */
  title(command: string): string | undefined;
}

/** Writes the batch into the workspace (before the editor starts, so Quick Open lists it); its size in bytes. */
export function writeBigBatch(workspace: string): number {
  const lines = generateBatch(ROWS).split('\r\n');
  for (const r of WRONG) lines[r + 1] = lines[r + 1].replace(';SRC;', ';SRX;');
  const file = path.join(workspace, BIG_BATCH);
  fs.writeFileSync(file, lines.join('\r\n'));
  return fs.statSync(file).size;
}

/** The wrong rows the Problems panel lists, waiting (with a deadline) until there are `expected`. */
async function wrongRowsListed(page: Page, expected: number, timeout: number): Promise<string[]> {
  const deadline = Date.now() + timeout;
  let listed: string[] = [];
  let last = '';
  while (Date.now() < deadline) {
    const labels = await wb.problems(page).catch((err: Error) => ((last = err.message.split('\n')[0]), [] as string[]));
    if (labels.length > 0) last = labels.slice(0, 2).join(' | ');
    listed = labels.filter((r) => WRONG_ROW.test(r));
    if (listed.length === expected) return listed;
    await page.waitForTimeout(500);
  }
  throw new Error(`the Problems panel lists ${listed.length} wrong rows, not ${expected} (it read: ${last.slice(0, 300)})`);
}

export async function bigBatchSteps(p: PersonSteps): Promise<void> {
  const { page, step, screenshot } = p;
  // The later steps build on this first one only (not on the run's earlier steps).
  let opened = false;
  await step(
    `a batch over 50 MB (${BIG_BATCH}) opened with "Open Anyway" shows its wrong rows as problems, and says they are checked on save`,
    async () => {
      // The whole editor area for it, as a person would make room for a large file.
      await page.keyboard.press('Escape');
      await wb.runCommand(page, 'View: Close All Editors');
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(BIG_BATCH);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: BIG_BATCH }).first().click();
      // VS Code's own large-file warning comes first; a person opens the file anyway.
      await page
        .getByRole('button', { name: /Open Anyway/i })
        .first()
        .click({ timeout: 30_000 });
      await wb.activeTab(page, BIG_BATCH);
      await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 90_000 });
      const listed = await wrongRowsListed(page, WRONG.length, wb.SHORT);
      // Weighed as it is read from disk (issue 43): the same batch-too-large `paygate lint` gives it.
      const tooLarge = (await wb.problems(page)).find((l) => TOO_LARGE.test(l));
      if (!tooLarge) throw new Error('the Problems panel lists no batch-too-large for the 54 MB batch');
      const status = page.locator('.statusbar-item', { hasText: 'PayGate: checked on save' });
      await status.first().waitFor({ state: 'visible', timeout: 15_000 });
      const told = page.locator('.notification-toast', { hasText: 'each time you save it' });
      await told.first().waitFor({ state: 'visible', timeout: 15_000 });
      // Read while it shows: a toast hides by itself after a while, and the step's earlier waits can use
      // that while up (the read came after the screenshot once, and found it gone).
      const message = (await told.first().locator('.notification-list-item-message').innerText({ timeout: 5_000 })).trim();
      const learnMore = await told.locator('a.monaco-button, .monaco-button', { hasText: 'Learn more' }).count();
      await screenshot('big-batch-problems');
      if (learnMore === 0) throw new Error('the notification offers no "Learn more"');
      opened = true;
      return `${listed.length} wrong rows listed, e.g. "${listed[0].slice(0, 80)}", and "${tooLarge.slice(0, 90)}…"; told: "${message.slice(0, 90)}…"`;
    },
    { previous: false },
  );

  if (!opened) return;
  const submit = p.title('paygate.submit');
  await step(
    `"${submit}" on the big batch, from its Submit beside "checked on save" (no CodeLens can show), shows its progress at once, reads it from disk and refuses it for its errors`,
    async () => {
      if (!submit) throw new Error('no paygate.submit command');
      await page.keyboard.press('Escape');
      // Beyond the palette (issue 43): the status bar's Submit and the editor title's button.
      const title = page.locator('.editor-actions .action-label[aria-label*="Submit Recurring Payments File"]');
      await title.first().waitFor({ state: 'visible', timeout: 15_000 });
      const item = page.locator('.statusbar-item', { hasText: /^\s*Submit\s*$/ }).first();
      await item.waitFor({ state: 'visible', timeout: 15_000 });
      await item.click();
      // On screen at once, before the 50 MB are read and checked.
      const progress = page.locator('.notification-toast', { hasText: `submitting ${BIG_BATCH}` }).first();
      await progress.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('big-batch-submit-progress');
      const shown = (await progress.innerText()).replace(/\s+/g, ' ').slice(0, 100);
      const refusal = page.locator('.notification-toast', { hasText: /lint errors?; nothing was sent/ });
      await refusal.first().waitFor({ state: 'visible', timeout: 60_000 });
      const text = (await refusal.first().locator('.notification-list-item-message').innerText()).trim();
      await screenshot('big-batch-submit-refused');
      if (!text.includes(`${BIG_BATCH} has ${WRONG.length} lint errors`)) throw new Error(`the refusal says: ${text}`);
      // Read, then put away as a person does: an error toast stays, and later steps read the toasts.
      await wb.runCommand(page, 'Notifications: Clear All Notifications');
      return `progress: "${shown}"; then: ${text}`;
    },
    { previous: false },
  );

  const forecast = p.title('paygate.showForecast');
  await step(
    `"${forecast}" on the big batch shows every row's charges`,
    async () => {
      if (!forecast) throw new Error('no paygate.showForecast command');
      await page.keyboard.press('Escape');
      const earlier = page.frames();
      await wb.runCommand(page, forecast);
      const frame = await wb.webviewFrame(page, '.uplot canvas', 90_000, earlier);
      await frame.locator('body[data-state="ready"]').waitFor({ timeout: 60_000 });
      const totals = (await frame.locator('.totals').innerText()).replace(/\s+/g, ' ').trim();
      await screenshot('big-batch-forecast');
      if (!/EUR: [\d,]+ charges/.test(totals)) throw new Error(`the forecast shows no EUR totals: ${totals}`);
      // Back to the batch for the next step.
      await page.locator('.tabs-container .tab', { hasText: BIG_BATCH }).first().click();
      return totals;
    },
    { previous: false },
  );

  await step(
    'fixing a wrong row and saving checks the big batch again from disk',
    async () => {
      await wb.activeTab(page, BIG_BATCH);
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      // Go to the first wrong card type (line 5, after "ORD-0000003;"), type the right one over it, save.
      await page.keyboard.press('Control+G');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(':5:13');
      await page.keyboard.press('Enter');
      await page.locator('.statusbar-item', { hasText: 'Ln 5, Col 13' }).first().waitFor({ state: 'visible', timeout: 15_000 });
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.type('SRC');
      await page.keyboard.press('Control+S');
      const listed = await wrongRowsListed(page, WRONG.length - 1, 90_000);
      await screenshot('big-batch-saved');
      return `${listed.length} wrong rows left after the save`;
    },
    { previous: false },
  );
}
