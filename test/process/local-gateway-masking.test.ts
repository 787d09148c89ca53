// The local gateway keeps no full card number and no CVV at rest: free text typed into a row (order_desc)
// is masked before it reaches the journal, the snapshot or an admin answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { maskStoredText } from '../../src/core/output';
import { JOURNAL_FILE } from '../../src/local-gateway/journal';
import { admin, batch, postCreate, START, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';

// A real-looking (Luhn-valid) number that is not the batch's own card, grouped as people type it.
const PAN = '4000056655665556';
const GROUPED = '4000 0566 5566 5556';
const TYPED = `Gym; paid with ${GROUPED} cvv 737, backup card${PAN}`;

const stateFiles = (stateDir: string) =>
  fs
    .readdirSync(stateDir)
    .filter((f) => f.startsWith('state.json') || f.startsWith(JOURNAL_FILE))
    .map((f) => fs.readFileSync(path.join(stateDir, f), 'utf8'))
    .join('\n');

test('stored text: card-number-like runs masked (grouped or glued), CVV next to its label hidden, other text kept', () => {
  const out = maskStoredText(TYPED);
  // Masked in place, its spaces kept (issue 38: in the original characters).
  assert.equal(out, 'Gym; paid with 4000 05** **** 5556 cvv •••, backup card400005******5556');
  assert.equal(maskStoredText('CVC2: 1234 for order 42'), 'CVC2: ••• for order 42');
  assert.equal(maskStoredText('Gym membership, 12 months, room 101'), 'Gym membership, 12 months, room 101');
});

test('a PAN and a CVV typed into order_desc are in neither the journal, the snapshot nor GET /_sim/payments', async () => {
  const stateDir = tempStateDir();
  try {
    await withGateway(
      async (gw) => {
        const created = await postCreate(gw, batch([{ order_desc: TYPED }]));
        assert.equal(created.status, 200, created.text);
        const journal = fs.readFileSync(path.join(stateDir, JOURNAL_FILE), 'utf8');
        assert.match(journal, /400005\*{6}5556/, 'the payment was journalled, masked');
        const listed = await admin(gw, 'GET', '/_sim/payments');
        assert.equal(listed.status, 200);
        const answer = JSON.stringify(listed.json);
        assert.match(answer, /400005\*{6}5556/);
        for (const text of [journal, answer]) {
          assert.ok(!text.includes(PAN) && !text.includes(GROUPED), 'no full card number');
          assert.ok(!/cvv\W*737/.test(text), 'no CVV');
        }
      },
      { stateDir, initialDate: START },
    );
    // Closed: the snapshot and the journal as left on disk.
    const rest = stateFiles(stateDir);
    assert.ok(!rest.includes(PAN) && !rest.includes(GROUPED) && !/cvv\W*737/.test(rest));
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a description stored in clear by an older version is masked at the next start, journal included', async () => {
  const stateDir = tempStateDir();
  try {
    await withGateway(async (gw) => assert.equal((await postCreate(gw, batch([{}]))).status, 200), { stateDir, initialDate: START });
    // As an older version left it: the clear text written into the journal's created payment.
    const journalPath = path.join(stateDir, JOURNAL_FILE);
    const lines = fs.readFileSync(journalPath, 'utf8').split('\n').filter(Boolean);
    const commit = JSON.parse(lines[lines.length - 1]) as { created?: { order_desc: string }[] };
    assert.ok(commit.created?.length, 'the create was journalled');
    commit.created[0].order_desc = TYPED;
    lines[lines.length - 1] = JSON.stringify(commit);
    fs.writeFileSync(journalPath, `${lines.join('\n')}\n`);
    assert.ok(stateFiles(stateDir).includes(PAN));

    await withGateway(
      async (gw) => {
        const answer = JSON.stringify((await admin(gw, 'GET', '/_sim/payments')).json);
        assert.ok(!answer.includes(PAN) && answer.includes('400005******5556'));
      },
      { stateDir, initialDate: START },
    );
    const rest = stateFiles(stateDir);
    assert.ok(!rest.includes(PAN) && !rest.includes(GROUPED) && !/cvv\W*737/.test(rest));
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});
