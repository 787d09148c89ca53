// A report larger than a few chunks, read in real headless Chromium as the editor feeds it (UTF-8 bytes,
// transferred): the page's parse worker reads every other chunk, and the rows are exactly one reader's,
// with the worker, without it (a policy that refuses it leaves the page to read everything), and with a
// worker that breaks in the middle (the page reads the chunks the worker took and never answered).
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { CsvReader, unescape } from '../../src/shared/reportReader';
import type { PageToHost } from '../../src/shared/resultsProtocol';
import { csvChunks, launch, openPage, type PageHandle } from './harness';

/** Quoted line breaks, doubled quotes, characters of two, three and four bytes, a blank line now and then. */
function report(rows: number): string {
  const descs = ['Plain order', 'Two\r\nlines', 'He said "stop", then left', 'Straße № 5 — ok', 'emoji 💳 card', '"\r\n"', ''];
  let text = '"Merchant_Name","Transaction_id","Amount","Order_description"\r\n';
  for (let i = 0; i < rows; i++) {
    text += `"Shop ${i % 7}","${1_000_000 + i}","${(i * 7.31).toFixed(2)}","${descs[i % descs.length].replace(/"/g, '""')}"\r\n`;
    if (i % 997 === 0) text += '\r\n';
  }
  return text;
}

/** What one reader reads from the whole text. */
function expectedRows(text: string): string[][] {
  const rows: string[][] = [];
  let width = 1;
  const reader = new CsvReader({
    delimiter: ',',
    onHeader: (h) => (width = h.length),
    onPiece: (p) => {
      for (let r = 0; r < p.rows; r++)
        rows.push(
          Array.from({ length: width }, (_, c) =>
            unescape(p.text, p.start[r * width + c], p.end[r * width + c], p.escaped?.[r * width + c] === 1),
          ),
        );
    },
  });
  reader.push(text);
  reader.end();
  return rows;
}

/** Loads the report in 256 KiB chunks; returns the rows the page exports and how its chunks were read. */
async function load(h: PageHandle, text: string): Promise<{ rows: string[][]; chunks: { byWorker: number; byPage: number } }> {
  await h.post({ type: 'csvStart', title: { said: ['Big report'] }, source: { kind: 'inline' } });
  for (const chunk of csvChunks(text, 256 * 1024 + 3)) await h.post(chunk);
  await h.post({ type: 'csvEnd' });
  await h.waitReady();
  const chunks = await h.page.evaluate(
    () => (performance.getEntriesByName('paygate:all-rows')[0] as PerformanceMark).detail as { byWorker: number; byPage: number },
  );
  await h.page.click('#export-csv');
  const exported = (await h.posted()).filter((m): m is Extract<PageToHost, { type: 'export' }> => m.type === 'export').pop();
  assert.ok(exported, 'no export');
  return { rows: exported.rows, chunks };
}

describe('a large report read with the parse worker', () => {
  let context: BrowserContext;
  let close: () => Promise<void>;
  const text = report(40_000);
  const expected = expectedRows(text);

  before(async () => ({ context, close } = await launch()));
  after(async () => close?.());

  it('reads every other chunk in the worker, under the panel’s policy, and the rows are one reader’s', async () => {
    const h = await openPage(context);
    const { rows, chunks } = await load(h, text);
    assert.equal(rows.length, expected.length);
    assert.deepEqual(rows, expected);
    assert.ok(chunks.byWorker >= 3, `the worker read ${chunks.byWorker} chunks, the page ${chunks.byPage}`);
    // The harness's own probe (an inline style) is the one violation a page shows.
    assert.deepEqual(await h.violations(), ['style-src-elem inline'], 'the policy allowed the worker');
    assert.deepEqual(h.errors, []);
  });

  it('reads everything itself where no worker may start, with the same rows', async () => {
    const h = await openPage(context, { extraDirectives: [] });
    const { rows, chunks } = await load(h, text);
    assert.deepEqual(rows, expected);
    assert.equal(chunks.byWorker, 0);
    assert.ok(
      (await h.violations()).some((v) => v.startsWith('worker-src')),
      'the worker was refused by the policy',
    );
    assert.deepEqual(h.errors, []);
  });

  it('reads the chunks a worker took and never answered when it breaks, with the same rows', async () => {
    const h = await openPage(context);
    // The page's Worker, wrapped: after its second chunk the worker stops (terminated, with the chunks it
    // was sent since unanswered) and reports an error, as a worker that crashed would.
    await h.page.evaluate(`{
      const Real = window.Worker;
      window.__workerChunks = 0;
      window.Worker = class extends Real {
        postMessage(message, transfer) {
          super.postMessage(message, transfer);
          if (++window.__workerChunks !== 2) return;
          this.terminate();
          setTimeout(() => this.onerror?.(new ErrorEvent('error', { message: 'the worker broke' })), 0);
        }
      };
    }`);
    const { rows, chunks } = await load(h, text);
    assert.deepEqual(rows, expected);
    assert.ok(chunks.byWorker <= 1, `the worker's records were kept for ${chunks.byWorker} chunks`);
    const sent = (await h.page.evaluate('window.__workerChunks')) as number;
    assert.ok(sent >= 2, `the worker was sent ${sent} chunks`);
    assert.deepEqual(h.errors, []);
  });
});
