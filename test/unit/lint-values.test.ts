// Every value rule of the rule book's column table: the code fires on the cell (exact range, severity,
// columnName) and near misses stay silent. Each case changes one cell of a valid row and expects exactly
// the listed diagnostics on the whole file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Code } from '../../src/core/rules/codes';
import { DST, FULL, SRC, briefs, file, onCell, sorted, type Brief } from '../fixtures/lint-cases/helpers';

type Case = [column: string, value: string, code: Code | null];

/** Luhn check digit, so that long test card numbers do not also trip card-luhn. */
function withLuhn(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const n = body + d;
    let sum = 0;
    for (let i = 0; i < n.length; i++) {
      let x = Number(n[n.length - 1 - i]);
      if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
      sum += x;
    }
    if (sum % 10 === 0) return n;
  }
  throw new Error('unreachable');
}

function check(base: Record<string, string>, cases: Case[]): void {
  for (const [column, value, code] of cases) {
    it(`${base.rp_card_type} ${column}=${JSON.stringify(value.length > 30 ? `${value.slice(0, 12)}…(${value.length})` : value)} → ${code ?? 'nothing'}`, () => {
      const text = file(FULL, [{ ...base, [column]: value }]);
      const expected: Brief[] = code ? [onCell(text, code, 1, column)] : [];
      assert.deepEqual(briefs(text), sorted(expected));
    });
  }
}

const x = (n: number, c = 'a') => c.repeat(n);

describe('the valid base rows are clean', () => {
  it('SRC and DST rows together: no diagnostics at all', () => {
    assert.deepEqual(briefs(file(FULL, [SRC, DST])), []);
  });
});

describe('client-orderid, rp_card_type, credit-card-number, cvv2', () => {
  check(SRC, [
    ['client-orderid', x(128), null],
    ['client-orderid', 'order #1 / ok', null],
    ['client-orderid', x(129), 'max-length'],
    ['client-orderid', '', 'required-value'],
    ['rp_card_type', 'src', 'invalid-value'],
    ['rp_card_type', 'Dst', 'invalid-value'],
    ['rp_card_type', 'XYZ', 'invalid-value'],
    ['rp_card_type', 'SRCX', 'max-length'],
    ['rp_card_type', '', 'required-value'],
    ['credit-card-number', withLuhn('41111111111'), null], // 12 digits
    ['credit-card-number', withLuhn('411111111111111111'), null], // 19 digits
    ['credit-card-number', withLuhn('4111111111'), 'invalid-value'], // 11 digits
    ['credit-card-number', withLuhn('4111111111111111111'), 'max-length'], // 20 digits
    ['credit-card-number', '4111 1111 1111 1111', 'invalid-value'],
    ['credit-card-number', '4111-1111-1111-1111', 'invalid-value'],
    ['credit-card-number', '', 'required-value'],
    ['credit-card-number', '4111111111111112', 'card-luhn'],
    ['cvv2', '123', null],
    ['cvv2', '1234', null],
    ['cvv2', '', null],
    ['cvv2', '12', 'invalid-value'],
    ['cvv2', '12a', 'invalid-value'],
    ['cvv2', '12345', 'max-length'],
  ]);
  check(DST, [
    ['client-orderid', '', 'required-value'],
    ['rp_card_type', '', 'required-value'],
    ['credit-card-number', '', 'required-value'],
    ['cvv2', '999', null],
  ]);
});

describe('card-printed-name, expire-year, expire-month', () => {
  const months = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
  check(SRC, [
    ['card-printed-name', x(128), null],
    ['card-printed-name', x(129), 'max-length'],
    ['card-printed-name', '', 'required-value'],
    ['expire-year', '2031', null],
    ['expire-year', '31', 'invalid-value'],
    ['expire-year', '203a', 'invalid-value'],
    ['expire-year', '20301', 'max-length'],
    ['expire-year', '', 'required-value'],
    ...months.map((m): Case => ['expire-month', m, null]),
    ['expire-month', '00', 'invalid-value'],
    ['expire-month', '13', 'invalid-value'],
    ['expire-month', '1', 'invalid-value'],
    ['expire-month', 'ab', 'invalid-value'],
    ['expire-month', '123', 'max-length'],
    ['expire-month', '', 'required-value'],
  ]);
  // Required for SRC only: a DST row may leave them empty or fill them.
  check(DST, [
    ['card-printed-name', '', null],
    ['expire-year', '2031', null],
    ['expire-month', '07', null],
    ['expire-month', '7', 'invalid-value'],
  ]);
});

