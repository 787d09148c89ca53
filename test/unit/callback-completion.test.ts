// The listening address offered in a batch's notify_url / server_callback_url cell, only while the editor
// listens (paygate/callbackAddress), and nowhere else.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lint } from '../../src/core/rules/lint';
import { completionsAt } from '../../src/language-server/completion';
import { setCallbackAddress } from '../../src/language-server/callbackAddress';
import { TODAY } from '../fixtures/lint-cases/helpers';

const TEXT = 'client-orderid;amount;notify_url;server_callback_url\nord-1;5;;\n';
const doc = TextDocument.create('file:///b.rpcsv', 'paygate-recurring-csv', 1, TEXT);
const support = { insertReplace: false, labelDetails: false };
const at = (column: number) => completionsAt(doc, lint(TEXT, { today: TODAY }), { line: 1, character: column }, support);

afterEach(() => setCallbackAddress({ url: null }));

test('while listening, notify_url and server_callback_url cells offer the listening address', () => {
  setCallbackAddress({ url: 'http://127.0.0.1:4567/' });
  for (const column of [8, 9]) {
    const items = at(column);
    assert.deepEqual(
      items?.map((i) => i.label),
      ['http://127.0.0.1:4567/paygate/notify'],
      `column at ${column}`,
    );
  }
  assert.equal(at(0), null, 'not in client-orderid');
});

test('not listening (or an address off the machine): nothing is offered', () => {
  assert.equal(at(8), null);
  setCallbackAddress({ url: 'http://example.com:4567/' });
  assert.equal(at(8), null);
});
