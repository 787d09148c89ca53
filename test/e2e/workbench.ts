// What a person does in the VS Code workbench, as playwright-core calls: the keyboard, the quick input,
// the Problems panel, the editor's squiggles and light bulb, webviews. Waits are on what the page shows,
// each with a deadline; nothing sleeps for a fixed time. A wait that succeeds ends when the page shows what
// it waits for, so the deadlines only decide how long a failing run takes to say so: they are set for two
// shared cores at a load of 8 and more, where the editor runs many times slower than on a quiet machine.
import type { Frame, Locator, Page } from 'playwright-core';

/** One thing the workbench does: a quick input, a tab, a hover, a panel's rows. */
export const SHORT = 60_000;
/** One thing that goes through the extension and a server: a submission, a report, a webview's first rows. */
export const LONG = 120_000;

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: LONG });
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible', timeout: LONG });
  // The explorer lists the folder once the remote connection is up.
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: LONG });
}

export async function focusWorkbench(page: Page): Promise<void> {
  await page
    .locator('.monaco-workbench')
    .focus()
    .catch(() => undefined);
}

function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget');
}

// Clicks the side bar's title, as a person clicks into the workbench before a shortcut: a webview that has
// the focus keeps its own keys, and takes the focus back from a quick input, which then closes.
export async function focusSideBar(page: Page): Promise<void> {
  await page.locator('.part.sidebar .composite.title').first().click();
}

/** Ctrl+P, type the file name, pick it; resolves when its editor tab is active. */
export async function quickOpenFile(page: Page, fileName: string): Promise<void> {
  await focusSideBar(page);
  await page.keyboard.press('Control+P');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: SHORT });
  await input.fill(fileName);
  // Recently opened panels titled "… fileName …" are offered too; pick the file itself.
  const row = quickInput(page)
    .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: exactly(fileName) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: SHORT });
  // A click as the list re-renders can open nothing and leave it open (issue 42, load 15): click again.
  const deadline = Date.now() + SHORT;
  for (let tries = 0; (await row.isVisible()) && Date.now() < deadline && tries < 10; tries++) {
    await row.click({ timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    await activeTab(page, fileName, 5_000).catch(() => undefined);
  }
  await activeTab(page, fileName, Math.max(1, deadline - Date.now()));
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: SHORT });
}

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Waits until the active editor tab's label is exactly `label` (a panel titled "… label …" is not it). */
export async function activeTab(page: Page, label: string, timeout = SHORT): Promise<void> {
  await page
    .locator('.tabs-container .tab.active', { has: page.locator('.label-name', { hasText: exactly(label) }) })
    .first()
    .waitFor({ state: 'visible', timeout });
}

/** F1, type the command's title, check it is offered, run it. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The palette lists the commands known when it opens and never refreshes: opened while a loaded
  // machine's editor is still registering the extensions, it lacks ours for good (it offers "similar
  // commands"). So a palette without the command is closed and opened again, until SHORT has passed.
  const deadline = Date.now() + SHORT;
  for (let attempt = 1; ; attempt++) {
    await focusSideBar(page);
    await page.keyboard.press('F1');
    const input = quickInput(page).locator('input');
    await input.waitFor({ state: 'visible', timeout: SHORT });
    await input.fill(`>${title}`);
    const row = quickInput(page).locator('.monaco-list-row', { hasText: title }).first();
    const left = deadline - Date.now();
    const listed = await row.waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(left, 5000 * attempt)) }).then(
      () => true,
      () => false,
    );
    if (listed) return row.click();
    if (Date.now() >= deadline) throw new Error(`the command palette does not list "${title}"`);
    await page.keyboard.press('Escape');
  }
}

/** Waits until the status bar's language mode item says `expected`; fails saying what it said instead. */
export async function waitForLanguageMode(page: Page, expected: string, timeout = SHORT): Promise<void> {
  const item = page.locator('#status\\.editor\\.mode');
  const shown = await item
    .filter({ hasText: exactly(expected) })
    .waitFor({ state: 'visible', timeout })
    .then(
      () => true,
      () => false,
    );
  if (!shown) throw new Error(`the status bar's language mode says "${(await item.innerText().catch(() => '')).trim()}"`);
}

