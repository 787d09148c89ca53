import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type { Connection } from 'vscode-languageserver';
import type * as Log from '../../src/extension/log';
import type * as LogLineModule from '../../src/extension/lint/serverLogLine';
import { said, typed } from '../../src/core/output';
import { LOG_NOTIFICATION, type LogLine } from '../../src/shared/lintProtocol';
import { readsSaidLog, ServerLog } from '../../src/language-server/serverLog';
import { fail, type Session } from '../../src/language-server/session';
import { fakeLogChannel } from '../fixtures/vscode/logChannel';

// Mask values, not layouts (issue 38), on the lines the language server writes to its client's log. The VS
// Code extension asks for them as `Said`s (initializationOptions `paygate.saidLog`): the server sends each by
// LOG_NOTIFICATION and the extension's log floor (src/extension/log.ts) checks it value by value, so a value
// beside another is never read as part of it. Any other client (`paygate lsp --stdio`) gets
// window/logMessage, laid out by the server value by value. Before, the server wrote a composed string:
// unmasked to such a client, read whole by the extension's floor.

const logged: string[] = [];
const channel = fakeLogChannel((m, t) => logged.push(`${m}: ${t}`));
const fakeVscode = { window: { createOutputChannel: () => channel } };
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { createLog } = require('../../src/extension/log') as typeof Log;
const { serverLogLine } = require('../../src/extension/lint/serverLogLine') as typeof LogLineModule;
/* eslint-enable @typescript-eslint/no-require-imports */
createLog({ subscriptions: [] } as never);

/** A server log over a connection that keeps what it was given: notifications and console lines. */
function serverLog(saids: boolean) {
  const sent: LogLine[] = [];
  const console: string[] = [];
  const connection = {
    sendNotification: (method: string, p: LogLine) => (assert.equal(method, LOG_NOTIFICATION), sent.push(p), Promise.resolve()),
    console: { error: (t: string) => console.push(`error: ${t}`), warn: (t: string) => console.push(`warn: ${t}`) },
  } as unknown as Connection;
  const log = new ServerLog(connection);
  log.saids = saids;
  return { log, sent, console };
}

/** What the extension's log shows of what the server sent (through JSON, as LSP carries it). */
function shownByTheExtension(sent: readonly LogLine[]): string[] {
  logged.length = 0;
  for (const p of sent) serverLogLine(JSON.parse(JSON.stringify(p)) as LogLine);
  return [...logged];
}

test('only a client that asks gets the log as Saids', () => {
  assert.equal(readsSaidLog({ paygate: { saidLog: true } }), true);
  assert.equal(readsSaidLog({ paygate: { saidLog: 'yes' } }), false);
  assert.equal(readsSaidLog(null), false);
  assert.equal(readsSaidLog(undefined), false);
});

test("a failure's line: the document and the error each checked alone; a count beside a name like …cvc whole; a card in the name masked", () => {
  // Read whole before (by the extension's floor), `orders-cvc: 123` was a CVV by its label: `orders-cvc: •••`.
  const vs = serverLog(true);
  fail({ log: vs.log } as Session, 'Lint', 'file:///x/orders-cvc', '123 rows could not be read');
  fail({ log: vs.log } as Session, 'Hover', 'file:///x/4111 1111 1111 1111.rpcsv', new RangeError('boom'));
  assert.equal(vs.console.length, 0, 'nothing by window/logMessage');
  const shown = shownByTheExtension(vs.sent);
  assert.equal(shown[0], 'error: Lint failed for file:///x/orders-cvc: 123 rows could not be read');
  assert.match(shown[1]!, /^error: Hover failed for file:\/\/\/x\/4111 11\*\* \*\*\*\* 1111\.rpcsv: RangeError: boom\n {4}at /);
  assert.doesNotMatch(shown.join('\n'), /•|4111 1111 1111 1111/);

  // Another editor's client: the same line laid out by the server (before: the composed string, unmasked).
  const other = serverLog(false);
  fail({ log: other.log } as Session, 'Lint', 'file:///x/orders-cvc', '123 rows could not be read');
  fail({ log: other.log } as Session, 'Lint', 'file:///x/4111 1111 1111 1111.rpcsv', 'x');
  assert.deepEqual(other.sent, []);
  assert.deepEqual(other.console, [
    'error: Lint failed for file:///x/orders-cvc: 123 rows could not be read',
    'error: Lint failed for file:///x/4111 11** **** 1111.rpcsv: x',
  ]);
});

test('a warning goes to the warning level; a line that is no Said is read whole as free text', () => {
  const vs = serverLog(true);
  vs.log.warn(said`PayGate: ${typed.text('the team ledger is down')}; the resend guard could not be checked`);
  const shown = shownByTheExtension([...vs.sent, { level: 'error', line: 'card 4111 1111 1111 1111' }]);
  assert.deepEqual(shown, [
    'warn: PayGate: the team ledger is down; the resend guard could not be checked',
    'error: "card 4111 11** **** 1111"',
  ]);
});
