import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environmentProblems, nothingSent, prepareSubmission } from '../../src/core/gateway';
import { Ledger, type Approval, type LedgerStore } from '../../src/core/ledger';
import { checkApprovals } from '../../src/core/ledger/approvals';
import { floorText, saidText, typed, type Said } from '../../src/core/output';
import { submitBatch, type SubmitFace } from '../../src/core/submit/submitBatch';
import { inputError } from '../../src/cli/output';
import { reportResult } from '../../src/cli/submit/report';
import type { CliTarget } from '../../src/cli/submit/types';
import { testContext } from '../fixtures/cli/context';
import { SANDBOX } from '../fixtures/submit/environment';

// Mask values, not layouts (issue 38), on the refusals `paygate submit` gets from the core before sending: a
// file's lint errors counted, no payment rows, approvals missing, an environment's problems. The core says
// each as a `Said` (the file, the environment and a role free text, a count a count, a content hash's prefix
// a hash), and the terminal lays it out through the floor a user's terminal gets (floorText), each value
// checked alone. The words are the ones said before, byte for byte. The editor's side: said-refusals-editor.

const ENVIRONMENT = SANDBOX;

/** A ledger that says it is the team's, with these approvals (all checkApprovals asks of it). */
const teamWith = (approvals: Approval[]) => ({ kind: 'team', approvals: async () => approvals }) as unknown as LedgerStore;

/** A content hash whose first 12 characters are digits: `sha256 ` + them, read whole, is a 15-digit run that passes Luhn. */
const DIGIT_HASH = '411111111118' + 'a'.repeat(52);

/** What `paygate submit` writes to standard error for a core refusal, through the floor. */
async function cliRefusal(run: () => ReturnType<typeof submitBatch<CliTarget, string>>, name: string): Promise<string> {
  let err = '';
  const ctx = testContext({ stderr: (t) => void (err += floorText(t)) });
  const result = await run();
  assert.equal(result.status, 'refused');
  reportResult(result, name, {} as LedgerStore, { format: 'text' }, ctx);
  return err.split('\n').filter(Boolean).at(-1) ?? '';
}

function face(dir: string, environment = ENVIRONMENT): SubmitFace<CliTarget, string> {
  return {
    face: 'cli',
    pid: 1,
    host: 'h',
    ledger: new Ledger(dir),
    file: '/x/orders-cvc.rpcsv',
    target: async () => ({ ok: true, value: { environment, signatureMethod: 'RSA-SHA256' } as CliTarget }),
    send: async () => assert.fail('nothing is sent'),
  };
}

const VALID = readFileSync(join(__dirname, '..', '..', 'examples', 'valid.rpcsv'), 'utf8');
const HEADER = VALID.split(/\r?\n/)[0] + '\r\n';
/** valid.rpcsv with one card type wrong, or two. */
const ONE = VALID.replace(';SRC;', ';XXX;');
const BAD = ONE.replace(';SRC;', ';YYY;');

test("prepare's refusals: the file's name free text, the count a count; the words as before; a card in the name masked", () => {
  const two = prepareSubmission(BAD, 'orders-cvc.rpcsv').refusal;
  assert.equal(two?.reason, 'lint-errors');
  const errors = prepareSubmission(BAD).errors.length;
  assert.ok(errors > 1, 'more than one lint error');
  assert.equal(saidText(nothingSent(two.problem)), `orders-cvc.rpcsv has ${errors} lint errors; nothing was sent`);
  assert.deepEqual(two.problem.said[2], typed.count(errors), 'the count is a count');
  assert.equal(prepareSubmission(ONE).errors.length, 1);
  const one = prepareSubmission(ONE, 'a.rpcsv').refusal;
  assert.equal(one && saidText(nothingSent(one.problem)), 'a.rpcsv has 1 lint error; nothing was sent');
  const none = prepareSubmission(HEADER, '4111 1111 1111 1111.rpcsv').refusal;
  assert.equal(none?.reason, 'no-rows');
  assert.equal(saidText(nothingSent(none.problem)), '4111 11** **** 1111.rpcsv has no payment rows (a header alone); nothing was sent');
});

