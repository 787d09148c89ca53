// The person-style run (person.ts), its part: the first minutes with a batch: the workbench, the language mode, squiggles, the Problems panel, hovers, a quick fix and Fix all.
import * as wb from './workbench';
import { LANGUAGE_NAME, type PersonRun, ROOT, declared } from './personRun';

export async function lintSteps(r: PersonRun): Promise<void> {
  const { manifest, server, page, screenshot, step } = r;
  await step('open the workbench on examples/', async () => {
    await page.goto(server.url({ extensionPath: ROOT }), { waitUntil: 'domcontentloaded' });
    await wb.waitForWorkbench(page);
    await screenshot('workbench');
  });

  await step('Ctrl+P opens mistakes.rpcsv', async () => {
    await wb.quickOpenFile(page, 'mistakes.rpcsv');
  });

  await step(`the file is in ${LANGUAGE_NAME} mode`, async () => {
    declared(
      manifest.contributes?.languages?.some((l) => l.id === 'paygate-recurring-csv'),
      'the paygate-recurring-csv language',
    );
    await wb.waitForLanguageMode(page, LANGUAGE_NAME);
  });

  let before = { errors: 0, warnings: 0 };
  await step('squiggles under the mistakes', async () => {
    const s = await wb.waitForSquiggles(page);
    await screenshot('squiggles');
    return `${s.errors} error, ${s.warnings} warning, ${s.infos} info squiggles`;
  });

  await step('Problems panel lists them', async () => {
    const rows = await wb.problems(page);
    before = await wb.problemCounts(page);
    await screenshot('problems');
    if (before.errors + before.warnings === 0) throw new Error('the status bar counts no problems');
    const ours = rows.filter((r) => /paygate/i.test(r));
    if (ours.length === 0) throw new Error(`no Problems entry from source paygate; rows: ${JSON.stringify(rows.slice(0, 3))}`);
    const sample = ours[0];
    return `${rows.length} rows (${before.errors} errors, ${before.warnings} warnings), e.g. "${sample?.slice(0, 100)}"`;
  });

  await step('hovering a header cell shows the column documentation', async () => {
    const text = await wb.hoverText(page, 'client-orderid');
    await screenshot('hover');
    if (!/client-orderid/.test(text)) throw new Error(`the hover does not name the column: ${text.slice(0, 120)}`);
    return `"${text.replace(/\s+/g, ' ').slice(0, 90)}…"`;
  });

  await step('hovering a row whose start-date is malformed says why its schedule cannot be computed', async () => {
    await page.mouse.move(0, 0);
    const text = await wb.hoverText(page, 'ORD-1');
    await screenshot('hover-row');
    if (!/cannot be computed/.test(text) || !/2027-01-15/.test(text))
      throw new Error(`the row hover does not say why: ${text.slice(0, 160)}`);
    return `"${text.replace(/\s+/g, ' ').slice(0, 110)}…"`;
  });

  await step('a quick fix from the light bulb (Ctrl+.) fixes a problem', async () => {
    declared((manifest.contributes?.codeActions?.length ?? 0) > 0, 'code actions');
    const problem = await wb.openProblem(page);
    const titles = await wb.openQuickFixMenu(page).catch((err: unknown) => {
      throw new Error(`no quick fix offered at the first problem (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    });
    await screenshot('quick-fix-menu');
    const fixes = titles.filter((t) => !/^(Learn more|Configure|Disable|Fix all)/i.test(t));
    if (fixes.length === 0) throw new Error(`no quick fix for the problem, only ${JSON.stringify(titles)}`);
    const chosen = fixes[0];
    // The menu focuses its first entry; a person arrows down to theirs and presses Enter.
    for (let i = 0; i < titles.indexOf(chosen); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // The fix edits the document; the linter re-runs, the count drops, and the Problems panel, where the
    // next step picks its problem, no longer lists the fixed one.
    const after = await wb.waitForFewerProblems(page, before.errors + before.warnings);
    await wb.waitForProblemGone(page, problem);
    await screenshot('after-quick-fix');
    const renamed = chosen.match(/Rename column to (\S+)/)?.[1];
    if (renamed && (await page.locator('.editor-instance .view-line', { hasText: renamed }).count()) === 0) {
      throw new Error(`"${chosen}" applied but no line shows ${renamed}`);
    }
    return `at "${problem.slice(0, 60)}…" chose "${chosen}": ${before.errors + before.warnings} -> ${after.errors + after.warnings} problems`;
  });

  await step('"Fix all" from the light bulb applies every safe fix at once', async () => {
    const start = await wb.problemCounts(page);
    // The previous step waited until the Problems panel had dropped the problem it fixed: the problem
    // picked here is one the editor still has, so the light bulb has its fixes.
    const problem = await wb.openProblem(page);
    const titles = await wb.openQuickFixMenu(page).catch((err: unknown) => {
      throw new Error(
        `no quick fix offered at "${problem.slice(0, 60)}" (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
      );
    });
    const fixAll = titles.find((t) => /^Fix all/i.test(t));
    if (!fixAll) throw new Error(`no "Fix all" entry among ${JSON.stringify(titles)} at "${problem.slice(0, 60)}"`);
    for (let i = 0; i < titles.indexOf(fixAll); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const total = (c: { errors: number; warnings: number }) => c.errors + c.warnings;
    const after = await wb.waitForFewerProblems(page, total(start));
    await screenshot('after-fix-all');
    // More than one problem goes, or "all" would be no different from the single fix above.
    if (total(start) - total(after) < 2) throw new Error(`"${fixAll}": ${total(start)} -> ${total(after)} problems`);
    return `"${fixAll}": ${total(start)} -> ${total(after)} problems (the rest need a person's decision)`;
  });
}
