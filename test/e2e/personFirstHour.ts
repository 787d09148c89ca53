// The person-style run (person.ts), its part: the first hour of a new merchant (issue 19): the palette, a template's problems, the resend question, the forecast.
import * as wb from './workbench';
import { type PersonRun, SUBMIT_TITLE } from './personRun';

export async function firstHourSteps(r: PersonRun): Promise<void> {
  const { manifest, page, screenshot, step, command, palette, focusSideBar, closeAllEditors } = r;
  await step(
    'the Command Palette offers every PayGate command, whatever the active editor',
    async () => {
      const titles = (manifest.contributes?.commands ?? []).map((c) => c.title);
      const missing: string[] = [];
      for (const title of titles) if (!(await palette(`PayGate: ${title}`, false))) missing.push(title);
      await focusSideBar();
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget .quick-input-box input').fill('>PayGate: ');
      await screenshot('palette');
      await page.keyboard.press('Escape');
      if (missing.length > 0) throw new Error(`not offered: ${missing.join(', ')}`);
      return `${titles.length} commands offered`;
    },
    { previous: false },
  );

  await step(
    'a report template with several problems: all underlined, and Run Report Template names every one',
    async () => {
      await closeAllEditors();
      await wb.quickOpenFile(page, 'broken.report.json');
      await wb.problems(page, wb.LONG);
      const filter = page.getByPlaceholder(/^Filter \(e\.g\. text/).first();
      await filter.fill('**/broken.report.json');
      // The JSON language service checks the file against the contributed schema a moment after it opens.
      await page
        .waitForFunction(
          () =>
            [...document.querySelectorAll('.markers-panel .monaco-list-row')].some((r) =>
              /CSV|PDF/.test(r.getAttribute('aria-label') ?? ''),
            ),
          undefined,
          { timeout: wb.LONG },
        )
        .catch(() => undefined); // said below, with the rows there are
      const rows = await wb.problems(page);
      await screenshot('template-problems');
      await filter.fill('');
      if (!rows.some((r) => /CSV|PDF/.test(r))) throw new Error(`no problem about reportFormat in: ${rows.join(' | ')}`);
      await palette(`PayGate: ${command('paygate.runReport').title}`, true);
      await page
        .locator('.notification-toast .notification-list-item-message', { hasText: /not a valid report template/ })
        .first()
        .waitFor({ state: 'visible', timeout: wb.SHORT })
        .catch(() => undefined); // said below
      const toast = (await wb.notifications(page)).find((t) => /not a valid report template/.test(t));
      await screenshot('template-run-refused');
      if (!toast) throw new Error('no notification about the invalid template');
      if (!/reportName/.test(toast) || !/reportFormat/.test(toast))
        throw new Error(`the notification does not name both problems: ${toast}`);
      return `${rows.length} rows in the Problems panel for the file; ${toast.slice(0, 120)}`;
    },
    { previous: false },
  );

  await step(
    'submitting valid.rpcsv a second time asks once, with one way to say no (Escape sends nothing)',
    async () => {
      await closeAllEditors();
      await wb.quickOpenFile(page, 'valid.rpcsv');
      await palette(`PayGate: ${SUBMIT_TITLE}`, true);
      const quick = page.locator('.quick-input-widget');
      await quick.locator('.monaco-list-row', { hasText: /send/i }).first().waitFor({ state: 'visible', timeout: wb.SHORT });
      // One row per answer (a row's label, description and detail line are inside it).
      const answers = await quick.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
      await screenshot('resend-question');
      if (answers.length !== 2 || !/^Don't send/.test(answers[0]) || !/Send again/.test(answers[1]))
        throw new Error(`the answers are: ${answers.join(' | ')}`);
      if (await page.locator('.monaco-dialog-box').isVisible()) throw new Error('a dialog with its own Cancel is shown as well');
      await page.keyboard.press('Escape');
      return answers.map((a) => a.split(',')[0]).join(' / ');
    },
    { previous: false },
  );

  await step(
    'the "Forecast" CodeLens beside Submit on valid.rpcsv opens the charge forecast beside the batch',
    async () => {
      command('paygate.showForecast');
      await page.keyboard.press('Escape');
      await wb.quickOpenFile(page, 'valid.rpcsv');
      const earlier = page.frames();
      await page.locator('.codelens-decoration a', { hasText: 'Forecast' }).first().click({ timeout: wb.SHORT });
      const frame = await wb.webviewFrame(page, '.uplot canvas', wb.LONG, earlier);
      await frame.locator('body[data-state="ready"]').waitFor({ timeout: wb.SHORT });
      const totals = (await frame.locator('.totals').innerText()).replace(/\s+/g, ' ').trim();
      await screenshot('forecast');
      if (!/EUR: \d+ charges/.test(totals)) throw new Error(`the forecast shows no EUR totals: ${totals}`);
      // A click on the tallest period lists the rows charging in it.
      const box = await frame.locator('.uplot .u-over').boundingBox();
      if (!box) throw new Error('the chart has no plot area');
      await frame.locator('.uplot .u-over').click({ position: { x: box.width * 0.05, y: box.height - 4 } });
      await frame.locator('.rows h2').waitFor({ timeout: wb.SHORT });
      const listed = await frame.locator('.rows li').count();
      await screenshot('forecast-rows');
      if (listed === 0) throw new Error('a click on the first period lists no rows');
      return `${totals}; ${listed} rows in the first period`;
    },
    { previous: false },
  );
}