/** Squiggles drawn in the active editor, by severity. */
export async function squiggles(page: Page): Promise<{ errors: number; warnings: number; infos: number }> {
  const editor = page.locator('.editor-instance .monaco-editor').first();
  return {
    errors: await editor.locator('.squiggly-error').count(),
    warnings: await editor.locator('.squiggly-warning').count(),
    infos: await editor.locator('.squiggly-info').count(),
  };
}

export async function waitForSquiggles(page: Page, timeout = LONG): Promise<{ errors: number; warnings: number; infos: number }> {
  await page
    .locator('.editor-instance .monaco-editor')
    .first()
    .locator('.squiggly-error, .squiggly-warning, .squiggly-info')
    .first()
    .waitFor({ state: 'attached', timeout });
  return squiggles(page);
}

/** Opens the Problems panel (Ctrl+Shift+M) and returns the rows' accessible labels once it lists some. */
export async function problems(page: Page, timeout = SHORT): Promise<string[]> {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');
  await panel.waitFor({ state: 'visible', timeout });
  const rows = panel.locator('.monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout });
  return rowLabels(rows);
}

/**
 * The rows' accessible labels (else their text), read in one go in the page. Row by row, a row the list
 * re-rendered meanwhile (the panel refreshes as problems come) would be waited for with the page's whole
 * action deadline, and then read as nothing: a minute spent on a row that no longer exists.
 */
function rowLabels(rows: Locator): Promise<string[]> {
  return rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? (el as HTMLElement).innerText));
}

/**
 * The status bar's problem counts, read in the page: "Errors: 18, Warnings: 3" (1.100); older builds said
 * "18 Errors, 3 Warnings". Plain JavaScript in a string: a function written here would reach the page with
 * the helpers tsx adds to it (`__name`), which the page does not have.
 */
const PAGE_COUNTS = String.raw`(() => {
  const text = document.querySelector('#status\\.problems')?.getAttribute('aria-label') ?? '';
  const count = (word) => Number(text.match(new RegExp(word + 's?:\\s*(\\d+)|(\\d+)\\s+' + word + 's?', 'i'))?.slice(1).find(Boolean) ?? 0);
  return { errors: count('Error'), warnings: count('Warning') };
})()`;

/** The count VS Code shows on the Problems tab badge / status bar, e.g. errors + warnings. */
export function problemCounts(page: Page): Promise<{ errors: number; warnings: number }> {
  return page.evaluate<{ errors: number; warnings: number }>(PAGE_COUNTS);
}

/** Waits until the status bar counts fewer errors and warnings than `below`; returns the counts then. */
export async function waitForFewerProblems(page: Page, below: number, timeout = SHORT): Promise<{ errors: number; warnings: number }> {
  const fewer = await page
    .waitForFunction(`(() => { const c = ${PAGE_COUNTS}; return c.errors + c.warnings < ${below}; })()`, undefined, { timeout })
    .then(
      () => true,
      () => false,
    );
  const counts = await problemCounts(page);
  if (!fewer) throw new Error(`the problems stayed at ${counts.errors + counts.warnings} (not below ${below})`);
  return counts;
}

/** Waits until the Problems panel no longer lists the problem with this accessible label (it refreshed). */
export async function waitForProblemGone(page: Page, label: string, timeout = SHORT): Promise<void> {
  await page
    .waitForFunction(
      (label) =>
        ![...document.querySelectorAll('.markers-panel .monaco-list-row[aria-level="2"]')].some(
          (r) => r.getAttribute('aria-label') === label,
        ),
      label,
      { timeout },
    )
    .catch(() => {
      throw new Error(`the Problems panel still lists "${label.slice(0, 80)}"`);
    });
}

// Picks a problem in the Problems panel as a person does (click, Enter): the editor gets the focus with
// the cursor on the problem. Returns the problem's accessible label.
export async function openProblem(page: Page, matching: RegExp = /./): Promise<string> {
  const rows = page.locator('.markers-panel .monaco-list-row[aria-level="2"]');
  await rows.first().waitFor({ state: 'visible', timeout: SHORT });
  const labels = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  const label = labels.find((l) => matching.test(l));
  if (label === undefined) throw new Error(`no problem matching ${matching}`);
  // By its label, not its place: the list may re-render between the read and the click.
  const target = page.locator(`.markers-panel .monaco-list-row[aria-level="2"][aria-label=${JSON.stringify(label)}]`).first();
  // At the row's left edge: the middle of a row may be the rule's link, which opens a web page.
  await target.click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ state: 'visible', timeout: SHORT });
  return label;
}