describe('amount (decimal)', () => {
  check(SRC, [
    ['amount', '1', null],
    ['amount', '0.001', null],
    ['amount', '10.123', null],
    ['amount', '0.5', null],
    ['amount', '1234567890', null],
    ['amount', '0', 'invalid-value'],
    ['amount', '0.000', 'invalid-value'],
    ['amount', '1.', 'invalid-value'],
    ['amount', '.5', 'invalid-value'],
    ['amount', '1.1234', 'invalid-value'],
    ['amount', '1,5', 'invalid-value'],
    ['amount', '-1', 'invalid-value'],
    ['amount', '1e3', 'invalid-value'],
    ['amount', ' 1', 'invalid-value'],
    ['amount', '12345678901', 'max-length'],
    ['amount', '1234567.123', 'max-length'],
  ]);
});

describe('currency, country and the SRC address columns', () => {
  check(SRC, [
    ['currency', 'USD', null],
    ['currency', 'eur', 'invalid-value'],
    ['currency', 'EU', 'invalid-value'],
    ['currency', 'E1R', 'invalid-value'],
    ['currency', 'EURO', 'max-length'],
    ['currency', '', 'required-value'],
    ['country', 'FR', null],
    ['country', 'de', 'invalid-value'],
    ['country', 'D', 'invalid-value'],
    ['country', 'D1', 'invalid-value'],
    ['country', 'DEU', 'max-length'],
    ['country', '', 'required-value'],
    ['city', x(128), null],
    ['city', x(129), 'max-length'],
    ['city', '😀'.repeat(128), null], // characters, not UTF-16 units
    ['city', '😀'.repeat(129), 'max-length'],
    ['city', '', 'required-value'],
    ['zip-code', x(10, '1'), null],
    ['zip-code', x(11, '1'), 'max-length'],
    ['zip-code', '', 'required-value'],
    ['address1', x(256), null],
    ['address1', x(257), 'max-length'],
    ['address1', '', 'required-value'],
    ['first-name', x(128), null],
    ['first-name', x(129), 'max-length'],
    ['first-name', '', 'required-value'],
    ['last-name', x(128), null],
    ['last-name', x(129), 'max-length'],
    ['last-name', '', 'required-value'],
  ]);
  check(DST, [['currency', '', 'required-value']]);
});

describe('email', () => {
  check(SRC, [
    ['email', 'a@b.co', null],
    ['email', 'john.doe+tag@mail.example.org', null],
    ['email', `${x(116)}@example.com`, null], // 128
    ['email', `${x(117)}@example.com`, 'max-length'], // 129
    ['email', 'john', 'invalid-value'],
    ['email', 'john@example', 'invalid-value'],
    ['email', '@example.com', 'invalid-value'],
    ['email', 'john@example.', 'invalid-value'],
    ['email', 'john@@example.com', 'invalid-value'],
    ['email', 'jo hn@example.com', 'invalid-value'],
    ['email', 'first.last@example', 'invalid-value'], // the only dot is in the local part
    ['email', 'john@example.com ', 'invalid-value'],
    ['email', 'john@.example.com', 'invalid-value'],
    ['email', 'john@example..com', 'invalid-value'],
    ['email', 'a@..a', 'invalid-value'],
    ['email', 'j.o.h.n@sub.example.com', null],
    ['email', '', 'required-value'],
  ]);
});

describe('period and interval', () => {
  check(SRC, [
    ['period', 'day', null],
    ['period', 'week', null],
    ['period', 'Day', 'invalid-value'],
    ['period', 'year', 'invalid-value'],
    ['period', x(33), 'max-length'],
    ['interval', '2', null],
    ['interval', '12', null],
    ['interval', '0', 'invalid-value'],
    ['interval', '-1', 'invalid-value'],
    ['interval', '1.5', 'invalid-value'],
    ['interval', 'one', 'invalid-value'],
  ]);
});

describe('optional columns', () => {
  check(SRC, [
    ['order_desc', x(65535), null],
    ['order_desc', x(65536), 'max-length'],
    ['order_desc', '', null],
    ['customer-ip', '::1', null],
    ['customer-ip', '2001:db8::8a2e:370:7334', null],
    ['customer-ip', '::ffff:192.0.2.1', null],
    ['customer-ip', '255.255.255.255', null],
    ['customer-ip', '256.0.0.1', 'invalid-value'],
    ['customer-ip', '1.2.3', 'invalid-value'],
    ['customer-ip', '2001:db8:::1', 'invalid-value'],
    ['customer-ip', 'localhost', 'invalid-value'],
    ['customer-ip', x(46, '1'), 'max-length'],
    ['ssn', x(32, '1'), null],
    ['ssn', x(33, '1'), 'max-length'],
    ['phone', x(128, '1'), null],
    ['phone', x(129, '1'), 'max-length'],
    ['purpose', x(128), null],
    ['purpose', x(129), 'max-length'],
    ['max-repeats-number', '1', null],
    ['max-repeats-number', '0', 'invalid-value'],
    ['max-repeats-number', '1.0', 'invalid-value'],
    ['max-repeats-number', 'x', 'invalid-value'],
    ['notify_url', 'http://localhost:8080/cb', null],
    ['notify_url', 'https://example.com/a?b=c&d=e#f', null],
    ['notify_url', `https://example.com/${x(1004)}`, null], // 1024
    ['notify_url', `https://example.com/${x(1005)}`, 'max-length'],
    ['notify_url', 'ftp://example.com/', 'invalid-value'],
    ['notify_url', 'example.com/cb', 'invalid-value'],
    ['notify_url', 'https://', 'invalid-value'],
    ['notify_url', '/relative/path', 'invalid-value'],
  ]);
});

