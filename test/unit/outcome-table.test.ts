// The outcome table (src/core/gateway/outcomes.ts) is the one place an outcome's facts live: the guard,
// the page, the history and the CLI read it, and a row that leaves a fact out does not compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayOutcome, OutcomeName } from '../../src/core/gateway/outcome';
import {
  OUTCOMES,
  RECORDED_OUTCOMES,
  outcomeHeadline,
  pageHeadline,
  type LedgerOutcomeName,
  type OutcomeFacts,
} from '../../src/core/gateway/outcomes';
import { mayHaveCreated, recordedOutcomeText, type SubmissionRecord } from '../../src/core/ledger';
import { outcomeText } from '../../src/core/gateway/outcomeText';
import { said, saidText, typed } from '../../src/core/output';
import { outcomeView } from '../../src/extension/results/outcomeView';

// A table without a row for every outcome, or a row without a fact, is a compile error (checked by `tsc -b`).
// @ts-expect-error: the row for every other outcome is missing
const _partial = { accepted: OUTCOMES.accepted } satisfies Record<OutcomeName, OutcomeFacts>;
// @ts-expect-error: a row that does not say whether it may have created payments
const _silent: OutcomeFacts = { ...OUTCOMES.error, mayHaveCreated: undefined };
void [_partial, _silent];

function record(outcome: string | undefined, over: Partial<SubmissionRecord> = {}): SubmissionRecord {
  return {
    ...{ id: 'r', time: '2026-11-26T00:00:00.000Z', face: 'cli', pid: 1, host: 'h', environment: 'local', production: false },
    ...{ endpointId: '1', endpoint: 'http://127.0.0.1:1/', file: 'b.rpcsv', rowCount: 1, contentHash: 'c', signatureMethod: 'RSA-SHA256' },
    state: 'done',
    outcome: outcome as LedgerOutcomeName,
    recurringPaymentIds: [],
    serialNumbers: [],
    statuses: [],
    seq: 0,
    ...over,
  };
}

test('the resend guard reads "may have created" from the table, for every recorded outcome', () => {
  for (const [name, facts] of Object.entries(RECORDED_OUTCOMES))
    assert.equal(mayHaveCreated(record(name)), facts.mayHaveCreated, `${name} without ids`);
  // The answers after which payments may exist, said outright so a wrong row cannot hide.
  const guarded = Object.entries(RECORDED_OUTCOMES)
    .filter(([, f]) => f.mayHaveCreated)
    .map(([n]) => n);
  assert.deepEqual(guarded.sort(), ['accepted', 'cancelled', 'unknown', 'unrecognised']);
  // Ids named in any answer (a batch declined in part) and a record still sending count too.
  assert.equal(mayHaveCreated(record('declined', { recurringPaymentIds: ['7'] })), true);
  assert.equal(mayHaveCreated(record(undefined, { state: 'sending' })), true);
});

test('an outcome this version does not know (a newer one wrote it) holds back a resend and is named, not folded', () => {
  assert.equal(mayHaveCreated(record('partially-accepted')), true);
  assert.match(
    saidText(recordedOutcomeText(record('partially-accepted', { httpStatus: 200 }))),
    /^partially-accepted \(not known to this version\) HTTP 200$/,
  );
  assert.equal(saidText(recordedOutcomeText(record('unrecognised', { httpStatus: 200 }))), 'unrecognised HTTP 200');
  assert.match(
    saidText(recordedOutcomeText(record('unknown', { kind: 'timeout' }))),
    /^unknown \(timeout\): the gateway may have created the payments/,
  );
});

test('an unrecognised answer reads the same in the CLI and on the page', () => {
  const o: GatewayOutcome = { outcome: 'unrecognised', status: 200, contentType: 'text/plain', raw: 'OK' };
  const headline = 'Unrecognised answer (HTTP 200, text/plain)';
  assert.equal(outcomeHeadline(o), headline);
  assert.equal(saidText(outcomeText(o, said`${typed.text('b.rpcsv')}`)).split('\n')[0], `${headline}: b.rpcsv`);
  const view = outcomeView(o, 'RSA-SHA256', [], 1);
  assert.equal(view.outcome, 'unrecognised');
  assert.equal(pageHeadline(view), headline);
  // A report where a create answer was expected is recorded, and shown, as unrecognised too.
  const report: GatewayOutcome = {
    outcome: 'report',
    status: 200,
    contentType: 'application/pdf',
    format: 'pdf',
    bytes: new Uint8Array(1),
  };
  assert.equal(pageHeadline(outcomeView(report, 'RSA-SHA256', [], 1)), 'Unrecognised answer (HTTP 200, application/pdf)');
});

test('every page headline, colour and history label comes from the row', () => {
  for (const [name, facts] of Object.entries(RECORDED_OUTCOMES)) {
    if (name === 'cancelled') continue; // the legacy name: the page shows it as unknown
    const shown = pageHeadline({ outcome: name as Exclude<LedgerOutcomeName, 'cancelled'> });
    assert.equal(shown, facts.headline, name);
    assert.ok(['ok', 'failed', 'unknown'].includes(facts.tone), name);
  }
  assert.equal(pageHeadline({ outcome: 'declined', paymentStatus: 'filtered' }), 'Declined (filtered)');
  assert.equal(pageHeadline({ outcome: 'server-error', status: 500 }), 'Server error (HTTP 500)');
  // Unknown outcomes are never painted as failures that sent nothing.
  assert.equal(RECORDED_OUTCOMES.unknown.tone, 'unknown');
  assert.equal(RECORDED_OUTCOMES.unrecognised.tone, 'unknown');
});