// Ctrl+. opens the quick-fix menu at the cursor (returns the offered titles). A press landing before the
// Problems panel's navigation is answered "No code actions available"; a person presses again, and so does
// this, up to 10 times within SHORT: a light bulb that stays empty still fails.
export async function openQuickFixMenu(page: Page): Promise<string[]> {
  const rows = page.locator('.action-widget .monaco-list-row.action');
  const none = page.locator('.monaco-editor-overlaymessage', { hasText: 'No code actions available' });
  const deadline = Date.now() + SHORT;
  const seen = <T>(l: Locator, answer: T) =>
    l
      .first()
      .waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) })
      .then(
        () => answer,
        () => 'timeout' as const,
      );
  for (let press = 1; ; press++) {
    await page.keyboard.press('Control+.');
    const answer = await Promise.race([seen(rows, 'menu' as const), seen(none, 'none' as const)]);
    if (answer === 'menu' && press > 1) console.log(`[e2e] quick-fix menu at Ctrl+. press ${press} (issue 42)`);
    if (answer === 'menu') break;
    if (answer === 'timeout' || press >= 10 || Date.now() >= deadline)
      throw new Error(`no quick-fix menu within ${SHORT / 1000}s after ${press} press(es) of Ctrl+. (last: ${answer})`);
    await page.keyboard.press('Escape');
    await none
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
  }
  return (await rows.evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText))).map((t) => t.trim());
}

/** The frame inside a webview whose document matches `selector` (webviews nest two iframes). */
export async function webviewFrame(page: Page, selector: string, timeout = LONG, except: Frame[] = []): Promise<Frame> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || except.includes(frame)) continue;
      if (
        await frame
          .locator(selector)
          .first()
          .isVisible()
          .catch(() => false)
      )
        return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview showed ${selector} within ${timeout / 1000}s`);
}

/**
 * Notification toasts currently shown (their messages), read in one go in the page: a toast that hides
 * between listing and reading (they hide by themselves, or when a button of theirs is clicked) would
 * otherwise be waited for with the page's whole action deadline.
 */
export async function notifications(page: Page): Promise<string[]> {
  const toasts = page.locator('.notification-toast .notification-list-item-message');
  const texts = await toasts.evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.trim()));
  return texts.filter(Boolean);
}

/** Moves the mouse over the first occurrence of `word` in the active editor; returns the hover's text. */
export async function hoverText(page: Page, word: string): Promise<string> {
  const target = page.locator('.editor-instance .view-line span', { hasText: word }).first();
  await target.waitFor({ state: 'visible', timeout: SHORT });
  const box = await target.boundingBox();
  if (!box) throw new Error(`"${word}" is not on screen`);
  // Over the word itself, not the span's start, which may be the delimiter.
  await page.mouse.move(box.x + Math.min(box.width / 2, 30), box.y + box.height / 2);
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover:not(.hidden) .hover-contents').first();
  await hover.waitFor({ state: 'visible', timeout: SHORT });
  return hover.innerText();
}

/** The PayGate views live in their own container in the activity bar: opens it unless it shows already. */
export async function openPayGateViews(page: Page): Promise<void> {
  const item = page.locator('.activitybar .action-item a[aria-label^="PayGate"]').first();
  await item.waitFor({ state: 'visible', timeout: SHORT });
  const open = page.locator('.part.sidebar .composite.title', { hasText: /PayGate/i });
  if (!(await open.isVisible().catch(() => false))) await item.click();
  await open.first().waitFor({ state: 'visible', timeout: SHORT });
}

/** Opens a view in the side bar by its title (expanding its pane) and returns the row matching `text`. */
export async function viewRow(page: Page, viewName: string, text: string): Promise<string> {
  const header = page.locator('.pane-header', { hasText: new RegExp(viewName, 'i') }).first();
  if (!(await header.isVisible().catch(() => false))) await openPayGateViews(page);
  await header.waitFor({ state: 'visible', timeout: SHORT });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  const pane = page.locator('.pane', { has: header });
  const row = pane.locator('.monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: SHORT });
  return (await row.getAttribute('aria-label')) ?? (await row.innerText());
}
