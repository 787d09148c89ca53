// The person-style run (person.ts), its part: callbacks (issues 22 and 39): listening from the view, the local gateway's callbacks, forward and replay.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as wb from './workbench';
import { callbackQuery } from '../../src/core/callbacks';
import { ownPayers } from '../fixtures/ledger/payers';
import { type PersonRun, editorControlKeys, within } from './personRun';

export async function callbackSteps(r: PersonRun): Promise<void> {
  const { scratch, workspace, server, page, screenshot, step, view, paygateCli } = r;
  // Callbacks (issue 22): start listening from the view, receive callbacks as the gateway would send them,
  // see them as entries with their control checked, and open one in the results panel.
  let listeningUrl: string | undefined;
  await step(
    'the PayGate Callbacks view starts listening and shows callbacks as entries with their control checked',
    async () => {
      const callbacksView = view('paygate.callbacks');
      await wb.runCommand(page, 'Start Listening for Callbacks');
      const label = await wb.viewRow(page, callbacksView.name, 'Listening on');
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(label)?.[0];
      if (!url) throw new Error(`the view shows ${label}`);
      listeningUrl = url;
      const key = editorControlKeys(scratch, server.process.pid)[0];
      const send = (status: string, order: string, k: string | undefined) =>
        fetch(`${url}paygate/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: callbackQuery({ type: 'sale', status, orderid: '1001', client_orderid: order, amount: '10.000', currency: 'EUR' }, k),
          signal: AbortSignal.timeout(wb.SHORT),
        }).then((r) => r.status);
      // The declined one as a merchant makes one up from the terminal, signed with the local gateway's key.
      const cli = await paygateCli([
        'callbacks',
        'send',
        '--to',
        `${url}paygate/notify`,
        '--client-orderid',
        'PERSON-2',
        '--status',
        'declined',
        '--amount',
        '10.00',
        '--currency',
        'EUR',
      ]);
      if (cli.code !== 0) throw new Error(`paygate callbacks send exited ${cli.code}: ${cli.out.slice(0, 200)}`);
      const answers = [await send('approved', 'PERSON-1', key), await send('approved', 'PERSON-3', 'not-the-key')];
      if (answers.some((a) => a !== 200)) throw new Error(`the listener answered ${answers.join(', ')}`);
      const row = await wb.viewRow(page, callbacksView.name, 'PERSON-2');
      const forged = await wb.viewRow(page, callbacksView.name, 'PERSON-3');
      await screenshot('callbacks-view');
      if (!/control invalid/.test(forged)) throw new Error(`a callback signed with another key reads ${forged}`);
      if (key !== undefined && !/control valid/.test(row)) throw new Error(`a callback signed with the demo merchant's key reads ${row}`);
      // The icon is the charge's status: a declined charge is no green tick, whatever its checksum.
      const callbacksPane = page.locator('.pane', {
        has: page.locator('.pane-header', { hasText: new RegExp(callbacksView.name, 'i') }).first(),
      });
      const iconOf = async (order: string) =>
        (await callbacksPane
          .locator('.monaco-list-row', { hasText: order })
          .first()
          .locator('.custom-view-tree-node-item-icon')
          .first()
          .getAttribute('class')) ?? '';
      const declinedIcon = await iconOf('PERSON-2');
      const approvedIcon = await iconOf('PERSON-1');
      if (/codicon-pass\b/.test(declinedIcon) || !/codicon-pass\b/.test(approvedIcon))
        throw new Error(`icons: declined "${declinedIcon}", approved "${approvedIcon}"`);
      const header = page.locator('.pane-header', { hasText: new RegExp(callbacksView.name, 'i') }).first();
      await page.locator('.pane', { has: header }).locator('.monaco-list-row', { hasText: 'PERSON-2' }).first().click();
      // Its own panel (titled by the client-orderid) comes to the front; its rows name the fields.
      const frame = await wb.webviewFrame(page, 'text=field client_orderid', wb.SHORT);
      await frame.locator('text=PERSON-2').first().waitFor({ timeout: wb.SHORT });
      await screenshot('callback-details');
      if (await frame.locator('button#reconcile').isVisible())
        throw new Error("the callback's page offers Reconcile…, which cannot work there");
      return `${row.replace(/\s+/g, ' ').slice(0, 80)} | ${forged.replace(/\s+/g, ' ').slice(0, 60)}`;
    },
    { previous: false },
  );

  // Issue 39: the local gateway calls back as the gateway does (the family's "Merchant Callbacks"
  // documentation: a GET with orderid, merchant_order, client_orderid, amount, status, type and control in the
  // query string). A row whose notify_url is the listener, sent from the terminal to the editor's local
  // gateway, is charged at once; its callback arrives in the view with its control valid and the real names.
  await step(
    "the local gateway's callback arrives in the Callbacks view in the gateway's shape: GET, the fields in the query string",
    async () => {
      const callbacksView = view('paygate.callbacks');
      if (!listeningUrl) throw new Error('the listener did not start');
      const [header, first] = fs.readFileSync(path.join(workspace, 'valid.rpcsv'), 'utf8').split(/\r?\n/);
      // A card of its own: GYM-2027-0001's card and schedule under another id would be the same payer (same-payer).
      const row = ownPayers(first.replace(/^GYM-2027-0001;/, 'PERSON-CB-1;'), 'PERSON-CB').replace(/;$/, `;${listeningUrl}paygate/notify`);
      fs.writeFileSync(path.join(workspace, 'callback.rpcsv'), `${header}\r\n${row}\r\n`);
      const sent = await paygateCli(['submit', 'callback.rpcsv']);
      if (sent.code !== 0) throw new Error(`paygate submit exited ${sent.code}: ${sent.out.slice(0, 300)}`);
      const label = await wb.viewRow(page, callbacksView.name, 'PERSON-CB-1');
      const header2 = page.locator('.pane-header', { hasText: new RegExp(callbacksView.name, 'i') }).first();
      await page.locator('.pane', { has: header2 }).locator('.monaco-list-row', { hasText: 'PERSON-CB-1' }).first().click();
      // This call's own details page: another callback's may still be open a moment (it shows the same field
      // names), and its frame goes away under the read when this one's tab takes its place.
      let request = '';
      for (let attempt = 1; attempt <= 3 && request === ''; attempt++) {
        const frame = await wb.webviewFrame(page, 'text=PERSON-CB-1', wb.SHORT);
        request =
          (await frame
            .locator('text=/GET \\/paygate\\/notify\\?/')
            .first()
            .textContent({ timeout: wb.SHORT })
            .catch((err: unknown) => {
              if (attempt === 3) throw err;
              return '';
            })) ?? '';
      }
      await screenshot('callback-real-shape');
      if (!/control valid/.test(label)) throw new Error(`the local gateway's callback reads ${label}`);
      for (const part of ['type=sale', 'client_orderid=PERSON-CB-1', 'merchant_order=PERSON-CB-1', 'control='])
        if (!request.includes(part)) throw new Error(`the request line lacks ${part}: ${request.slice(0, 200)}`);
      return `${label.replace(/\s+/g, ' ').slice(0, 80)} | ${request.slice(0, 80)}`;
    },
  );

  await step('"Forward Callbacks to..." passes callbacks to a handler, and "Replay Callback to..." sends one again', async () => {
    const callbacksView = view('paygate.callbacks');
    // (after the step above: it failed, or it left the listener running and its address here)
    if (!listeningUrl) throw new Error('the listener did not start');
    const received: string[] = [];
    let twoReceived: () => void = () => undefined;
    const two = new Promise<void>((resolve) => (twoReceived = resolve));
    const handler = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push(`${req.url} ${body}`);
        if (received.length === 2) twoReceived();
        res.end('handled');
      });
    });
    handler.listen(0, '127.0.0.1');
    await new Promise((r) => handler.once('listening', r));
    const hook = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/hook`;
    try {
      // Forwarding to the listener's own address would loop: refused, and the listener goes on where it was.
      await wb.runCommand(page, 'Forward Callbacks to...');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: wb.SHORT });
      await input.fill(listeningUrl);
      await page.keyboard.press('Enter');
      await page
        .locator('.notifications-toasts', { hasText: /not forwarding: .*this listener itself/ })
        .first()
        .waitFor({ timeout: wb.SHORT });
      await screenshot('forward-to-itself-refused');
      const still = await wb.viewRow(page, callbacksView.name, 'Listening on');
      if (!still.includes(listeningUrl) || /forwarding to/.test(still))
        throw new Error(`after forwarding to itself the view shows ${still}`);
      const alive = await fetch(`${listeningUrl}paygate/notify`, {
        method: 'POST',
        body: 'status=approved',
        signal: AbortSignal.timeout(wb.SHORT),
      });
      await alive.arrayBuffer();
      if (alive.status !== 200) throw new Error(`the listener answered ${alive.status} after the refused forward`);
      await wb.runCommand(page, 'Forward Callbacks to...');
      await input.waitFor({ state: 'visible', timeout: wb.SHORT });
      await input.fill(hook);
      await page.keyboard.press('Enter');
      await wb.viewRow(page, callbacksView.name, 'forwarding to');
      const answer = await fetch(`${listeningUrl}paygate/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: callbackQuery({
          type: 'sale',
          status: 'approved',
          orderid: '1002',
          client_orderid: 'PERSON-4',
          amount: '5.000',
          currency: 'EUR',
        }),
        signal: AbortSignal.timeout(wb.SHORT),
      });
      if ((await answer.text()) !== 'handled') throw new Error(`the caller got HTTP ${answer.status}, not the handler's answer`);
      const header = page.locator('.pane-header', { hasText: new RegExp(callbacksView.name, 'i') }).first();
      const row = page.locator('.pane', { has: header }).locator('.monaco-list-row', { hasText: 'PERSON-4' }).first();
      await row.waitFor({ state: 'visible', timeout: wb.SHORT });
      await row.hover();
      await row.locator('.action-label[aria-label*="Replay Callback"]').click();
      await input.waitFor({ state: 'visible', timeout: wb.SHORT });
      await input.fill(hook);
      await page.keyboard.press('Enter');
      await within(two, wb.SHORT);
      await screenshot('callbacks-forward-replay');
      if (received.length !== 2 || received[0] !== received[1]) throw new Error(`the handler received ${JSON.stringify(received)}`);
      return `the handler received ${received[0].split(' ')[0]} twice, the same bytes`;
    } finally {
      await new Promise<void>((r) => (handler.close(() => r()), handler.closeAllConnections()));
    }
  });
}
