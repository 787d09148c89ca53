import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBatch } from '../../src/core/rules/batch';
import { maskText as scrub } from '../../src/core/mask';
import { HISTORY_LIMIT, splitList, SubmissionHistory, type NewSubmission, type SubmissionRecord } from '../../src/extension/history/history';
import { recordView } from '../../src/extension/history/recordView';
import { withCrlfRecords } from '../../src/core/csv/write';
import { contentHash } from '../../src/core/oauth';
import { outcomeView, sensitiveValues, submissionTable, summary } from '../../src/extension/submit/outcomeView';

const BATCH = [
  'client-orderid;rp_card_type;credit-card-number;cvv2;amount;currency',
  'A-1;SRC;4111111111111111;737;10.00;EUR',
  'A-2;DST;5555555555554444;;20.00;EUR',
].join('\r\n');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-history-'));
}

const entry = (over: Partial<NewSubmission> = {}): NewSubmission => ({
  environment: 'local',
  production: false,
  endpoint: 'http://127.0.0.1:1/paygate/api/v4/create-recurring-payments/1001/',
  file: '/tmp/x.rpcsv',
  rowCount: 2,
  contentHash: 'a'.repeat(64),
  signatureMethod: 'RSA-SHA256',
  ...over,
});

describe('scrub', () => {
  it('masks card-number-shaped digit runs 6/4, with or without separators', () => {
    assert.equal(scrub('card 4111111111111111 declined'), 'card 411111******1111 declined');
    assert.equal(scrub('card 4111 1111 1111 1111.'), 'card 411111******1111.');
  });

  it('leaves serial numbers and error ids alone', () => {
    const text = 'serial-number 00000000-0000-0000-0000-000000000001, error id 123456789012-abc';
    assert.equal(scrub(text), text);
  });

  it('leaves short numbers and dates alone', () => {
    const text = 'line 3, column 12: amount 29.90 on 01.02.2030, error-code 300';
    assert.equal(scrub(text), text);
  });

  it('removes the batch\'s own CVVs only where they stand as whole tokens', () => {
    assert.equal(scrub('cvv2 737 is wrong; row 17370', ['737']), 'cvv2 *** is wrong; row 17370');
  });
});

describe('splitList', () => {
  it('splits the comma-separated ids of a multi-row answer', () => {
    assert.deepEqual(splitList('1, 2,,3 '), ['1', '2', '3']);
    assert.deepEqual(splitList(undefined), []);
  });
});