test('paygate submit: a lint refusal, an invalid environment and a file ledger that holds no approvals, laid out value by value', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-said-refusals-'));
  try {
    const lint = await cliRefusal(() => submitBatch(BAD, 'orders 4111 1111 1111 1111.rpcsv', face(dir)), 'x');
    assert.match(
      lint,
      /^paygate submit: orders 4111 11\*\* \*\*\*\* 1111\.rpcsv has \d+ lint errors; nothing was sent \(see 'paygate lint', 'paygate fix'\)$/,
    );

    const bad = { ...ENVIRONMENT, baseUrl: 'ftp://gateway.invalid/' };
    const words = environmentProblems(bad, undefined, 'create');
    assert.equal(words.length, 1);
    const env = await cliRefusal(() => submitBatch(VALID, 'valid.rpcsv', face(dir, bad)), 'valid.rpcsv');
    assert.equal(env, `paygate submit: ${words[0]}; nothing was sent`);

    const checked = { ...ENVIRONMENT, name: 'checked', approvals: 2 };
    const approvals = await cliRefusal(() => submitBatch(VALID, 'valid.rpcsv', face(dir, checked)), 'valid.rpcsv');
    assert.equal(
      approvals,
      `paygate submit: "checked" needs 2 approval(s) by other members before a send, and approvals live in the team ledger, ` +
        `not in this machine's file ledger: set PAYGATE_LEDGER_URL (docs/submissions.md, "One ledger for a team"); nothing was sent`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The approvals refusal as the terminal shows it (as refusedBeforeSending in src/cli/submit/report.ts). */
async function approvalsShown(approvals: Approval[], environment: string, file: string, needed = 2): Promise<string> {
  const checked = await checkApprovals(teamWith(approvals), environment, DIGIT_HASH, needed, file);
  assert.equal(checked.ok, false);
  const problem: Said = checked.ok ? assert.fail() : checked.problem;
  let err = '';
  inputError(testContext({ stderr: (t) => void (err += floorText(t)) }), 'paygate submit', nothingSent(problem));
  return err;
}

test("approvals missing: a content hash's prefix of digits stays whole beside `sha256`; counts whole; a card in a role or the file masked", async () => {
  // Read whole before, `sha256 411111111118` was a 15-digit run passing Luhn: `sha256 411*****1118…`.
  const none = await approvalsShown([], 'prod', 'orders-cvc.rpcsv');
  assert.equal(
    none,
    `paygate submit: "prod" needs 2 approval(s) of this exact content (sha256 411111111118…) by members other than you; it has 0. ` +
      `An edited file needs new approvals. Ask them to run 'paygate approve orders-cvc.rpcsv --env prod'; nothing was sent\n`,
  );
  const at = '2027-03-12T10:00:00.000Z';
  const some = await approvalsShown(
    [
      { role: 'bob 4111 1111 1111 1111', host: 'h', at, mine: false },
      { role: 'me', host: 'h', at, mine: true },
    ],
    'prod',
    '5555 5555 5555 4444.rpcsv',
    3,
  );
  assert.equal(
    some,
    `paygate submit: "prod" needs 3 approval(s) of this exact content (sha256 411111111118…) by members other than you; ` +
      `it has 1: approved by bob 4111 11** **** 1111 (2027-03-12 10:00 UTC) (your own approval does not count). ` +
      `An edited file needs new approvals. Ask them to run 'paygate approve 5555 55** **** 4444.rpcsv --env prod'; nothing was sent\n`,
  );
});

test('a refusal is a Said where the core makes it: a plain string does not compile', () => {
  // @ts-expect-error a refusal's problem is a Said
  const refusal: NonNullable<ReturnType<typeof prepareSubmission>['refusal']> = { reason: 'no-rows', problem: 'x has no payment rows' };
  // @ts-expect-error an approvals refusal's problem is a Said
  const check: Awaited<ReturnType<typeof checkApprovals>> = { ok: false, problem: '"prod" needs 2 approval(s)' };
  assert.ok(refusal && check);
});
