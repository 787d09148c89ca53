import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lint } from '../../src/core/rules/lint';
import { hoverAt } from '../../src/language-server/hover';

// Issue 39, item 5: the hovers of notify_url and server_callback_url say what each hears. The gateway
// family's documentation ("Merchant Callbacks"): notify_url also hears later transactions of the payment
// (each recurring charge, a reversal, a chargeback); server_callback_url only the initial transaction; and
// the gateway calls back only on ports 80/8080 (http) and 443/8443 (https).

const TEXT = [
  'client-orderid;rp_card_type;credit-card-number;currency;amount;notify_url;server_callback_url',
  'O-1;SRC;4111111111111111;EUR;1.00;;',
].join('\r\n');

function headerHover(column: string): string {
  const doc = TextDocument.create('file:///h.rpcsv', 'paygate-recurring-csv', 1, TEXT);
  const hover = hoverAt(doc, lint(TEXT), { line: 0, character: TEXT.indexOf(column) + 1 });
  assert.ok(hover, column);
  return (hover.contents as { value: string }).value.replace(/\\/g, '');
}

test('notify_url hovers as hearing every later transaction, each recurring charge included', () => {
  const md = headerHover('notify_url');
  assert.match(md, /every later transaction of the payment, each recurring charge included/);
  assert.match(md, /ports 80\/8080 \(http\) and 443\/8443 \(https\)/);
});

test('server_callback_url hovers as hearing the first transaction only', () => {
  const md = headerHover('server_callback_url');
  assert.match(md, /the first transaction only, not each later charge/);
});
