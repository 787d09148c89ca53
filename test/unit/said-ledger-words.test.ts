import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlreadySentRow } from '../../src/core/ledger';
import { floorText } from '../../src/core/output';
import { inputError } from '../../src/cli/output';
import { runPaygate } from '../../src/cli/program';
import { rowsRefusal, samePayerRefusal } from '../../src/cli/submit/refusals';
import { testContext } from '../fixtures/cli/context';
import { standInTeam } from '../fixtures/ledger/teamStandIn';

// Mask values, not layouts (issue 38), on `paygate submit`'s guard refusals and `paygate ledger`'s lines: each
// value (a file, an environment, an endpoint, a count, a role, a place) is checked alone, through the floor a
// user's terminal gets (floorText), so a value beside another is never read as part of it, and a card number
// in a free-text value is still masked.

/** What `paygate submit` writes to standard error for `problem`, through the floor. */
function refusalAsShown(problem: Parameters<typeof inputError>[2]): string {
  let err = '';
  inputError(testContext({ stderr: (t) => void (err += floorText(t)) }), 'paygate submit', problem);
  return err;
}

const rows = (n: number) => Array.from({ length: n }, () => ({}) as AlreadySentRow);

test("submit's already-sent and same-payer refusals: the count beside a file named …cvc stays whole; a card in the environment is masked", () => {
  // `orders-cvc: 123` read whole is a CVV by its label (docs/limits.md), and its digits were hidden: `orders-cvc: •••`.
  const env = 'prod 4111 1111 1111 1111';
  const already = refusalAsShown(rowsRefusal('orders-cvc', env, '1001', rows(123)));
  assert.ok(
    already.startsWith('paygate submit: orders-cvc: 123 rows were already sent to prod 4111 11** **** 1111, endpoint 1001 (listed above).'),
    already,
  );
  assert.ok(already.includes(`('paygate diff orders-cvc --against last' shows what changed since the last send)`), already);
  assert.ok(already.endsWith('if you are sure, pass --allow-resend.\n'), already);
  const payer = refusalAsShown(samePayerRefusal('orders-cvc', env, '1001', 456));
  assert.ok(
    payer.startsWith(
      'paygate submit: orders-cvc: 456 rows have the card and schedule of a row already sent to prod 4111 11** **** 1111, endpoint 1001 under another client-orderid',
    ),
    payer,
  );
  assert.doesNotMatch(already + payer, /•|4111 1111 1111 1111/);
  // One row: the words agree.
  assert.match(refusalAsShown(rowsRefusal('a.rpcsv', 'local', '1', rows(1))), /a\.rpcsv: 1 row was already sent to local, endpoint 1 /);
  assert.match(refusalAsShown(samePayerRefusal('a.rpcsv', 'local', '1', 1)), /a\.rpcsv: 1 row has the card and schedule /);
});

test('paygate ledger status, through the floor: counts and versions whole, a card in the role masked', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-said-ledger-'));
  try {
    const team = standInTeam(t);
    team.status = { role: 'ops 4111 1111 1111 1111', records: 1234, sending: 56 };
    let out = '';
    const ctx = testContext({ cwd: dir, env: { HOME: dir, PAYGATE_DATA_DIR: join(dir, 'data') }, stdout: (s) => void (out += s) });
    const code = await runPaygate(['ledger', 'status', '--ledger', 'postgres://paygate@127.0.0.1:5432/team'], ctx);
    assert.equal(code, 1, 'no key given');
    assert.equal(
      out,
      'store: the team ledger postgres://paygate@127.0.0.1:5432/team\n' +
        'role: ops 4111 11** **** 1111\n' +
        'schema version: 3\n' +
        'records: 1234 (56 still "sending": no answer recorded)\n' +
        'team key: not set (PAYGATE_LEDGER_KEY_FILE): sends are refused until it is\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