describe('state (letters; required for US/CA/AU)', () => {
  check(SRC, [
    ['state', 'NY', null],
    ['state', 'NSW', null],
    ['state', 'N', 'invalid-value'],
    ['state', 'N1', 'invalid-value'],
    ['state', 'ABCD', 'max-length'],
  ]);
});

describe('dates: DD.MM.YYYY real calendar dates, no length check', () => {
  check(SRC, [
    ['birthday', '01.01.2027', null],
    ['birthday', '31.12.2027', null],
    ['birthday', '28.02.2027', null],
    ['birthday', '29.02.2028', null],
    ['birthday', '29.02.2027', 'invalid-value'],
    ['birthday', '31.02.2027', 'invalid-value'],
    ['birthday', '31.04.2027', 'invalid-value'],
    ['birthday', '00.01.2027', 'invalid-value'],
    ['birthday', '01.13.2027', 'invalid-value'],
    ['birthday', '1.1.2027', 'invalid-value'],
    ['birthday', '2027-01-01', 'invalid-value'],
    ['birthday', '01/01/2027', 'invalid-value'],
    ['birthday', '01.01.20270', 'invalid-value'],
    ['birthday', '01.01.27', 'invalid-value'],
    ['birthday', '0a.01.2027', 'invalid-value'],
    ['birthday', '01.01.0000', 'invalid-value'],
    ['birthday', '01,01,2027', 'invalid-value'],
    ['start-date', '22.11.2026', null], // today is not in the past
    ['start-date', '21.11.2026', 'start-date-past'],
    ['start-date', '31.04.2027', 'invalid-value'],
    ['finish-date', '01.01.2027', null], // equal to start-date
    ['finish-date', '31.12.2026', 'date-order'],
    ['finish-date', '2026-12-31', 'invalid-value'],
  ]);
});

describe('DST rows: DST-no columns must be empty, and get dst-unsupported alone', () => {
  check(DST, [
    ['country', 'DE', 'dst-unsupported'],
    ['country', 'xx', 'dst-unsupported'],
    ['city', 'Berlin', 'dst-unsupported'],
    ['city', x(129), 'dst-unsupported'],
    ['zip-code', '10115', 'dst-unsupported'],
    ['address1', 'Main St 1', 'dst-unsupported'],
    ['first-name', 'Jane', 'dst-unsupported'],
    ['last-name', 'Roe', 'dst-unsupported'],
    ['email', 'not-an-email', 'dst-unsupported'],
    ['period', 'month', 'dst-unsupported'],
    ['interval', '1', 'dst-unsupported'],
    ['ssn', '123', 'dst-unsupported'],
    ['birthday', '01.02.1990', 'dst-unsupported'],
    ['phone', '123', 'dst-unsupported'],
    ['state', 'NY', 'dst-unsupported'],
    ['purpose', 'gift', 'dst-unsupported'],
    // DST yes columns
    ['order_desc', 'payout', null],
    ['customer-ip', '::1', null],
    ['finish-date', '01.01.2028', null],
    ['max-repeats-number', '3', null],
    ['notify_url', 'https://example.com/n', null],
  ]);
  it('period and interval on a DST row: one dst-unsupported each, no period-interval', () => {
    const text = file(FULL, [
      { ...DST, period: 'day', interval: '2' },
      { ...DST, 'client-orderid': 'o3', period: 'day' },
    ]);
    assert.deepEqual(
      briefs(text),
      sorted([
        onCell(text, 'dst-unsupported', 1, 'period'),
        onCell(text, 'dst-unsupported', 1, 'interval'),
        onCell(text, 'dst-unsupported', 2, 'period'),
      ]),
    );
  });
});

describe('rows that are neither SRC nor DST', () => {
  it('an empty rp_card_type only gets required-value, whatever the address columns hold', () => {
    const text = file(FULL, [{ ...DST, rp_card_type: '', city: 'Berlin', 'card-printed-name': '' }]);
    assert.deepEqual(briefs(text), [onCell(text, 'required-value', 1, 'rp_card_type')]);
  });
});
