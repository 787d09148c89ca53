// batch-too-large from the language server, as an editor sees it over stdio: a batch over the maximum
// given at initialize (as `paygate lsp` gives the active environment's) gets the warning on its first line,
// linking to its rule; a client's new maximum (the VS Code client's notification when the environment or
// its settings change) weighs every open document again: under the new one, the warning goes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { payloadLength } from '../../src/core/payload';
import { PAYLOAD_LIMIT_NOTIFICATION } from '../../src/shared/lintProtocol';
import { CLI, LANGUAGE_ID, messageText, ROOT, TestClient } from './client';

const valid = readFileSync(path.join(ROOT, 'examples', 'valid.rpcsv'), 'utf8');
const size = payloadLength(valid);

describe('batch-too-large in the language server', () => {
  let client: TestClient;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    client = new TestClient();
    await client.initialize({ textDocument: { synchronization: { didSave: true } } }, { paygate: { maxPayloadBytes: size - 1 } });
  });

  after(async () => {
    await client.stop();
  });

  const open = (name: string, text: string) => {
    const uri = `file:///nowhere/${name}`;
    void client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text } });
    return uri;
  };
  const tooLarge = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'batch-too-large');

  it('warns on the first line of a batch over the maximum, with the sizes and how to split it', async () => {
    const uri = open('big.rpcsv', valid);
    const { diagnostics } = await client.diagnostics(uri, 'batch-too-large', (p) => tooLarge(p.diagnostics).length === 1);
    const [d] = tooLarge(diagnostics);
    assert.equal(d.severity, 2, 'a warning');
    assert.equal(d.source, 'paygate');
    assert.equal(d.range.start.line, 0);
    assert.match(
      messageText(d),
      new RegExp(`payload is ${size.toLocaleString('en-US')} bytes .* maximum of ${(size - 1).toLocaleString('en-US')}`),
    );
    assert.match(messageText(d), /paygate split --max-bytes/);
    assert.match(d.codeDescription?.href ?? '', /rules\.md#batch-too-large$/);
  });

  it('weighs every open document again when the client names another maximum', async () => {
    const uri = open('weighed.rpcsv', valid);
    await client.diagnostics(uri, 'the warning first', (p) => tooLarge(p.diagnostics).length === 1);
    void client.connection.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, { maxPayloadBytes: size });
    const { diagnostics } = await client.diagnostics(uri, 'no warning at the maximum', (p) => tooLarge(p.diagnostics).length === 0);
    assert.equal(tooLarge(diagnostics).length, 0);
    void client.connection.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, { maxPayloadBytes: 100 });
    await client.diagnostics(uri, 'the warning again', (p) => tooLarge(p.diagnostics).length === 1);
  });
});
