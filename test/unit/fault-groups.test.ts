import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addUp, closingLines, groupTally, GROUPS, RESULT, share, type GroupTally } from '../faults/groups';

// The fault suite's groups (test/faults/groups.ts): every trial is run by exactly one group, and the
// closing lines add the groups' tallies up, so a double send in any group is counted and fails the run.

const tally = (over: Partial<GroupTally>): GroupTally => ({
  trials: 0,
  failures: [],
  doubleSends: 0,
  killsAfterSending: 0,
  partsKills: [],
  splitKills: [],
  splitPartial: 0,
  resendsTaken: 0,
  rowsCreated: 0,
  doubleRows: [],
  payersCreated: 0,
  doublePayers: [],
  ...over,
});

test("a kind's trials are shared out whole: the shares add up to the count, none more than one apart", () => {
  for (const n of [0, 1, 2, 3, 4, 49, 50, 51]) {
    const shares = Array.from({ length: GROUPS }, (_, g) => share(n, g));
    assert.equal(
      shares.reduce((a, b) => a + b, 0),
      n,
      `${n}: ${shares.join(', ')}`,
    );
    const sorted = [...shares].sort((a, b) => a - b);
    assert.ok(sorted[sorted.length - 1] - sorted[0] <= 1, `${n}: ${shares.join(', ')}`);
  }
  assert.deepEqual(
    [0, 1, 2].map((g) => share(50, g, 3)),
    [17, 17, 16],
  );
});

test("a group's tally is its last RESULT line; a group that printed none has none", () => {
  const t = tally({ trials: 7, partsKills: [1, 4] });
  assert.deepEqual(groupTally(`  answerTrials: 1.0 s wall\n${RESULT}${JSON.stringify(t)}\n`), t);
  assert.equal(groupTally('  answerTrials: 1.0 s wall\nError: boom\n'), undefined);
});

test('the closing lines add the groups up: trials, double sends, rows and payers, the failures of each', () => {
  const t = addUp([
    tally({
      trials: 100,
      partsKills: [0, 4],
      splitKills: [3],
      resendsTaken: 1,
      rowsCreated: 300,
      payersCreated: 290,
      killsAfterSending: 2,
    }),
    tally({
      trials: 106,
      doubleSends: 1,
      failures: ['answer x: the stand-in created the batch 2 times'],
      partsKills: [2],
      rowsCreated: 417,
      payersCreated: 411,
      doubleRows: [['FA1-0001', 2]],
      killsAfterSending: 7,
    }),
  ]);
  assert.deepEqual(closingLines(t, 42), [
    'FAIL answer x: the stand-in created the batch 2 times',
    'kill -9: 9 of the kills landed after the batch reached the stand-in',
    'kills of four parts (3): parts that had reached the stand-in per kill: 0, 4, 2; 1 runs went on with --allow-resend',
    'kills of split (1): temporary files left per kill, each removed by the next split: 3; 0 left some parts visible',
    '206 trials, 1 double sends, 717 rows created, 1 of them twice, 701 payers (cards) created, 0 of them twice (seed 42)',
  ]);
});
