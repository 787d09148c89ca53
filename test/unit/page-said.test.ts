import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ourWords, terminalSafe } from '../../src/core/output';
import { isHostToPage, type HostToPage } from '../../src/shared/resultsProtocol';
import { isForecastHostToPage, type ForecastHostToPage } from '../../src/shared/forecastProtocol';
import { isHostToPdfPage, type HostToPdfPage } from '../../src/shared/pdfProtocol';
import { said, saidText, typed } from '../../src/shared/said';

// Issue 38, item 1 ("mask values, not layouts"), for the pages' status lines: how an export or a save ended,
// why a file is not read or a PDF not shown. The host used to compose each as one string and read it whole
// (webviewPage.ts `pageMessage`: `shown(ourWords(message))`), so two values meeting on the line were read as
// one number. Now the message carries a `Said` (src/core/output/said.ts), the protocol's guard checks its
// shape, and the page lays it out where it shows it (src/shared/said.ts), each value alone by its type. What
// the pages draw from it: test/webview/panel.test.ts, forecast.test.ts and pdf.test.ts.

const CARD = '4111 1111 1111 1111';
const MASKED = '4111 11** **** 1111';

/**
 * A line where two values meet with only a separator between them: the first and last line of a range, two
 * counts (`1000001–1000054`: 14 digits joined by an en dash, which pass Luhn), beside a file name holding a
 * card number. No line the host posts today puts two values so close (our words stand between them); this is
 * built by hand as a status line could be, and could not be posted before (a message was a string).
 */
const line = said`Exported lines ${typed.count('1000001')}–${typed.count('1000054')} to ${typed.text(`/tmp/${CARD}.csv`)}.`;
const LAID = `Exported lines 1000001–1000054 to /tmp/${MASKED}.csv.`;

test('a status line laid out by the page keeps two values that meet, and masks a card number in a file name', () => {
  assert.equal(saidText(line), LAID);
  // The same line composed and read whole, as the host did before, damages the two counts.
  const whole = terminalSafe(saidText(ourWords(`Exported lines 1000001–1000054 to /tmp/${CARD}.csv.`)));
  assert.notEqual(whole, LAID);
  assert.match(whole, /100000\*–\*\*\*0054/);
  assert.ok(whole.endsWith(`/tmp/${MASKED}.csv.`), whole);
});

test('the pages take a status line only as a Said: a plain string is refused by each protocol guard', () => {
  const bad = { said: [['count', 1]] };
  for (const [guard, msg] of [
    [isHostToPage, { type: 'exportDone', ok: true }],
    [isHostToPage, { type: 'csvFailed' }],
    [isForecastHostToPage, { type: 'exportDone', ok: false }],
    [isHostToPdfPage, { type: 'saveDone', ok: true }],
    [isHostToPdfPage, { type: 'pdfFailed', title: said`Report: ${typed.text('r.pdf')}` }],
  ] as const) {
    assert.ok(guard({ ...msg, message: line }), `${msg.type} with a Said`);
    assert.equal(guard({ ...msg, message: LAID }), false, `${msg.type} with a string`);
    assert.equal(guard({ ...msg, message: bad }), false, `${msg.type} with a part that is no value`);
    assert.equal(guard({ ...msg }), false, `${msg.type} without a message`);
  }
});

test('a plain string does not compile where a status line is posted', () => {
  // @ts-expect-error -- an export's end is a Said
  const results: HostToPage = { type: 'exportDone', ok: true, message: LAID };
  // @ts-expect-error -- why a file cannot be read is a Said
  const failed: HostToPage = { type: 'csvFailed', message: LAID };
  // @ts-expect-error -- the forecast's export too
  const forecast: ForecastHostToPage = { type: 'exportDone', ok: true, message: LAID };
  // @ts-expect-error -- a PDF saved or not
  const saved: HostToPdfPage = { type: 'saveDone', ok: true, message: LAID };
  // @ts-expect-error -- why a PDF is not shown
  const refused: HostToPdfPage = { type: 'pdfFailed', title: 'Report: r.pdf', message: LAID };
  assert.equal([results, failed, forecast, saved, refused].length, 5);
});

test('words without values are the same words on the page', () => {
  for (const words of ['Export cancelled.', 'Not saved.', 'There is no PDF to save.']) assert.equal(saidText(ourWords(words)), words);
  const refusal = said`${typed.text('report.pdf')} is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.`;
  assert.equal(saidText(refusal), 'report.pdf is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.');
});

test("a page's title and a reconciliation's note are Saids too: a plain string is refused and does not compile", () => {
  const title = said`Report: ${typed.text(`${CARD}.csv`)}`;
  assert.equal(saidText(title), `Report: ${MASKED}.csv`);
  const inline = { kind: 'inline' } as const;
  for (const [guard, msg] of [
    [isHostToPage, { type: 'table', columns: ['a'], rows: [['1']], source: inline }],
    [isHostToPage, { type: 'csvStart', source: inline }],
    [isHostToPdfPage, { type: 'pdf', info: { bytes: 1 }, data: new Uint8Array(1) }],
    [isHostToPdfPage, { type: 'pdfFailed', message: line }],
  ] as const) {
    assert.ok(guard({ ...msg, title }), `${msg.type} with a Said title`);
    assert.equal(guard({ ...msg, title: saidText(title) }), false, `${msg.type} with a string title`);
  }
  const view = { title, window: { from: '2027-01-01', to: '2027-01-31' }, note: title, summary: [], columns: ['a'], rows: [] };
  assert.ok(isHostToPage({ type: 'reconciliation', view }));
  assert.equal(isHostToPage({ type: 'reconciliation', view: { ...view, title: 'Reconciliation: r.csv' } }), false);
  assert.equal(isHostToPage({ type: 'reconciliation', view: { ...view, note: 'charge status from …' } }), false);
  // @ts-expect-error -- a table's title is a Said
  const table: HostToPage = { type: 'table', title: 'Report: r.csv', columns: [], rows: [], source: inline };
  // @ts-expect-error -- a PDF's title too
  const pdf: HostToPdfPage = { type: 'pdf', title: 'Report: r.pdf', info: { bytes: 1 }, data: new Uint8Array(1) };
  assert.equal([table, pdf].length, 2);
});