describe('SubmissionHistory', () => {
  it('writes the record as sending before completion, then completes it in place', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    const r = await h.begin(entry());
    const onDisk = JSON.parse(fs.readFileSync(h.filePath, 'utf8'));
    assert.equal(onDisk.records[0].id, r.id);
    assert.equal(onDisk.records[0].state, 'sending');
    const done = await h.complete(r.id, { outcome: 'accepted', httpStatus: 200, recurringPaymentIds: ['7', '8'], serialNumbers: ['s-1'] });
    assert.equal(done?.state, 'done');
    const listed = await h.list();
    assert.equal(listed.length, 1);
    assert.deepEqual([listed[0].state, listed[0].recurringPaymentIds, listed[0].serialNumbers], ['done', ['7', '8'], ['s-1']]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds an earlier submission only for the same content and the same endpoint', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    const r = await h.begin(entry());
    assert.equal((await h.findDuplicate('a'.repeat(64), entry().endpoint))?.id, r.id);
    assert.equal(await h.findDuplicate('b'.repeat(64), entry().endpoint), undefined);
    assert.equal(await h.findDuplicate('a'.repeat(64), 'https://other.example/api/v4/create-recurring-payments/1/'), undefined);
    await h.clear();
    assert.equal(await h.findDuplicate('a'.repeat(64), entry().endpoint), undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('scrubs card numbers out of completion messages', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    const r = await h.begin(entry());
    await h.complete(r.id, { outcome: 'validation-error', message: 'row 1: card 4111111111111111 cvv 737 refused' }, ['737']);
    const text = fs.readFileSync(h.filePath, 'utf8');
    assert.ok(!text.includes('4111111111111111'));
    assert.ok(!text.includes(' 737 '));
    assert.ok(text.includes('411111******1111'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loses no record when many are written at once, newest first, and notifies each change', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    let changes = 0;
    h.onDidChange(() => changes++);
    const written = await Promise.all(Array.from({ length: 12 }, (_, i) => h.begin(entry({ file: `/tmp/${i}.rpcsv` }))));
    const listed = await h.list();
    assert.equal(listed.length, 12);
    assert.deepEqual(new Set(listed.map((r) => r.id)), new Set(written.map((r) => r.id)));
    assert.equal(listed[0].id, written[11].id, 'the last begun is first');
    assert.equal(changes, 12);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps at most HISTORY_LIMIT records', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    const records = Array.from({ length: HISTORY_LIMIT }, (_, i) => ({ ...entry(), id: `old-${i}`, time: new Date(0).toISOString(), state: 'done', recurringPaymentIds: [], serialNumbers: [], statuses: [] }));
    fs.writeFileSync(h.filePath, JSON.stringify({ version: 1, records }));
    const r = await h.begin(entry());
    const listed = await h.list();
    assert.equal(listed.length, HISTORY_LIMIT);
    assert.equal(listed[0].id, r.id);
    assert.ok(!listed.some((x) => x.id === `old-${HISTORY_LIMIT - 1}`), 'the oldest record was dropped');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a missing or damaged file as an empty history', async () => {
    const dir = tempDir();
    const h = new SubmissionHistory(dir);
    assert.deepEqual(await h.list(), []);
    fs.writeFileSync(h.filePath, '{ not json');
    assert.deepEqual(await h.list(), []);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('submission view', () => {
  const batch = readBatch(BATCH);

  it('masks card numbers, leaves out the CVV column and puts the answer per row first', () => {
    const t = submissionTable(batch, { ids: ['11', '12'], statuses: ['active', 'active'], serialNumbers: ['S-1'] });
    assert.deepEqual(t.columns, ['recurring-payment-id', 'status', 'serial-number', 'client-orderid', 'rp_card_type', 'credit-card-number', 'amount', 'currency']);
    assert.deepEqual(t.rows[0], ['11', 'active', 'S-1', 'A-1', 'SRC', '411111******1111', '10.00', 'EUR']);
    assert.deepEqual(t.rows[1], ['12', 'active', 'S-1', 'A-2', 'DST', '555555******4444', '20.00', 'EUR']);
    assert.ok(!JSON.stringify(t).includes('737'));
    // A serial number per payment goes to its own row; none leaves the column empty.
    assert.deepEqual(submissionTable(batch, { ids: ['11', '12'], statuses: [], serialNumbers: ['S-1', 'S-2'] }).rows.map((r) => r[2]), ['S-1', 'S-2']);
    assert.deepEqual(submissionTable(batch, { ids: [], statuses: [] }).rows.map((r) => r.slice(0, 3)), [['', '', ''], ['', '', '']]);
  });

  it('collects the card numbers and CVVs to scrub', () => {
    assert.deepEqual(sensitiveValues(batch), ['4111111111111111', '737', '5555555555554444']);
  });

  it('names the RSA key among the credentials to check after an RSA-signed create is refused', () => {
    const v = outcomeView({ outcome: 'auth-failed', status: 403, operation: 'create', message: 'HTTP 403', raw: '' }, 'RSA-SHA256', []);
    assert.ok(v.kind === 'auth-failed' && v.check.includes('rsa-private-key') && !v.check.includes('consumer-secret'));
  });

  it('shows an unrecognised answer as an error with its body scrubbed', () => {
    const v = outcomeView({ outcome: 'unrecognised', status: 200, contentType: 'text/html', raw: '<p>card 4111111111111111</p>' }, 'HMAC-SHA1', []);
    assert.equal(v.kind, 'error');
    assert.ok(v.kind === 'error' && v.message.includes('411111******1111') && !v.message.includes('4111111111111111'));
  });

  it('tells a report denial apart from a create denial', () => {
    assert.equal(
      summary({ outcome: 'auth-failed', status: 200, operation: 'report', message: 'You are not authorised to perform this request.', raw: '' }, 'sandbox', []),
      'authentication failed: check the consumer secret of sandbox',
    );
    assert.match(summary({ outcome: 'auth-failed', status: 403, operation: 'create', message: '', raw: '' }, 'sandbox', []), /signing key of sandbox/);
  });
});

describe('a submission from the ledger as a panel', () => {
  const record = (over: Partial<SubmissionRecord>): SubmissionRecord => ({
    ...entry(),
    id: 'r1',
    time: '2026-11-22T21:05:09.000Z',
    state: 'done',
    outcome: 'accepted',
    httpStatus: 200,
    recurringPaymentIds: ['11', '12'],
    statuses: ['active', 'active'],
    serialNumbers: ['S-1'],
    ...over,
  });

  it('shows the file’s rows, masked and with the answer first, when the file is still what was sent', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'batch.rpcsv');
    fs.writeFileSync(file, BATCH.replace(/\r\n/g, '\n')); // line endings do not change what was sent
    const view = await recordView(record({ file, contentHash: contentHash(withCrlfRecords(BATCH)) }), false);
    assert.equal(view.title, 'Submission: batch.rpcsv → local');
    assert.deepEqual(view.outcome, { kind: 'accepted', status: 200 });
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
    const view = await recordView(record({ file, contentHash: contentHash(withCrlfRecords(BATCH)) }), false);
    assert.deepEqual(view.columns, ['recurring-payment-id', 'status', 'serial-number']);
    assert.deepEqual(view.rows, [['11', 'active', 'S-1'], ['12', 'active', 'S-1']]);
    assert.match(view.fields?.rows ?? '', /changed or moved/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('calls an interrupted or cancelled submission unknown, and keeps refusals with their message', async () => {
    const interrupted = await recordView(record({ state: 'sending', outcome: undefined, recurringPaymentIds: [], statuses: [], serialNumbers: [] }), true);
    assert.equal(interrupted.outcome.kind, 'unknown');
    assert.match(interrupted.outcome.kind === 'unknown' ? interrupted.outcome.message : '', /may have created/);
    assert.equal((await recordView(record({ outcome: 'cancelled', message: 'Cancelled while waiting' }), false)).outcome.kind, 'unknown');
    const refused = await recordView(record({ outcome: 'validation-error', message: 'amount is wrong', errorCode: '1003' }), false);
    assert.deepEqual(refused.outcome, { kind: 'validation-error', status: 200, message: 'amount is wrong', code: '1003' });
  });
});
