// The person-style run (person.ts), its part: reconciliation (issue 20) and knowing what was already sent (issue 29): the CVV offer, already-sent on a re-export, Compare with Last Sent, the row question.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as wb from './workbench';
import { ownPayers } from '../fixtures/ledger/payers';
import { type PersonRun, SUBMIT_TITLE, answerPromptsUntilTable, clientOrderIds, waitForProblems } from './personRun';

export async function ledgerSteps(r: PersonRun): Promise<void> {
  const { workspace, monthly, validText, page, screenshot, step, command, palette, closeAllEditors } = r;
  // Reconciliation (issue 20): advance the clock, pull the report, reconcile it from the report's page.
  await step(
    'advance the clock, run the report, "Reconcile…" on its page shows the reconciliation view',
    async () => {
      command('paygate.reconcileWithReport');
      const advance = command('paygate.advanceLocalGatewayClock');
      const runReport = command('paygate.runReport');
      await page.keyboard.press('Escape');
      await wb.runCommand(page, advance.title);
      // The days box, not the palette that opened it (Enter on the palette would leave the clock where it was).
      await page.locator('.quick-input-widget', { hasText: /simulated clock forward/ }).waitFor({ state: 'visible', timeout: wb.SHORT });
      await page.keyboard.press('Enter'); // the offered 35 days
      await page
        .locator('.notifications-toasts', { hasText: /Advanced \d+ days/ })
        .first()
        .waitFor({ timeout: wb.LONG });
      await wb.quickOpenFile(page, 'transactions.report.json');
      await wb.runCommand(page, runReport.title);
      // The report's panel is the one an earlier step opened (the same report reuses its panel): find it by
      // the report's own column, then wait for the charges the clock made (more rows than the batch has).
      const report = await answerPromptsUntilTable(page, [], '[role="columnheader"]:has-text("Merchant_OID")');
      const batchRows = clientOrderIds(path.join(workspace, 'valid.rpcsv')).length;
      // aria-rowindex counts the two header rows: the first row past the batch's is batchRows + 3.
      await report.locator(`.row.data[aria-rowindex="${batchRows + 3}"]`).waitFor({ timeout: wb.LONG });
      await report.locator('button#reconcile').click();
      const frame = await wb.webviewFrame(page, '.reconcile-banner', wb.LONG);
      await frame.locator('[data-status]').first().waitFor({ timeout: wb.SHORT });
      const headers = (await frame.locator('[role="columnheader"]').allInnerTexts()).map((h) => h.trim());
      await screenshot('reconciliation');
      if (headers[0] !== 'reconciliation') throw new Error(`the first column is ${headers[0]}`);
      const banner = (await frame.locator('.reconcile-banner').innerText()).replace(/\s+/g, ' ');
      const window = /Window (\S+) to (\S+);/.exec(banner);
      if (!window || window[1] === window[2]) throw new Error(`the window does not span the advanced clock: ${banner.slice(0, 160)}`);
      const expected = clientOrderIds(path.join(workspace, 'valid.rpcsv'));
      for (const id of expected)
        if ((await frame.locator('[role="gridcell"]', { hasText: id }).count()) === 0) throw new Error(`no reconciliation row for ${id}`);
      // The loop holds together: one gateway, one clock, one ledger, so every row is ok.
      const chips = (await frame.locator('.status-chip[data-status]').allInnerTexts()).map((t) => t.trim());
      if (!/Every payment charged as scheduled/.test(banner) || chips.length !== 1 || chips[0] !== `ok ${expected.length}`)
        throw new Error(`not all ok: ${chips.join(', ')}; ${banner.slice(0, 120)}`);
      return banner.slice(0, 120);
    },
    { previous: false },
  );

  // Knowing what was already sent (issue 29): the CVV offer after an accepted send, already-sent on a
  // re-exported batch, Compare with Last Sent, the row question, and the CVV quick fix.
  await step(
    'after an accepted send of a batch holding CVVs, a notification offers to empty them',
    async () => {
      if (!command('paygate.compareWithLastSent')) throw new Error('no Compare with Last Sent command');
      await page.keyboard.press('Escape');
      await closeAllEditors();
      await wb.quickOpenFile(page, 'monthly.rpcsv');
      await wb.runCommand(page, SUBMIT_TITLE);
      // The offer comes with the results panel, and a toast hides after a while: it is watched for from
      // the send on, and read while it shows, not after the panel's rows (which can take longer).
      const offer = page.locator('.notification-toast', { hasText: /still holds CVVs/ }).first();
      const before = fs.readFileSync(monthly, 'utf8');
      const offered = offer.waitFor({ state: 'visible', timeout: wb.SHORT }).then(async () => {
        await screenshot('strip-cvv-offer');
        const button = offer.locator('.monaco-button', { hasText: 'Empty the cvv2 values' });
        const buttons = await button.count();
        const text = (await offer.innerText()).replace(/\s+/g, ' ').slice(0, 120);
        // A person takes the offer (issue 43: it rewrote the quoted description's LF as CRLF).
        if (buttons > 0) await button.first().click();
        return { text, buttons };
      });
      // Awaited below; handled now, so a failure of the table's wait first is not an unhandled rejection.
      offered.catch(() => undefined);
      const frame = await answerPromptsUntilTable(page);
      await frame.locator('[role="gridcell"], td', { hasText: 'MON-0004' }).first().waitFor({ timeout: 15_000 });
      const seen = await offered;
      if (seen.buttons === 0) throw new Error('the notification has no "Empty the cvv2 values" button');
      // Only the cvv2 cells change on disk: the CRLF file's quoted "Savings plan:\nrising amounts" keeps its LF.
      const expected = before.replace(/;(\d{3,4});(Membership|Subscription|Savings|Payout)?;\r\n/g, ';;$2;\r\n');
      if (expected === before) throw new Error('the batch held no CVV to empty');
      const deadline = Date.now() + wb.SHORT;
      while (fs.readFileSync(monthly, 'utf8') !== expected && Date.now() < deadline) await page.waitForTimeout(250);
      const after = fs.readFileSync(monthly, 'utf8');
      if (after !== expected)
        throw new Error(`the file on disk is not the batch with its cvv2 emptied, byte for byte: ${JSON.stringify(after.slice(0, 600))}`);
      await screenshot('strip-cvv-emptied');
      return `${seen.text}; emptied, "Savings plan:\\nrising amounts" kept its LF`;
    },
    { previous: false },
  );

  await step(
    'the batch re-exported (rows reordered, one description fixed, a row added): already-sent on every row sent before',
    async () => {
      const rows = ownPayers(validText.replace(/[A-Z]{3}-2027-/g, 'MON-'), 'MON').split(/(?<=\r\n)(?=MON-)/);
      const added = 'MON-0005;DST;Payout to a new partner;;;;;;;;;;;;;;;80.00;;;;EUR;NEW PARTNER;6011000990139424;05;2030;;;\r\n';
      fs.writeFileSync(
        monthly,
        [rows[0], ...rows.slice(1).reverse(), added].join('').replace('Gym membership, monthly', 'Gym membership (monthly)'),
      );
      await closeAllEditors();
      await wb.quickOpenFile(page, 'monthly.rpcsv');
      const sent = await waitForProblems(page, /was already sent on/, 4);
      await screenshot('already-sent');
      if (sent.some((p) => /MON-0005/.test(p))) throw new Error('the new row is said to be already sent');
      return sent[0].slice(0, 160);
    },
    { previous: false },
  );

  await step(
    '"PayGate: Compare with Last Sent" opens the diff editor and a summary',
    async () => {
      await wb.runCommand(page, 'Compare with Last Sent');
      await page.locator('.tab', { hasText: 'monthly.rpcsv: last sent' }).first().waitFor({ state: 'visible', timeout: 20_000 });
      const summary = page.locator('.notification-toast', { hasText: /1 added, 0 removed, 1 changed, 3 unchanged/ }).first();
      await summary.waitFor({ state: 'visible', timeout: 20_000 });
      await page
        .locator('.editor-instance .view-line', { hasText: 'changed: order_desc' })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
      await screenshot('compare-with-last-sent');
      return (await summary.innerText()).replace(/\s+/g, ' ').slice(0, 160);
    },
    { previous: false },
  );

  await step(
    "submitting the re-export asks about the rows already sent: Don't send first, then move them out or send anyway",
    async () => {
      await closeAllEditors();
      await wb.quickOpenFile(page, 'monthly.rpcsv');
      await palette(`PayGate: ${SUBMIT_TITLE}`, true);
      const quick = page.locator('.quick-input-widget');
      await quick
        .locator('.monaco-list-row', { hasText: /already-sent rows/ })
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });
      const answers = await quick.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
      await screenshot('already-sent-question');
      if (
        answers.length !== 3 ||
        !/^Don't send/.test(answers[0]) ||
        !/^Move the 4 already-sent rows/.test(answers[1]) ||
        !/Send anyway/.test(answers[2])
      )
        throw new Error(`the answers are: ${answers.join(' | ')}`);
      await page.keyboard.press('Escape');
      return answers.map((a) => a.split(',')[0]).join(' / ');
    },
    { previous: false },
  );
}
