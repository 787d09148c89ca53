import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareSubmission } from '../../src/core/gateway';
import { checkApprovals } from '../../src/core/ledger/approvals';
import type { LedgerStore } from '../../src/core/ledger';
import { said, typed, type Said } from '../../src/core/output';
import type * as TellResult from '../../src/extension/submit/tellResult';
import type { CoreResult } from '../../src/extension/submit/submitTypes';

// Mask values, not layouts (issue 38), in the editor's Submit: the core's refusals before sending (a file's
// lint errors counted, no payment rows, approvals missing, an environment's problems, a batch too large, a
// local gateway that did not answer) are `Said`s, and the editor builds its sentence around the value (it
// edited the composed string before: `.replace(/; nothing was sent$/, '')`). The notification is laid out
// value by value by the editor's floor (src/extension/say.ts); the result the command returns holds the
// same words. The words are the ones said before, byte for byte. The terminal's side: said-refusals.

const shown: string[] = [];
const fakeVscode = {
  window: {
    showErrorMessage: (message: string) => (shown.push(message), Promise.resolve(undefined)),
  },
  commands: { executeCommand: () => Promise.resolve(undefined) },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the fake is in place
const { editorResult } = require('../../src/extension/submit/tellResult') as typeof TellResult;

const VALID = readFileSync(join(__dirname, '..', '..', 'examples', 'valid.rpcsv'), 'utf8');
const prepared = prepareSubmission(VALID);
/** A content hash whose first 12 characters are digits: `sha256 ` + them, read whole, is a 15-digit run that passes Luhn. */
const DIGIT_HASH = '411111111118' + 'a'.repeat(52);

/** What the editor shows and returns for a core refusal. */
async function told(reason: Extract<CoreResult, { status: 'refused' }>['reason'], problem: Said) {
  shown.length = 0;
  const result = { status: 'refused', reason, problem, prepared, target: {} } as CoreResult;
  const r = await editorResult(result, {} as never);
  assert.equal(r.status, 'refused');
  assert.equal(shown.length, 1, 'one notification');
  return { shown: shown[0], message: r.status === 'refused' ? r.message : '' };
}

test("the editor's refusals before sending are built from the core's Said: the words as before, each value checked alone", async () => {
  const lint = prepareSubmission(VALID.replace(';SRC;', ';XXX;'), 'orders 4111 1111 1111 1111.rpcsv').refusal;
  assert.ok(lint);
  const l = await told('lint-errors', lint.problem);
  assert.equal(l.message, 'orders 4111 11** **** 1111.rpcsv has 1 lint error; nothing was sent. Fix them first.');
  assert.equal(l.shown, `PayGate: ${l.message}`);

  const env = await told('invalid-environment', said`${typed.text('environment "sandbox": baseUrl must be an http(s) URL, not ftp:')}`);
  assert.equal(env.message, 'environment "sandbox": baseUrl must be an http(s) URL, not ftp:. Nothing was sent.');

  const large = await told('batch-too-large', said`the payload is ${typed.count(9000000)} bytes, over ${typed.count(8388608)}`);
  assert.equal(large.message, 'the payload is 9000000 bytes, over 8388608. Nothing was sent.');

  const gateway = await told('local-gateway-failed', said`${typed.text('connect ECONNREFUSED 127.0.0.1:4100')}`);
  assert.equal(gateway.message, 'Nothing was sent: the local gateway did not say its date (connect ECONNREFUSED 127.0.0.1:4100).');

  // Read whole before, `sha256 411111111118` was a 15-digit run passing Luhn: `sha256 411*****1118…`.
  const team = { kind: 'team', approvals: async () => [] } as unknown as LedgerStore;
  const checked = await checkApprovals(team, 'prod', DIGIT_HASH, 2, 'orders-cvc.rpcsv');
  assert.ok(!checked.ok);
  const approval = await told('needs-approval', checked.problem);
  assert.equal(
    approval.message,
    `"prod" needs 2 approval(s) of this exact content (sha256 411111111118…) by members other than you; it has 0. ` +
      `An edited file needs new approvals. Ask them to run 'paygate approve orders-cvc.rpcsv --env prod'; nothing was sent.`,
  );
  assert.equal(approval.shown, `PayGate: ${approval.message}`);
});
