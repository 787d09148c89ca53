// The local gateway's store: a journal line per commit (never the whole state), snapshots that fold the
// journal in, the same state after reopening, and advances that stop at their charge cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JournalStore, JOURNAL_FILE } from '../../src/local-gateway/journal';
import {
  advance,
  advanceAllowance,
  createPayment,
  MAX_CHARGES_PER_ADVANCE,
  MAX_LISTED_CHARGES,
  MAX_STORED_CHARGES,
} from '../../src/local-gateway/payments';
import { freshState, STATE_FILE } from '../../src/local-gateway/state';
import type { StoredPayment } from '../../src/local-gateway/types';
import { START, tempStateDir } from '../fixtures/local-gateway/helpers';

const row = (id: string, extra: Record<string, string> = {}) => ({
  'client-orderid': id,
  rp_card_type: 'SRC',
  'credit-card-number': '4111111111111111',
  currency: 'EUR',
  amount: '10.00',
  period: 'day',
  interval: '1',
  'max-repeats-number': '',
  notify_url: '',
  ...extra,
});

const open = (dir: string) =>
  new JournalStore(
    dir,
    START,
    () => [],
    () => true,
  );

test('a commit appends one line for what changed: its size does not depend on the size of the state', () => {
  const dir = tempStateDir();
  try {
    const store = open(dir);
    const big: StoredPayment[] = [];
    for (let i = 0; i < 3000; i++) big.push(createPayment(store.state, row(`BIG-${i}`), 's1').payment);
    store.commit(big);
    const journal = path.join(dir, JOURNAL_FILE);
    const snapshotBefore = fs.statSync(path.join(dir, STATE_FILE));
    const sizeBefore = fs.statSync(journal).size;
    const one = createPayment(store.state, row('ONE'), 's2').payment;
    store.commit([one]);
    const grew = fs.statSync(journal).size - sizeBefore;
    assert.ok(grew > 0 && grew < 2048, `one payment appended ${grew} bytes`);
    const snapshotAfter = fs.statSync(path.join(dir, STATE_FILE));
    assert.equal(snapshotAfter.mtimeMs, snapshotBefore.mtimeMs, 'the snapshot is not rewritten by a small commit');
    store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('reopening gives the same state, whether the changes are in the journal, the snapshot, or both', () => {
  const dir = tempStateDir();
  try {
    // The snapshot keeps the nonces the gateway's cache still holds (here: the first one).
    const a = new JournalStore(
      dir,
      START,
      () => [['demo\nnonce-1', 1000]],
      () => true,
    );
    const touched = new Set<StoredPayment>();
    const p1 = createPayment(a.state, row('J-1'), 's1').payment;
    a.commit([p1], [['demo\nnonce-1', 1000]]);
    advance(a.state, 3, { touched });
    a.commit(touched);
    a.compact(); // the journal folded into the snapshot
    const p2 = createPayment(a.state, row('J-2', { 'max-repeats-number': '2' }), 's2').payment;
    a.commit(
      [p2],
      [
        ['demo\nnonce-2', 1001],
        ['demo\nold', 5],
      ],
    );
    touched.clear();
    advance(a.state, 5, { touched });
    a.commit(touched);
    const expected = structuredClone(a.state);
    a.close();

    const b = new JournalStore(
      dir,
      START,
      () => [],
      (ts) => ts >= 1000,
    );
    assert.deepEqual(b.state, expected);
    assert.deepEqual(
      b.restoredNonces,
      [
        ['demo\nnonce-1', 1000],
        ['demo\nnonce-2', 1001],
      ],
      'from the snapshot and the journal, those still in the window',
    );
    assert.equal(b.find(p2['recurring-payment-id'])?.status, 'stop');
    b.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an advance makes its charges one day at a time up to the cap and stops the clock on a whole day', () => {
  const state = freshState(START);
  for (let i = 0; i < 50; i++) createPayment(state, row(`D-${i}`), 's');
  let seen = 0;
  const r = advance(state, 3660, { maxCharges: 120, onCharge: () => void seen++ });
  // 50 charges a day from 01.02: the cap of 120 is passed on 03.02, which is finished (150), then the clock stops.
  assert.equal(r.chargeCount, 150);
  assert.equal(seen, 150);
  assert.equal(r.today, '03.02.2027');
  assert.equal(state.today, '03.02.2027');
  assert.ok(r.truncated);
  assert.match(r.truncated.requested, /\.2037$/);
  assert.ok(r.charges.length <= MAX_LISTED_CHARGES);
  const again = advance(state, 1, { maxCharges: 120 });
  assert.equal(again.chargeCount, 50, 'the next advance continues where the cap stopped');
  assert.equal(again.truncated, undefined);
});

test('advance lists at most MAX_LISTED_CHARGES charges but counts them all', () => {
  const state = freshState(START);
  for (let i = 0; i < 30; i++) createPayment(state, row(`L-${i}`), 's');
  const r = advance(state, 40);
  assert.equal(r.chargeCount, 30 * 40);
  assert.equal(r.charges.length, MAX_LISTED_CHARGES);
  const ids = state.payments.flatMap((p) => p.charges.map((c) => Number(c.transactionId)));
  assert.equal(new Set(ids).size, ids.length);
});

test('a full state directory stops the clock where charges would be made, and says why', () => {
  const state = freshState(START);
  for (let i = 0; i < 3; i++) createPayment(state, row(`F-${i}`), 's');
  const r = advance(state, 10, { maxCharges: 0, reason: () => 'full' });
  assert.equal(r.chargeCount, 0);
  assert.equal(r.today, '31.01.2027', 'the clock did not move past charges it could not make');
  assert.deepEqual(r.truncated, { requested: '10.02.2027', reason: 'full' });

  assert.equal(advanceAllowance(state).maxCharges, MAX_CHARGES_PER_ADVANCE);
  const nearlyFull = { ...state, payments: [{ charges: { length: MAX_STORED_CHARGES - 10 } }] } as unknown as typeof state;
  const allowance = advanceAllowance(nearlyFull);
  assert.equal(allowance.maxCharges, 10);
  assert.match(allowance.reason(10, 10), /new --state directory/);
});
