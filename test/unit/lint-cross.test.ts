// Cross-field and file-wide row checks: amount modes, amount-range, period-interval, callback-exclusive,
// state-required, date-order, card-expired, start-date-past, duplicate-order-id.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DST, FULL, SRC, briefs, file, lintText, onCell, onLine, sorted } from '../fixtures/lint-cases/helpers';
import { saidText } from '../../src/core/output';

const without = (cols: readonly string[], ...names: string[]) => cols.filter((c) => !names.includes(c));
const RANGE = [...without(FULL, 'amount'), 'amount-from', 'amount-to'];
const ALL_MODES = [...FULL, 'amount-from', 'amount-to', 'amount-sequence'];
const NO_AMOUNT = { ...SRC, amount: '' };

describe('amount modes', () => {
  it('amount-from with amount-to: a range, equal bounds allowed', () => {
    const text = file(RANGE, [
      { ...NO_AMOUNT, 'amount-from': '5', 'amount-to': '10' },
      { ...NO_AMOUNT, 'client-orderid': 'o2', 'amount-from': '5.5', 'amount-to': '5.500' },
    ]);
    assert.deepEqual(briefs(text), []);
  });
  it('amount-range on amount-from when it is greater than amount-to (compared as numbers)', () => {
    const text = file(RANGE, [
      { ...NO_AMOUNT, 'amount-from': '10', 'amount-to': '9.99' },
      { ...NO_AMOUNT, 'client-orderid': 'o2', 'amount-from': '9', 'amount-to': '10' }, // "9" > "10" as text only
    ]);
    assert.deepEqual(briefs(text), [onCell(text, 'amount-range', 1, 'amount-from')]);
  });
  it('no amount-range when a bound is itself invalid (invalid-value alone)', () => {
    const text = file(RANGE, [{ ...NO_AMOUNT, 'amount-from': '10.5555', 'amount-to': '1' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'invalid-value', 1, 'amount-from')]);
  });
  it('amount-mode on the row: none, two modes, from without to, to without from', () => {
    const text = file(ALL_MODES, [
      { ...NO_AMOUNT, 'client-orderid': 'a' },
      { ...SRC, 'client-orderid': 'b', 'amount-sequence': '1,2' },
      { ...NO_AMOUNT, 'client-orderid': 'c', 'amount-from': '1' },
      { ...NO_AMOUNT, 'client-orderid': 'd', 'amount-to': '1' },
      { ...NO_AMOUNT, 'client-orderid': 'e', 'amount-sequence': '1.00,2.50,0.001' }, // fine
      { ...NO_AMOUNT, 'client-orderid': 'f', 'amount-from': '1', 'amount-to': '2' }, // fine
    ]);
    assert.deepEqual(briefs(text), sorted([1, 2, 3, 4].map((l) => onLine(text, 'amount-mode', l))));
  });
  it('amount-sequence: each element a decimal, max length per element', () => {
    const seqHeader = [...without(FULL, 'amount'), 'amount-sequence'];
    const rows = [
      '10.00,12.50',
      '1.000,2.000,3.000',
      '10,0',
      '10,,5',
      '10,',
      '1;5'.replace(';', '.') + ',x',
      '12345678901,1',
      '1,12345678901',
    ];
    const text = file(
      seqHeader,
      rows.map((s, i) => ({ ...NO_AMOUNT, 'client-orderid': `s${i}`, 'amount-sequence': s })),
    );
    assert.deepEqual(
      briefs(text),
      sorted([
        onCell(text, 'invalid-value', 3, 'amount-sequence'),
        onCell(text, 'invalid-value', 4, 'amount-sequence'),
        onCell(text, 'invalid-value', 5, 'amount-sequence'),
        onCell(text, 'invalid-value', 6, 'amount-sequence'),
        onCell(text, 'max-length', 7, 'amount-sequence'),
        onCell(text, 'max-length', 8, 'amount-sequence'),
      ]),
    );
  });
  it('a header without a complete amount mode: one missing-column, rows not told about amounts', () => {
    const header = [...without(FULL, 'amount'), 'amount-from'];
    const text = file(header, [
      { ...NO_AMOUNT, 'amount-from': '5' },
      { ...NO_AMOUNT, 'client-orderid': 'o2' },
      { ...NO_AMOUNT, 'client-orderid': 'o3', 'amount-from': '0' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([onLine(text, 'missing-column', 0, 'amount-to'), onCell(text, 'invalid-value', 3, 'amount-from')]),
    );
  });
  it('no amount column at all: exactly one missing-column for the three modes', () => {
    const text = file(without(FULL, 'amount'), [NO_AMOUNT]);
    assert.deepEqual(briefs(text), [onLine(text, 'missing-column', 0, 'amount')]);
  });
  it('amount plus an incomplete range pair in the header is a complete header (amount mode)', () => {
    const header = [...FULL, 'amount-to'];
    const text = file(header, [SRC, { ...NO_AMOUNT, 'client-orderid': 'o2', 'amount-to': '3' }]);
    assert.deepEqual(briefs(text), [onLine(text, 'amount-mode', 2)]);
  });
});

describe('period-interval', () => {
  it('on the filled one of the pair; both empty is a one-off', () => {
    const text = file(FULL, [
      { ...SRC, interval: '' },
      { ...SRC, 'client-orderid': 'o2', period: '' },
      { ...SRC, 'client-orderid': 'o3', period: '', interval: '' },
    ]);
    assert.deepEqual(briefs(text), sorted([onCell(text, 'period-interval', 1, 'period'), onCell(text, 'period-interval', 2, 'interval')]));
  });
  it('an invalid period without interval gets invalid-value alone', () => {
    const text = file(FULL, [{ ...SRC, period: 'yearly', interval: '' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'invalid-value', 1, 'period')]);
  });
});

// The gateway family's integration documentation ("Merchant Callbacks"): callback URLs may use only ports 80
// and 8080 (http), 443 and 8443 (https). A loopback address is the local gateway's alone: exempt.
describe('callback-port', () => {
  const header = [...FULL, 'server_callback_url'];
  it('a port the gateway never calls, on the cell; the default and the four allowed ports, and loopback: nothing', () => {
    const text = file(header, [
      { ...SRC, notify_url: 'https://shop.example:3000/hook' },
      { ...SRC, 'client-orderid': 'o2', notify_url: '', server_callback_url: 'http://shop.example:443/cb' },
      { ...SRC, 'client-orderid': 'o3', notify_url: 'https://shop.example/hook' },
      { ...SRC, 'client-orderid': 'o4', notify_url: 'http://shop.example:8080/hook' },
      { ...SRC, 'client-orderid': 'o5', notify_url: 'https://shop.example:8443/hook' },
      { ...SRC, 'client-orderid': 'o6', notify_url: 'http://shop.example:80/hook' },
      { ...SRC, 'client-orderid': 'o7', notify_url: 'https://shop.example:443/hook' },
      { ...SRC, 'client-orderid': 'o8', notify_url: 'http://127.0.0.1:4567/paygate/notify' },
      { ...SRC, 'client-orderid': 'o9', notify_url: 'http://localhost:3000/hook' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'callback-port', 1, 'notify_url'), onCell(text, 'callback-port', 2, 'server_callback_url')]),
    );
    const d = lintText(text).find((x) => x.code === 'callback-port')!;
    assert.equal(d.severity, 'warning');
    assert.match(saidText(d.message), /never calls back on port 3000: it calls only ports 80 and 8080 \(http\), 443 and 8443 \(https\)/);
  });
  it('an address that is not a URL gets its invalid-value alone, not a port warning too', () => {
    const text = file(header, [{ ...SRC, notify_url: 'ftp://shop.example:21/x' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'invalid-value', 1, 'notify_url')]);
  });
});

describe('callback-exclusive', () => {
  const header = [...FULL, 'server_callback_url'];
  it('both URLs: on server_callback_url; one of them: fine', () => {
    const text = file(header, [
      { ...SRC, server_callback_url: 'https://example.com/cb' },
      { ...SRC, 'client-orderid': 'o2', notify_url: '', server_callback_url: 'https://example.com/cb' },
      { ...DST, 'client-orderid': 'o3', notify_url: 'https://example.com/n', server_callback_url: 'https://example.com/cb' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'callback-exclusive', 1, 'server_callback_url'), onCell(text, 'callback-exclusive', 3, 'server_callback_url')]),
    );
  });
  it('server_callback_url is limited to 128 characters; an invalid one gets only its own diagnostic', () => {
    const long = `https://example.com/${'a'.repeat(109)}`; // 129
    const ok = `https://example.com/${'a'.repeat(108)}`; // 128
    const text = file(header, [
      { ...SRC, notify_url: '', server_callback_url: long },
      { ...SRC, 'client-orderid': 'o2', notify_url: '', server_callback_url: ok },
      { ...SRC, 'client-orderid': 'o3', server_callback_url: 'mailto:x@example.com' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'max-length', 1, 'server_callback_url'), onCell(text, 'invalid-value', 3, 'server_callback_url')]),
    );
  });
});

