// The person-style run (person.ts), its part: a report run into its table, searched and queried, a submission's page, and a PDF report in its pane.
import * as path from 'node:path';
import * as wb from './workbench';
import { type PersonRun, answerPromptsUntilTable, clientOrderIds } from './personRun';

export async function reportSteps(r: PersonRun): Promise<void> {
  const { workspace, page, screenshot, step, command, view } = r;
  await step(
    'F1 "PayGate: Run Report Template" on transactions.report.json shows the report table',
    async () => {
      const runReport = command('paygate.runReport');
      await page.keyboard.press('Escape');
      await wb.quickOpenFile(page, 'transactions.report.json');
      const earlier = page.frames();
      await wb.runCommand(page, runReport.title);
      const frame = await answerPromptsUntilTable(page, earlier);
      // The local gateway of this run has seen exactly the batch submitted above.
      const expected = clientOrderIds(path.join(workspace, 'valid.rpcsv'));
      await frame
        .locator('[role="gridcell"], td', { hasText: expected[expected.length - 1] })
        .first()
        .waitFor({ timeout: wb.SHORT });
      await screenshot('report-table');
      for (const id of expected) {
        if ((await frame.locator('[role="gridcell"], td', { hasText: id }).count()) === 0)
          throw new Error(`the report has no row for ${id}`);
      }
      const headers = await frame.locator('[role="columnheader"], th').allInnerTexts();
      return `columns ${headers
        .map((h) => h.trim())
        .slice(0, 5)
        .join(', ')}…; rows for ${expected.join(', ')}`;
    },
    { previous: false },
  );

  await step(
    'searching the report table highlights the matches; a search with no match says how to clear it',
    async () => {
      const frame = await wb.webviewFrame(page, '[role="grid"]', wb.SHORT);
      const expected = clientOrderIds(path.join(workspace, 'valid.rpcsv'));
      const search = frame.locator('input.search');
      await search.click();
      await page.keyboard.type(expected[0]);
      await frame.locator('mark.hit', { hasText: expected[0] }).first().waitFor({ timeout: wb.SHORT });
      await screenshot('report-search-highlight');
      await search.fill('');
      await page.keyboard.type('no row has this');
      const empty = frame.locator('.empty');
      await empty.waitFor({ state: 'visible', timeout: wb.SHORT });
      const said = (await empty.innerText()).replace(/\s+/g, ' ');
      await screenshot('report-no-match');
      if (!/No rows match/.test(said) || !/Escape/.test(said)) throw new Error(`the empty table says: ${said}`);
      await page.keyboard.press('Escape');
      await empty.waitFor({ state: 'hidden', timeout: wb.SHORT });
      return said.slice(0, 100);
    },
    { previous: false },
  );

  await step(
    "the report's query bar: a filter expression, its error with the place, Group by with totals per currency and a chart, a group's rows, a saved view",
    async () => {
      const frame = await wb.webviewFrame(page, '.query-where', wb.SHORT);
      const where = frame.locator('.query-where');
      // A typo in a column: named, with its place selected in the box.
      await where.click();
      await where.fill('');
      await page.keyboard.type('Currency = "EUR" and Amont > 0');
      await page.keyboard.press('Enter');
      const error = frame.locator('.query-error');
      await error.waitFor({ state: 'visible', timeout: wb.SHORT });
      const said = (await error.innerText()).trim();
      await screenshot('report-filter-error');
      if (!/column 22: no column 'Amont'.*did you mean Amount\?/.test(said)) throw new Error(`the filter box says: ${said}`);
      // Completion: "Am" offers Amount, Tab takes it.
      await where.fill('Currency = "EUR" and ');
      await where.press('End');
      await page.keyboard.type('Am');
      await frame.locator('.query-completions li', { hasText: 'Amount' }).first().waitFor({ timeout: wb.SHORT });
      await screenshot('report-filter-completion');
      await page.keyboard.press('Tab');
      await page.keyboard.type('> 0');
      await page.keyboard.press('Enter');
      await error.waitFor({ state: 'hidden', timeout: wb.SHORT });
      const count = frame.locator('.count');
      await frame.locator('.count', { hasText: / of / }).waitFor({ timeout: wb.SHORT });
      await screenshot('report-filter');
      // Group by the day the charges were made: a row per group, a total per currency, a chart.
      await frame.locator('.group-by[data-level="0"]').selectOption({ label: 'Created_date' });
      await frame.locator('.group-period').selectOption('day');
      await frame.locator('.query-summary .summary-chart canvas').first().waitFor({ timeout: wb.SHORT });
      const totals = (await frame.locator('.summary-table tfoot').innerText()).replace(/\s+/g, ' ').trim();
      // The table lays out only the groups' rows in sight: its aria-rowcount counts them all (header, groups, totals).
      const rowCount = Number(await frame.locator('.summary-table').getAttribute('aria-rowcount'));
      const groups = rowCount - 1 - (await frame.locator('.summary-table tfoot tr').count());
      await screenshot('report-group-by');
      // Charges and payouts apart (issue 43): the DST row's payout is never added to the sales.
      if (!/^total EUR charges \d+ \d+\.\d{3}( total EUR payouts \d+ \d+\.\d{3})?$/.test(totals))
        throw new Error(`the totals rows say: ${totals}`);
      // A group's rows, and back.
      await frame.locator('.summary-table tbody tr.group').first().click();
      await frame.locator('.group-chip').waitFor({ state: 'visible', timeout: wb.SHORT });
      await screenshot('report-group-rows');
      await frame.locator('.back-to-groups').click();
      await frame.locator('.query-summary').waitFor({ state: 'visible', timeout: wb.SHORT });
      // The template's saved views are offered; one runs when picked.
      const views = frame.locator('select.views');
      await views.waitFor({ state: 'visible', timeout: wb.SHORT });
      await views.selectOption({ label: 'Declined: declined charges per currency, and for how much' });
      await frame.locator('.summary-heading', { hasText: /rows matched/ }).waitFor({ timeout: wb.SHORT });
      const declined = (await where.inputValue()).trim();
      await screenshot('report-saved-view');
      if (declined !== 'Transaction_type contains "declined"') throw new Error(`the view set the filter to ${declined}`);
      // Leave the table as it was for the steps after this one.
      await frame.locator('.group-by[data-level="0"]').selectOption('');
      await where.fill('');
      await where.press('Enter');
      await frame.locator('.query-summary').waitFor({ state: 'hidden', timeout: wb.SHORT });
      return `${groups} day group(s); ${totals}; ${(await count.innerText()).trim()}`;
    },
    { previous: false },
  );

  await step(
    'clicking the submission in the Submissions view opens its results panel, outcome first',
    async () => {
      const submissionsView = view('paygate.submissions');
      await wb.viewRow(page, submissionsView.name, 'valid.rpcsv');
      const header = page.locator('.pane-header', { hasText: new RegExp(submissionsView.name, 'i') }).first();
      await page.locator('.pane', { has: header }).locator('.monaco-list-row', { hasText: 'valid.rpcsv' }).first().click();
      // The submission's panel (the one with a banner) comes to the front, reused from the Submit above.
      const frame = await wb.webviewFrame(page, '.banner', wb.LONG);
      const headers = (await frame.locator('[role="columnheader"]').allInnerTexts()).map((h) => h.trim());
      await screenshot('submission-from-view');
      if (headers[0] !== 'recurring-payment-id') throw new Error(`the first column is ${headers[0]}`);
      const banner = await frame.locator('.banner').innerText();
      if (/\d{4}-\d{2}-\d{2}T\d{2}:/.test(banner)) throw new Error(`the banner shows a raw ISO time: ${banner}`);
      return `${headers.slice(0, 3).join(', ')}; ${banner.replace(/\s+/g, ' ').slice(0, 80)}`;
    },
    { previous: false },
  );

  await step(
    'a PDF report opens in the pane, drawn page by page, and its text is searchable',
    async () => {
      const runReport = command('paygate.runReport');
      await page.keyboard.press('Escape');
      await wb.quickOpenFile(page, 'transactions-pdf.report.json');
      const earlier = page.frames();
      await wb.runCommand(page, runReport.title);
      const frame = await answerPromptsUntilTable(page, earlier, 'body[data-state="ready"] .pdfViewer .page canvas');
      const pages = await frame.locator('body').getAttribute('data-pages');
      const id = clientOrderIds(path.join(workspace, 'valid.rpcsv'))[0];
      await frame.locator('input[aria-label="Find in PDF"]').fill(id);
      await frame.locator('input[aria-label="Find in PDF"]').press('Enter');
      await frame.locator('.pdf-find-count', { hasText: /of \d+ match/ }).waitFor({ timeout: wb.LONG });
      await frame.locator('.textLayer .highlight').first().waitFor({ timeout: wb.SHORT });
      await screenshot('pdf-report');
      const facts = (await frame.locator('.report-facts').innerText()).trim();
      return `${pages} page(s); ${id} found; ${facts}`;
    },
    { previous: false },
  );
}
