import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lint } from '../../src/core/rules/lint';
import { hoverAt } from '../../src/language-server/hover';
import type { PreviewToday } from '../../src/shared/lintProtocol';

// Issue 38, item 1 ("mask values, not layouts"), for the schedule hover on a row's first cell: it was composed
// as one Markdown text and read whole by the floor (`terminalSafe(md)`), so two values meeting on it were read
// as one number, and the Markdown escapes (a backslash before every dot and dash) hid a card number in a value
// from that scan. It is now a `Said` laid out by saidMarkup: each value checked alone by its type, then
// escaped. Each test here failed before.

const HEADER = 'client-orderid;rp_card_type;credit-card-number;currency;amount;amount-from;amount-to;period;interval;start-date';

/** The hover on the first cell of the row, as the user reads it: Markdown's escapes removed. */
function hoverOnRow(row: string, preview: PreviewToday = { today: '29.12.2026', source: "the local gateway's simulated date" }) {
  const text = `${HEADER}\r\n${row}`;
  const doc = TextDocument.create('file:///t.rpcsv', 'paygate-recurring-csv', 1, text);
  const hover = hoverAt(doc, lint(text), { line: 1, character: 0 }, undefined, preview);
  assert.ok(hover);
  const md = (hover.contents as { value: string }).value;
  return { md, read: md.replace(/\\(.)/g, '$1') };
}

test("a random amount's two ends meet across its dash and stay whole (read whole, 1000001–1000054 passes Luhn)", () => {
  const { read } = hoverOnRow('ORD-1;SRC;4111111111111111;EUR;;1000001;1000054;month;1;15.01.2027');
  assert.match(read, /\| 0 \| 15\.01\.2027 \| 1000001–1000054 \|/);
  assert.doesNotMatch(read, /\*–\*/, 'before: 100000*–***0054');
});

test('an order id and a card type beside it across the middle dot are two values, each whole', () => {
  const { read } = hoverOnRow('ORD 4111 1111;1111 1111 X;4111111111111111;EUR;10.00;;;month;1;15.01.2027');
  assert.match(read, /^\*\*Charges\*\* — Row 1 · order ORD 4111 1111 · 1111 1111 X · card 411111\*{6}1111\n/);
});

test('a card number in a value is masked, though the Markdown escapes put a backslash between its groups', () => {
  // Where the day comes from is the client's text (the language client sends it with the day).
  const { md, read } = hoverOnRow('ORD-1;SRC;4111111111111111;EUR;10.00;;;month;1;', {
    today: '29.12.2026',
    source: 'prod 4111.1111.1111.1111',
  });
  assert.match(read, /\(today on prod 4111\.11\*\*\.\*{4}\.1111, 29\.12\.2026\)/);
  assert.doesNotMatch(read, /4111\.1111\.1111\.1111/, 'before: escaped as 4111\\.1111\\.… and shown whole');
  assert.ok(md.includes('prod 4111\\.11\\*\\*\\.\\*\\*\\*\\*\\.1111'), 'masked, then escaped for Markdown');
  // A card number in the order id and the card column: masked as before.
  const card = hoverOnRow('4111-1111-1111-1111;SRC;5105105105105100;EUR;10.00;;;month;1;15.01.2027').read;
  assert.match(card, /order 4111-11\*\*-\*{4}-1111 · SRC · card 510510\*{6}5100/);
});

test('the hover stays Markdown that shows a value literally, and our words as they were', () => {
  const { md, read } = hoverOnRow('[x](command:evil);SRC;4111111111111111;EUR;5.00;;;month;1;15.01.2027');
  assert.ok(md.includes('order \\[x\\]\\(command\\:evil\\)'), md);
  assert.match(read, /\| # \| date \| amount \|\n\|---:\|---\|---:\|\n\| 0 \| 15\.01\.2027 \| 5\.00 \|/);
  assert.match(read, /… and more\./);
  const bad = hoverOnRow('ORD-1;SRC;4111111111111111;EUR;10.00;;;month;1;2027-01-15').read;
  assert.match(bad, /The schedule cannot be computed:\n\n- start-date "2027-01-15" is not a real date written DD\.MM\.YYYY\n/);
});
