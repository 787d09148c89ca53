import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localGatewayText, recordedOutcomeText, sentBy, whoSent } from '../../src/core/ledger';
import { saidText, type Said } from '../../src/core/output';
import type { SubmissionRecord } from '../../src/core/ledger';

// The ledger's words about a record (issue 38, mask values, not layouts): its recorded outcome, the local
// gateway it went to and who sent it are `Said`s, each value with its type, not one text the floor reads whole.

const kinds = (s: Said) => s.said.filter((p) => typeof p !== 'string').map((p) => p[0]);

test('the recorded outcome: the label is ours, the kind the record’s text, the HTTP status a count', () => {
  const s = recordedOutcomeText({ outcome: 'unknown', kind: 'timeout', httpStatus: 504 });
  assert.deepEqual(kinds(s), ['text', 'count']);
  assert.match(saidText(s), /^unknown \(timeout\) HTTP 504: the gateway may have created the payments/);
  // An outcome a newer version wrote is the record's words: a card there is masked.
  assert.equal(
    saidText(recordedOutcomeText({ outcome: '4111111111111111' as SubmissionRecord['outcome'] })),
    '411111******1111 (not known to this version)',
  );
});

test('the local gateway: its state directory and run as text, its date as a date; a card in the directory masked', () => {
  const s = localGatewayText({ stateDir: '/srv/4111 1111 1111 1111', startId: '3f9c', today: '28.12.2025' });
  assert.deepEqual(kinds(s), ['text', 'text', 'date']);
  assert.equal(saidText(s), 'the local gateway of /srv/4111 11** **** 1111 (run 3f9c), its date 28.12.2025');
});

test('who sent it: the role and host are values (a card in them masked); nothing for the file ledger', () => {
  const r = { role: 'alice', face: 'cli' as const, host: 'build 4111 1111 1111 1111' };
  assert.equal(saidText(sentBy(r)), ' by alice from the CLI on build 4111 11** **** 1111');
  assert.deepEqual(kinds(whoSent(r)!), ['text', 'text']);
  assert.equal(whoSent({ face: 'editor', host: 'h' }), undefined);
  assert.equal(saidText(sentBy({ face: 'editor', host: 'h' })), '');
});
