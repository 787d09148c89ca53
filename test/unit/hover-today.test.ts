import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { formatGatewayDate, todayLocal } from '../../src/core/dates';
import { lint } from '../../src/core/rules/lint';
import { hoverAt } from '../../src/language-server/hover';

// Issue 19, item 7: a row without start-date is charged on the day the batch is created; on a local
// gateway that is its simulated day, which the client tells the server, and the hover says so.

const TEXT = [
  'client-orderid;rp_card_type;credit-card-number;currency;amount;period;interval',
  'ORD-1;SRC;4111111111111111;EUR;10.00;month;1',
].join('\r\n');

function hoverOnRow(preview?: { today?: string; source?: string }): string {
  const doc = TextDocument.create('file:///t.rpcsv', 'paygate-recurring-csv', 1, TEXT);
  const hover = hoverAt(doc, lint(TEXT), { line: 1, character: 1 }, undefined, preview);
  assert.ok(hover);
  // Without Markdown's escapes, to read it as the user does.
  return (hover.contents as { value: string }).value.replace(/\\/g, '');
}

test("the hover counts from the local gateway's simulated day when the client sends one, and names it", () => {
  const md = hoverOnRow({ today: '29.12.2026', source: "the local gateway's simulated date" });
  assert.match(md, /\| 0 \| 29\.12\.2026 \|/);
  assert.match(md, /today on the local gateway's simulated date, 29\.12\.2026/);
});

test("without a preview day the hover counts from this machine's today", () => {
  const md = hoverOnRow();
  assert.match(md, new RegExp(`\\(today, ${formatGatewayDate(todayLocal()).replace(/\./g, '\\.')}\\)`));
});

test('a DST row hovers as a payout (money paid out to the receiver), never as a charge', () => {
  const text = [
    'client-orderid;rp_card_type;credit-card-number;currency;amount;start-date',
    'PAY-1;DST;6011111111111117;EUR;120.00;15.01.2027',
  ].join('\r\n');
  const doc = TextDocument.create('file:///p.rpcsv', 'paygate-recurring-csv', 1, text);
  const hover = hoverAt(doc, lint(text), { line: 1, character: 1 }, undefined, {});
  assert.ok(hover);
  const md = (hover.contents as { value: string }).value.replace(/\\/g, '');
  assert.match(md, /^\*\*Payouts\*\* — Row 1 · order PAY-1 · DST · card 601111\*{6}1117/);
  assert.match(md, /paid out to the receiver's card/);
  assert.match(md, /\| 0 \| 15\.01\.2027 \| 120\.00 \|/);
  assert.match(md, /One payout in all\./);
  assert.doesNotMatch(md, /charge(?!s\.)/, 'no word of charging it (only "apart from the charges.")');
});
