import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readBatch } from '../../src/core/rules/batch';
import { isSaid, maskText as scrub, saidText } from '../../src/core/output';
import { splitList } from '../../src/core/ledger';
import { outcomeView, sensitiveValues, submissionTable, summary } from '../../src/extension/results/outcomeView';

/** The notification's line as the floor shows it (a Said, each value checked alone). */
const summaryText = (o: Parameters<typeof summary>[0], environment: string, sensitive: string[]): string =>
  saidText(summary(o, environment, sensitive));

const BATCH = [
  'client-orderid;rp_card_type;credit-card-number;cvv2;amount;currency',
  'A-1;SRC;4111111111111111;737;10.00;EUR',
  'A-2;DST;5555555555554444;;20.00;EUR',
].join('\r\n');

describe('scrub', () => {
  it('masks card-number-shaped digit runs 6/4, with or without separators', () => {
    assert.equal(scrub('card 4111111111111111 declined'), 'card 411111******1111 declined');
    assert.equal(scrub('card 4111 1111 1111 1111.'), 'card 4111 11** **** 1111.', 'masked in place: the layout kept');
  });

  it('leaves serial numbers and error ids alone', () => {
    const text = 'serial-number 00000000-0000-0000-0000-000000000001, error id 123456789012-abc';
    assert.equal(scrub(text), text);
  });

  it('leaves short numbers and dates alone', () => {
    const text = 'line 3, column 12: amount 29.90 on 01.02.2030, error-code 300';
    assert.equal(scrub(text), text);
  });

  it("removes the batch's own CVVs only where they stand as whole tokens", () => {
    assert.equal(scrub('cvv2 737 is wrong; row 17370', ['737']), 'cvv2 *** is wrong; row 17370');
  });
});

describe('splitList', () => {
  it('splits the comma-separated ids of a multi-row answer', () => {
    assert.deepEqual(splitList('1, 2,,3 '), ['1', '2', '3']);
    assert.deepEqual(splitList(undefined), []);
  });
});

describe('submission view', () => {
  const batch = readBatch(BATCH);

  it('masks card numbers, leaves out the CVV column and puts the answer per row first', () => {
    const t = submissionTable(batch, { ids: ['11', '12'], statuses: ['active', 'active'], serialNumbers: ['S-1'] });
    assert.deepEqual(t.columns, [
      'recurring-payment-id',
      'status',
      'serial-number',
      'client-orderid',
      'rp_card_type',
      'credit-card-number',
      'amount',
      'currency',
    ]);
    assert.deepEqual(t.rows[0], ['11', 'active', 'S-1', 'A-1', 'SRC', '411111******1111', '10.00', 'EUR']);
    assert.deepEqual(t.rows[1], ['12', 'active', 'S-1', 'A-2', 'DST', '555555******4444', '20.00', 'EUR']);
    assert.ok(!JSON.stringify(t).includes('737'));
    // A serial number per payment goes to its own row; none leaves the column empty.
    assert.deepEqual(
      submissionTable(batch, { ids: ['11', '12'], statuses: [], serialNumbers: ['S-1', 'S-2'] }).rows.map((r) => r[2]),
      ['S-1', 'S-2'],
    );
    assert.deepEqual(
      submissionTable(batch, { ids: [], statuses: [] }).rows.map((r) => r.slice(0, 3)),
      [
        ['', '', ''],
        ['', '', ''],
      ],
    );
  });

  it('collects the card numbers and CVVs to scrub', () => {
    assert.deepEqual(sensitiveValues(batch), ['4111111111111111', '737', '5555555555554444']);
  });

  it('names the RSA key among the credentials to check after an RSA-signed create is refused', () => {
    const v = outcomeView({ outcome: 'auth-failed', status: 403, operation: 'create', message: 'HTTP 403', raw: '' }, 'RSA-SHA256', []);
    assert.ok(v.outcome === 'auth-failed' && v.check?.includes('rsa-private-key') && !v.check.includes('consumer-secret'));
  });

  it('shows an unrecognised answer as unrecognised (never as an error) with its body scrubbed', () => {
    const v = outcomeView(
      { outcome: 'unrecognised', status: 200, contentType: 'text/html', raw: '<p>card 4111111111111111</p>' },
      'HMAC-SHA1',
      [],
    );
    assert.equal(v.outcome, 'unrecognised');
    assert.deepEqual([v.status, v.contentType], [200, 'text/html']);
    assert.ok(v.message?.includes('411111******1111') && !v.message.includes('4111111111111111'));
  });

  it('tells a report denial apart from a create denial', () => {
    assert.equal(
      summaryText(
        { outcome: 'auth-failed', status: 200, operation: 'report', message: 'You are not authorised to perform this request.', raw: '' },
        'sandbox',
        [],
      ),
      'Authentication failed (HTTP 200) at sandbox: You are not authorised to perform this request. Check the consumer key and the consumer secret of this environment.',
    );
    assert.match(
      summaryText({ outcome: 'auth-failed', status: 403, operation: 'create', message: '', raw: '' }, 'sandbox', []),
      /^Authentication failed \(HTTP 403\) at sandbox\. Check the consumer key, the signing key \(RSA private key or consumer secret\) and the endpoint id/,
    );
  });

  it('declined carries the gateway status, message and code; unknown says the payments may exist', () => {
    const d = outcomeView(
      {
        outcome: 'declined',
        status: 200,
        fields: {},
        paymentStatus: 'declined',
        errorMessage: 'Card 4111111111111111 declined by issuer',
        errorCode: '301',
        raw: '',
      },
      'RSA-SHA256',
      [],
    );
    assert.ok(
      d.outcome === 'declined' && d.paymentStatus === 'declined' && d.code === '301' && d.message?.includes('411111******1111'),
      JSON.stringify(d),
    );
    const u = outcomeView(
      { outcome: 'unknown', kind: 'connection-lost', message: 'lost; the gateway may have created the payments' },
      'RSA-SHA256',
      [],
    );
    assert.ok(u.outcome === 'unknown' && u.kind === 'connection-lost', JSON.stringify(u));
    assert.match(
      summaryText({ outcome: 'unknown', kind: 'timeout', message: 'No complete answer' }, 'sandbox', []),
      /^OUTCOME UNKNOWN \(timeout\) at sandbox: No complete answer\. The payments may exist/,
    );
    assert.doesNotMatch(
      summaryText({ outcome: 'unknown', kind: 'timeout', message: 'No complete answer' }, 'sandbox', []),
      /could not reach|not delivered/i,
    );
    assert.match(
      summaryText({ outcome: 'transport-error', kind: 'refused', message: 'refused' }, 'sandbox', []),
      /^Not delivered \(refused\) at sandbox: refused\. Nothing was sent/,
    );
  });

  it("the line is a Said (issue 38): each payment id a value of its own, whole; a card in the gateway's words masked", () => {
    const accepted = summary(
      { outcome: 'accepted', status: 200, fields: { 'recurring-payment-id': '1000010,7000083' }, raw: '' },
      'sandbox',
      [],
    );
    assert.ok(isSaid(accepted));
    assert.match(saidText(accepted), /: recurring-payment-id 1000010, 7000083/);
    const declined = summaryText(
      {
        outcome: 'declined',
        status: 200,
        fields: {},
        paymentStatus: 'declined',
        errorMessage: 'Card 4111 1111 1111 1111 declined',
        errorCode: '301',
        raw: '',
      },
      'sandbox 4111111111111111',
      [],
    );
    assert.ok(!/4111 1111 1111 1111|4111111111111111/.test(declined), declined);
    assert.match(declined, /411111\*{6}1111/);
  });
});