describe('state-required', () => {
  it('SRC with country US, CA or AU and an empty state; other countries and DST rows are fine', () => {
    const text = file(FULL, [
      { ...SRC, country: 'US' },
      { ...SRC, 'client-orderid': 'b', country: 'CA' },
      { ...SRC, 'client-orderid': 'c', country: 'AU' },
      { ...SRC, 'client-orderid': 'd', country: 'US', state: 'NY' },
      { ...SRC, 'client-orderid': 'e', country: 'GB' },
      { ...SRC, 'client-orderid': 'f', country: 'us' }, // invalid country: no state check
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([
        onCell(text, 'state-required', 1, 'state'),
        onCell(text, 'state-required', 2, 'state'),
        onCell(text, 'state-required', 3, 'state'),
        onCell(text, 'invalid-value', 6, 'country'),
      ]),
    );
  });
  it('without a state column: one missing-column state at the header, nothing on the rows', () => {
    const header = FULL.filter((c) => c !== 'state');
    const text = file(header, [
      { ...SRC, country: 'US' },
      { ...SRC, 'client-orderid': 'o2', country: 'AU' },
    ]);
    assert.deepEqual(briefs(text), [onLine(text, 'missing-column', 0, 'state')]);
  });
  it('no state column and no US/CA/AU SRC row: nothing', () => {
    const text = file(
      FULL.filter((c) => c !== 'state'),
      [SRC, { ...DST }],
    );
    assert.deepEqual(briefs(text), []);
  });
});

describe('warnings', () => {
  it('card-expired on expire-month: before the current month only', () => {
    const rows = [
      ['2026', '10'],
      ['2026', '11'],
      ['2025', '12'],
      ['2027', '01'],
    ].map(([y, m], i) => ({ ...SRC, 'client-orderid': `e${i}`, 'expire-year': y, 'expire-month': m }));
    const text = file(FULL, rows);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'card-expired', 1, 'expire-month'), onCell(text, 'card-expired', 3, 'expire-month')]),
    );
  });
  it('card-expired also on a DST row that gives an expiry', () => {
    const text = file(FULL, [{ ...DST, 'expire-year': '2020', 'expire-month': '01' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'card-expired', 1, 'expire-month')]);
  });
  it('duplicate-order-id on every later row with an earlier id', () => {
    const text = file(FULL, [SRC, { ...SRC }, { ...DST, 'client-orderid': 'o1' }, { ...DST }, { ...DST, 'client-orderid': 'O1' }]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'duplicate-order-id', 2, 'client-orderid'), onCell(text, 'duplicate-order-id', 3, 'client-orderid')]),
    );
  });
  it('a file with only warnings: severities are warning', () => {
    const text = file(FULL, [{ ...SRC, 'credit-card-number': '4111111111111112', 'start-date': '01.01.2020' }]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'card-luhn', 1, 'credit-card-number'), onCell(text, 'start-date-past', 1, 'start-date')]),
    );
  });
  it('date-order and start-date-past together when both apply', () => {
    const text = file(FULL, [{ ...SRC, 'start-date': '10.10.2026', 'finish-date': '09.10.2026' }]);
    assert.deepEqual(
      briefs(text),
      sorted([onCell(text, 'start-date-past', 1, 'start-date'), onCell(text, 'date-order', 1, 'finish-date')]),
    );
  });
});
