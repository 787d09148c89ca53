// A submission opened from the Submissions view: the same readable panel as after Submit, built from the
// ledger's record (which keeps no rows) and the file when it still is what was sent.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { batchContentHash } from '../../src/core/csv/canonical';
import type { SubmissionRecord } from '../../src/core/ledger';
import { recordView } from '../../src/extension/ledger/recordView';

const BATCH = [
  'client-orderid;rp_card_type;credit-card-number;cvv2;amount;currency',
  'A-1;SRC;4111111111111111;737;10.00;EUR',
  'A-2;DST;5555555555554444;;20.00;EUR',
].join('\r\n');

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-record-view-'));

function record(over: Partial<SubmissionRecord>): SubmissionRecord {
  return {
    id: 'r1',
    time: '2026-11-22T21:05:09.000Z',
    face: 'editor',
    pid: 1,
    host: 'h',
    environment: 'local',
    production: false,
    endpointId: '1001',
    endpoint: 'http://127.0.0.1:1/paynet/api/v4/create-recurring-payments/1001',
    file: '/nowhere/batch.rpcsv',
    rowCount: 2,
    contentHash: batchContentHash(BATCH),
    signatureMethod: 'RSA-SHA256',
    state: 'done',
    outcome: 'accepted',
    httpStatus: 200,
    recurringPaymentIds: ['11', '12'],
    statuses: ['active', 'active'],
    serialNumbers: ['S-1'],
    seq: 0,
    ...over,
  };
}

describe('a submission from the ledger as a panel', () => {
  it('shows the file’s rows, masked and with the answer first, when the file is still what was sent', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'batch.rpcsv');
    fs.writeFileSync(file, BATCH.replace(/\r\n/g, '\n')); // line endings do not change what was sent
    const view = await recordView(record({ file }), false);
    assert.equal(view.title, 'Submission: batch.rpcsv → local');
    assert.deepEqual(view.outcome, { outcome: 'accepted', status: 200, message: 'The gateway accepted 2 recurring payments.' });
    assert.equal(view.submittedAt, '2026-11-22T21:05:09.000Z', 'ISO in the view; the page shows local time');
    assert.deepEqual(view.columns.slice(0, 4), ['recurring-payment-id', 'status', 'serial-number', 'client-orderid']);
    assert.deepEqual(view.rows[0].slice(0, 3), ['11', 'active', 'S-1']);
    assert.ok(!JSON.stringify(view).includes('4111111111111111') && !JSON.stringify(view).includes('737'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the answer only when the file changed since, and says so', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'batch.rpcsv');
    fs.writeFileSync(file, `${BATCH}\r\nA-3;SRC;4111111111111111;737;1.00;EUR`);
    const view = await recordView(record({ file }), false);
    assert.deepEqual(view.columns, ['recurring-payment-id', 'status', 'serial-number']);
    assert.deepEqual(view.rows, [
      ['11', 'active', 'S-1'],
      ['12', 'active', 'S-1'],
    ]);
    assert.match(view.fields?.rows ?? '', /changed or moved/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('calls an interrupted, cancelled or unanswered submission unknown, with its reason, and keeps refusals with their message', async () => {
    const interrupted = await recordView(
      record({ state: 'sending', outcome: undefined, recurringPaymentIds: [], statuses: [], serialNumbers: [] }),
      true,
    );
    assert.deepEqual(
      interrupted.outcome.outcome === 'unknown' && [interrupted.outcome.kind, /may have created/.test(interrupted.outcome.message ?? '')],
      ['interrupted', true],
    );
    const cancelled = await recordView(record({ outcome: 'cancelled', message: 'Cancelled while waiting' }), false);
    assert.deepEqual(cancelled.outcome, { outcome: 'unknown', status: 200, kind: 'cancelled', message: 'Cancelled while waiting' });
    const lost = await recordView(record({ outcome: 'unknown', kind: 'connection-lost', message: 'the connection was lost' }), false);
    assert.deepEqual(lost.outcome, { outcome: 'unknown', status: 200, kind: 'connection-lost', message: 'the connection was lost' });
    const refused = await recordView(record({ outcome: 'validation-error', message: 'amount is wrong', errorCode: '1003' }), false);
    assert.deepEqual(refused.outcome, { outcome: 'validation-error', status: 200, message: 'amount is wrong', code: '1003' });
    const declined = await recordView(
      record({ outcome: 'declined', statuses: ['declined'], message: 'Card declined', errorCode: '301' }),
      false,
    );
    assert.deepEqual(declined.outcome, {
      outcome: 'declined',
      status: 200,
      paymentStatus: 'declined',
      message: 'Card declined',
      code: '301',
    });
  });

  it('shows every recorded outcome as itself: an unrecognised answer is never folded into error, an unknown name is unrecognised', async () => {
    const odd = await recordView(record({ outcome: 'unrecognised', httpStatus: 200, message: undefined, recurringPaymentIds: [] }), false);
    assert.deepEqual([odd.outcome.outcome, odd.outcome.status], ['unrecognised', 200]);
    const withdrawn = await recordView(record({ outcome: 'withdrawn', httpStatus: undefined, message: 'never sent' }), false);
    assert.deepEqual(withdrawn.outcome, { outcome: 'withdrawn', message: 'never sent' });
    // A name a newer version wrote: shown as an answer nobody here can vouch for, with the name said.
    const newer = await recordView(record({ outcome: 'partially-accepted' as never, httpStatus: 200, message: undefined }), false);
    assert.equal(newer.outcome.outcome, 'unrecognised');
    assert.match(newer.outcome.message ?? '', /partially-accepted/);
  });
});
