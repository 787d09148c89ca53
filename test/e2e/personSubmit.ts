// The person-style run (person.ts), its part: a batch sent from the palette, refused from a terminal as a resend, the status bar's environment, the Submissions view and a batch in the table.
import * as path from 'node:path';
import * as wb from './workbench';
import { type PersonRun, SUBMIT_TITLE, answerPromptsUntilTable, cardNumbers, clientOrderIds, declared } from './personRun';

export async function submitSteps(r: PersonRun): Promise<void> {
  const { manifest, workspace, page, screenshot, step, command, view, paygateCli } = r;
  await step(
    'Ctrl+P opens valid.rpcsv',
    async () => {
      await page.keyboard.press('Escape');
      await wb.quickOpenFile(page, 'valid.rpcsv');
      await screenshot('valid');
    },
    { previous: false },
  );

  await step(
    `F1 "PayGate: ${SUBMIT_TITLE}" against the local gateway shows the results table`,
    async () => {
      declared(
        manifest.contributes?.commands?.find((c) => c.title === SUBMIT_TITLE),
        `a command titled "${SUBMIT_TITLE}"`,
      );
      const expected = clientOrderIds(path.join(workspace, 'valid.rpcsv'));
      await wb.runCommand(page, SUBMIT_TITLE);
      await screenshot('submit-started');
      const frame = await answerPromptsUntilTable(page);
      // Rows render a moment after the grid; wait for the last expected one.
      await frame
        .locator('[role="gridcell"], td', { hasText: expected[expected.length - 1] })
        .first()
        .waitFor({ timeout: wb.SHORT });
      await screenshot('results-table');
      const dataRows = frame.locator('[role="row"]:has([role="gridcell"]):not(:has(input)), tbody tr').filter({ visible: true });
      const shown = await dataRows.count();
      if (shown !== expected.length) throw new Error(`the table shows ${shown} rows, the batch has ${expected.length}`);
      for (const id of expected) {
        if ((await frame.locator('[role="gridcell"], td', { hasText: id }).count()) === 0) throw new Error(`row ${id} is not in the table`);
      }
      // Submit lints first, so by now the Problems panel has had its say about the valid file: nothing.
      const valid = page.locator('.markers-panel .monaco-list-row[aria-level="1"]', { hasText: 'valid.rpcsv' });
      if ((await valid.count()) > 0) throw new Error('the Problems panel lists problems in valid.rpcsv');
      const body = await frame.locator('body').innerText();
      // Outside the document, card numbers are masked (first 6, last 4) and the CVV is not shown.
      const pans = cardNumbers(path.join(workspace, 'valid.rpcsv'));
      const leaked = pans.filter((p) => body.includes(p));
      if (leaked.length > 0)
        throw new Error(`the submission panel shows full card numbers: ${leaked.map((p) => `${p.slice(0, 6)}…`).join(', ')}`);
      const masked = pans.filter((p) => body.includes(`${p.slice(0, 6)}${'*'.repeat(p.length - 10)}${p.slice(-4)}`));
      // Without the card column on screen the check above would see nothing: the masked numbers must be there.
      if (masked.length !== pans.length) throw new Error(`the panel shows ${masked.length} of the ${pans.length} card numbers masked`);
      if (!/accepted/i.test(body)) throw new Error(`the panel does not say the batch was accepted: ${body.slice(0, 200)}`);
      return `accepted; ${shown} rows: ${expected.join(', ')}`;
    },
    { previous: false },
  );

  // The practice loop (issue 30): the terminal uses the editor's local gateway and the one ledger, so the
  // file the editor just sent is refused there as a resend.
  await step("the same file from a terminal: `paygate submit valid.rpcsv` is refused (exit 2), naming the editor's send", async () => {
    const r = await paygateCli(['submit', 'valid.rpcsv']);
    if (r.code !== 2) throw new Error(`paygate submit exited ${r.code}: ${r.out.slice(0, 300)}`);
    if (!/already sent to local/.test(r.out) || !/from the editor/i.test(r.out))
      throw new Error(`the refusal says: ${r.out.slice(0, 300)}`);
    return r.out
      .split('\n')[0]
      .replace(/\/tmp\/\S+/g, '…')
      .slice(0, 140);
  });

  await step(
    'the status bar shows the active environment: PayGate: local',
    async () => {
      command('paygate.selectEnvironment');
      const item = page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: 'PayGate: local' });
      await item.first().waitFor({ state: 'visible', timeout: wb.SHORT });
    },
    { previous: false },
  );

  await step(
    'clicking the status bar item offers the environments, local among them',
    async () => {
      command('paygate.selectEnvironment');
      await page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: 'PayGate: local' }).first().click();
      const picks = page.locator('.quick-input-widget .monaco-list-row');
      await picks.first().waitFor({ state: 'visible', timeout: wb.SHORT });
      const labels = (await picks.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      await screenshot('environment-picker');
      await page.keyboard.press('Escape');
      if (!labels.some((l) => /\blocal\b/.test(l))) throw new Error(`the picker offers ${JSON.stringify(labels)}`);
      return labels.join(' | ').slice(0, 100);
    },
    { previous: false },
  );

  await step(
    'the PayGate Submissions view lists the submission',
    async () => {
      const row = await wb.viewRow(page, view('paygate.submissions').name, 'valid.rpcsv');
      await screenshot('submissions-view');
      return row.replace(/\s+/g, ' ').slice(0, 100);
    },
    { previous: false },
  );

  await step(
    'F1 "PayGate: Open CSV in PayGate Table" on valid.rpcsv shows its rows',
    async () => {
      const open = command('paygate.openCsvInTable');
      await page.keyboard.press('Escape');
      await wb.quickOpenFile(page, 'valid.rpcsv');
      const earlier = page.frames();
      await wb.runCommand(page, open.title);
      const frame = await answerPromptsUntilTable(page, earlier);
      const expected = clientOrderIds(path.join(workspace, 'valid.rpcsv'));
      await frame
        .locator('[role="gridcell"], td', { hasText: expected[expected.length - 1] })
        .first()
        .waitFor({ timeout: wb.SHORT });
      await screenshot('csv-table');
      for (const id of expected) {
        if ((await frame.locator('[role="gridcell"], td', { hasText: id }).count()) === 0) throw new Error(`row ${id} is not in the table`);
      }
      return `${expected.length} rows`;
    },
    { previous: false },
  );
}
