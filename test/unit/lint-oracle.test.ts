// Model-based test of the per-cell rules: an independent reading of the rule book's column table
// (written out here, not imported from the core) predicts for random rows which of required-value,
// dst-unsupported, max-length or invalid-value each cell gets, if any; the linter must agree exactly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint } from '../../src/core/rules/lint';
import { quoteField } from '../../src/core/csv/write';
import { TODAY } from '../fixtures/lint-cases/helpers';
import { Codes, type Code } from '../../src/core/rules/codes';
import { COLUMNS } from '../../src/core/rules/columns';

/**
 * Which model of this file predicts each code (null: none; the reason beside it). A total record over the
 * codes, so a new code fails the type check until it is placed; each model's test then fails until its
 * generator produces every code placed in it (the model predicts what the linter gives, and every code of
 * the model is seen in the run), so a new rule's trigger missing from a generator fails every run.
 */
const MODEL: Record<Code, 'cell' | 'cross' | 'header' | null> = {
  'required-value': 'cell',
  'dst-unsupported': 'cell',
  'max-length': 'cell',
  'invalid-value': 'cell',
  'amount-mode': 'cross',
  'amount-range': 'cross',
  'period-interval': 'cross',
  'callback-exclusive': 'cross',
  'callback-port': 'cross',
  'state-required': 'cross',
  'date-order': 'cross',
  'card-luhn': 'cross',
  'card-expired': 'cross',
  'start-date-past': 'cross',
  'duplicate-order-id': 'cross',
  'id-whitespace': 'cross',
  'column-alias': 'header',
  'unknown-column': 'header',
  'duplicate-column': 'header',
  'missing-column': 'header',
  // The file's shape, not its values: lint-file, lint-positions and the CSV properties.
  'csv-syntax': null,
  'field-count': null,
  'blank-line': null,
  delimiter: null,
  bom: null,
  // Beyond one file's lint: a ledger, git, an environment (test/fixtures/lint-cases/triggers.ts).
  'already-sent': null,
  'card-data-in-git': null,
  'cvv-after-send': null,
  'same-payer': null,
  'batch-too-large': null,
};
const modelled = (model: 'cell' | 'cross' | 'header') => new Set(Object.values(Codes).filter((c) => MODEL[c] === model) as string[]);
/** After a model's run: every code it predicts was given at least once. */
const everyCodeSeen = (model: 'cell' | 'cross' | 'header', given: Set<string>) =>
  assert.deepEqual(
    [...modelled(model)].filter((c) => !given.has(c)),
    [],
    `the ${model} model's generators never produced these codes: give them values that do`,
  );

type Need = 'R' | 'SRC' | '-';
interface Col {
  need: Need;
  valid: (v: string) => boolean;
  max: number | null;
  dst: boolean;
  gen: fc.Arbitrary<string>;
}

const daysIn = (y: number, m: number) =>
  [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
const isDate = (v: string) => {
  const m = /^(\d\d)\.(\d\d)\.(\d{4})$/.exec(v);
  if (!m) return false;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
};
const isDecimal = (v: string) => /^\d+(\.\d{1,3})?$/.test(v) && /[1-9]/.test(v);
const text = () => true;
const chars = (v: string) => [...v].length;

// eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
const rand = (alphabet: string[], maxLength = 12) => fc.array(fc.constantFrom(...alphabet), { maxLength }).map((a) => a.join(''));
const DIGITS = '0123456789'.split('');
const MIXED = [...DIGITS, '.', ',', '-', ' ', 'a', 'Z', 'é', '@', '/', ':', ';', '"'];
const gen = (examples: string[], alphabet = MIXED, maxLength = 12) =>
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  fc.oneof(fc.constantFrom(...examples), rand(alphabet, maxLength), fc.constant(''));
const longText = (max: number) =>
  fc.oneof(rand(MIXED, 8), fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), '😀'.repeat(max + 1)), fc.constant(''));

const URLS: Record<string, boolean> = {
  'https://e.example/cb': true,
  'https://e.example/n': true,
  'ftp://x': false,
  'e.example': false,
  'http://127.0.0.1:8080/x?y=1': true,
  'https://e.example:3000/n': true,
  'http://e.example:8080/n': true,
  'http://127.0.0.1:3000/n': true,
  'http://e.example:443/cb': true,
  'https://e.example:8443/cb': true,
  'ftp://e.example/': false,
  'e.example/cb': false,
  'https://': false,
  'mailto:a@b.c': false,
};
const IPS: Record<string, boolean> = {
  '192.0.2.1': true,
  '::1': true,
  '2001:db8::1': true,
  '256.1.1.1': false,
  '1.2.3': false,
  'fe80:::1': false,
  localhost: false,
};

// The rule book's "Columns" table.
const TABLE: Record<string, Col> = {
  'client-orderid': { need: 'R', valid: text, max: 128, dst: true, gen: longText(128) },
  'credit-card-number': {
    need: 'R',
    valid: (v) => /^\d{12,19}$/.test(v),
    max: 19,
    dst: true,
    gen: gen(['4111111111111111', '411111111111', '4111111111111111111', '41111111111', '41111111111111111111'], DIGITS, 21),
  },
  cvv2: { need: '-', valid: (v) => /^\d{3,4}$/.test(v), max: 4, dst: true, gen: gen(['123', '1234'], DIGITS, 6) },
  'card-printed-name': { need: 'SRC', valid: text, max: 128, dst: true, gen: longText(128) },
  'expire-year': { need: 'SRC', valid: (v) => /^\d{4}$/.test(v), max: 4, dst: true, gen: gen(['2030', '30'], DIGITS, 6) },
  'expire-month': {
    need: 'SRC',
    valid: (v) => /^(0[1-9]|1[0-2])$/.test(v),
    max: 2,
    dst: true,
    gen: gen(['01', '12', '00', '13', '5'], DIGITS, 3),
  },
  amount: {
    need: '-',
    valid: isDecimal,
    max: 10,
    dst: true,
    gen: gen(['1', '0.001', '10.123', '0', '1.', '.5', '1.1234'], [...DIGITS, '.', '.', ','], 12),
  },
  'amount-from': { need: '-', valid: isDecimal, max: 10, dst: true, gen: gen(['5', '0.000'], [...DIGITS, '.'], 12) },
  'amount-to': { need: '-', valid: isDecimal, max: 10, dst: true, gen: gen(['10.00'], [...DIGITS, '.'], 12) },
  'amount-sequence': {
    need: '-',
    valid: (v) => v.split(',').every(isDecimal),
    max: 10,
    dst: true,
    gen: gen(['1,2.5', '10,', ',1', '12345678901,1'], [...DIGITS, '.', ',', ','], 24),
  },
  currency: {
    need: 'R',
    valid: (v) => /^[A-Z]{3}$/.test(v),
    max: 3,
    dst: true,
    gen: gen(['EUR', 'eur', 'EURO'], ['E', 'U', 'R', 'e', '1'], 5),
  },
  country: { need: 'SRC', valid: (v) => /^[A-Z]{2}$/.test(v), max: 2, dst: false, gen: gen(['DE', 'de', 'DEU'], ['D', 'E', 'd', '1'], 4) },
  city: { need: 'SRC', valid: text, max: 128, dst: false, gen: longText(128) },
  'zip-code': { need: 'SRC', valid: text, max: 10, dst: false, gen: longText(10) },
  address1: { need: 'SRC', valid: text, max: 256, dst: false, gen: longText(256) },
  'first-name': { need: 'SRC', valid: text, max: 128, dst: false, gen: longText(128) },
  'last-name': { need: 'SRC', valid: text, max: 128, dst: false, gen: longText(128) },
  email: {
    need: 'SRC',
    valid: (v) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v),
    max: 128,
    dst: false,
    gen: gen(['a@b.co', 'a@b', '@b.co', 'a b@c.de', `${'a'.repeat(124)}@b.co`], ['a', 'b', '@', '.', ' ', '-'], 10),
  },
  period: {
    need: '-',
    valid: (v) => ['day', 'week', 'month'].includes(v),
    max: 32,
    dst: false,
    gen: gen(['day', 'week', 'month', 'Day', 'year', 'x'.repeat(33)], ['d', 'a', 'y'], 4),
  },
  interval: {
    need: '-',
    valid: (v) => /^\d+$/.test(v) && /[1-9]/.test(v),
    max: null,
    dst: false,
    gen: gen(['1', '0', '12', '1.5', '-1'], [...DIGITS, '.'], 5),
  },
  order_desc: { need: '-', valid: text, max: 65535, dst: true, gen: longText(65535) },
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  'customer-ip': { need: '-', valid: (v) => IPS[v], max: 45, dst: true, gen: fc.constantFrom(...Object.keys(IPS), '') },
  ssn: { need: '-', valid: text, max: 32, dst: false, gen: longText(32) },
  birthday: {
    need: '-',
    valid: isDate,
    max: null,
    dst: false,
    gen: gen(['29.02.2028', '29.02.2027', '31.04.2027', '01.01.2027', '1.1.2027', '01.01.20270'], [...DIGITS, '.'], 11),
  },
  phone: { need: '-', valid: text, max: 128, dst: false, gen: longText(128) },
  state: {
    need: '-',
    valid: (v) => /^[A-Za-z]{2,3}$/.test(v),
    max: 3,
    dst: false,
    gen: gen(['NY', 'NSW', 'N', 'N1', 'ABCD'], ['N', 'y', '1'], 5),
  },
  'start-date': { need: '-', valid: isDate, max: null, dst: true, gen: gen(['01.01.2027', '31.02.2027'], [...DIGITS, '.'], 11) },
  'finish-date': { need: '-', valid: isDate, max: null, dst: true, gen: gen(['01.01.2028', '2028-01-01'], [...DIGITS, '.'], 11) },
  'max-repeats-number': {
    need: '-',
    valid: (v) => /^\d+$/.test(v) && /[1-9]/.test(v),
    max: null,
    dst: true,
    gen: gen(['1', '0', '00', '007'], DIGITS, 4),
  },
  purpose: { need: '-', valid: text, max: 128, dst: false, gen: longText(128) },
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  notify_url: { need: '-', valid: (v) => URLS[v], max: 1024, dst: true, gen: fc.constantFrom(...Object.keys(URLS), '') },
  // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
  server_callback_url: { need: '-', valid: (v) => URLS[v], max: 128, dst: true, gen: fc.constantFrom(...Object.keys(URLS), '') },
};

function expectedCode(column: string, v: string, type: 'SRC' | 'DST'): string | null {
  const c = TABLE[column];
  if (v === '') return c.need === 'R' || (c.need === 'SRC' && type === 'SRC') ? 'required-value' : null;
  if (type === 'DST' && !c.dst) return 'dst-unsupported';
  if (c.max !== null) {
    const tooLong = column === 'amount-sequence' ? v.split(',').some((e) => chars(e) > c.max!) : chars(v) > c.max;
    if (tooLong) return 'max-length';
  }
  return c.valid(v) ? null : 'invalid-value';
}

const PER_CELL = modelled('cell');

const rowArb = fc.record({
  type: fc.constantFrom('SRC' as const, 'DST' as const),
  values: fc.record(Object.fromEntries(Object.entries(TABLE).map(([k, c]) => [k, c.gen])) as Record<string, fc.Arbitrary<string>>),
});

describe('per-cell rules against an independent model of the column table', () => {
  it('models every column of the table (a new column fails here until the model has it)', () => {
    const named = new Set(['rp_card_type', ...Object.keys(TABLE)]);
    assert.deepEqual(
      COLUMNS.map((c) => c.name).filter((n) => !named.has(n)),
      [],
    );
  });
  it('every cell of random SRC and DST rows gets exactly the predicted code', () => {
    const columns = Object.keys(TABLE);
    const header = ['rp_card_type', ...columns];
    const given = new Set<string>();
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 4 }), (rows) => {
        const lines = [header.join(';'), ...rows.map((r) => [r.type, ...columns.map((c) => quoteField(r.values[c]))].join(';'))];
        const text = `${lines.join('\r\n')}\r\n`;
        const expected: string[] = [];
        rows.forEach((r, i) => {
          for (const c of columns) {
            const code = expectedCode(c, r.values[c], r.type);
            if (code) expected.push(`${i + 1} ${c} ${code}`);
          }
        });
        const got = lint(text, { today: TODAY })
          .diagnostics.filter((d) => PER_CELL.has(d.code))
          .filter((d) => given.add(d.code))
          .map((d) => `${d.range.start.line} ${d.columnName} ${d.code}`);
        // A multi-line value would shift line numbers; the generators never produce line breaks.
        assert.deepEqual(got.sort(), expected.sort(), JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
    everyCodeSeen('cell', given);
  });
});

// Cross-field rules, modelled on the rule book's codes table plus the precedence the core documents:
// a cross-field check only reads cells that passed their own checks ("good"), and a DST row's DST-no
// cells are never good. Generators are narrowed so that the interesting cases come up often.
const CROSS_GEN: Record<string, fc.Arbitrary<string>> = {
  'client-orderid': fc.constantFrom('a', 'b', 'c', '', ' a', 'b\u200b', '\u00a0c\t'),
  'credit-card-number': fc.constantFrom('4111111111111111', '4111111111111112', '5555555555554444', '411111111111', ''),
  'expire-year': fc.constantFrom('2025', '2026', '2027', ''),
  'expire-month': fc.constantFrom('01', '10', '11', '12', '1', ''),
  amount: fc.constantFrom('', '', '10', '0'),
  'amount-from': fc.constantFrom('', '', '5', '10.5', '0'),
  'amount-to': fc.constantFrom('', '', '5.000', '10', '9.99', 'x'),
  'amount-sequence': fc.constantFrom('', '', '1,2', '1,,2'),
  country: fc.constantFrom('US', 'CA', 'AU', 'DE', 'us', ''),
  state: fc.constantFrom('', '', 'NY', 'N1'),
  period: fc.constantFrom('', 'day', 'month', 'year'),
  interval: fc.constantFrom('', '1', '0'),
  'start-date': fc.constantFrom('', '21.11.2026', '22.11.2026', '01.01.2027', '31.02.2027'),
  'finish-date': fc.constantFrom('', '21.11.2026', '31.12.2026', '01.01.2027', '2027-01-01'),
  notify_url: fc.constantFrom(
    '',
    'https://e.example/n',
    'ftp://x',
    'https://e.example:3000/n',
    'http://e.example:8080/n',
    'http://127.0.0.1:3000/n',
  ),
  server_callback_url: fc.constantFrom('', 'https://e.example/cb', 'e.example', 'http://e.example:443/cb', 'https://e.example:8443/cb'),
};

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};
const dateNum = (v: string) => {
  const [d, m, y] = v.split('.').map(Number);
  return y * 10000 + m * 100 + d;
};
// callback-port's model: the ports the gateway family's "Merchant Callbacks" documentation allows (http 80,
// 8080; https 443, 8443), each URL of the generators above judged by hand; loopback is exempt.
const GATEWAY_NEVER_CALLS: Record<string, boolean> = {
  'https://e.example/n': false,
  'https://e.example:3000/n': true,
  'http://e.example:8080/n': false,
  'http://127.0.0.1:3000/n': false,
  'https://e.example/cb': false,
  'http://e.example:443/cb': true,
  'https://e.example:8443/cb': false,
};
const TODAY_NUM = TODAY.year * 10000 + TODAY.month * 100 + TODAY.day;
const CROSS = modelled('cross');

describe('cross-field rules against a model', () => {
  it('random rows get exactly the predicted cross-field diagnostics', () => {
    const columns = Object.keys(CROSS_GEN);
    const header = ['rp_card_type', ...columns];
    const row = fc.record({ type: fc.constantFrom('SRC', 'DST', 'src'), values: fc.record(CROSS_GEN) });
    const given = new Set<string>();
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), (rows) => {
        const text = [header.join(';'), ...rows.map((r) => [r.type, ...columns.map((c) => r.values[c])].join(';'))].join('\n');
        const expected: string[] = [];
        const seen = new Set<string>();
        rows.forEach((r, i) => {
          const line = i + 1;
          const v = r.values;
          const type = r.type === 'SRC' || r.type === 'DST' ? r.type : undefined;
          const good = (c: string) => v[c] !== '' && expectedCode(c, v[c], type ?? 'SRC') === null && !(type === 'DST' && !TABLE[c].dst);
          const filled = (c: string) => v[c] !== '';
          const at = (code: string, c: string | null) => expected.push(`${line} ${c} ${code}`);
          const modes = Number(filled('amount')) + Number(filled('amount-from') || filled('amount-to')) + Number(filled('amount-sequence'));
          if (modes !== 1 || filled('amount-from') !== filled('amount-to')) at('amount-mode', null);
          else if (good('amount-from') && good('amount-to') && Number(v['amount-from']) > Number(v['amount-to']))
            at('amount-range', 'amount-from');
          if (type !== 'DST') {
            if (filled('period') && !filled('interval') && good('period')) at('period-interval', 'period');
            if (filled('interval') && !filled('period') && good('interval')) at('period-interval', 'interval');
          }
          if (good('notify_url') && good('server_callback_url')) at('callback-exclusive', 'server_callback_url');
          for (const c of ['notify_url', 'server_callback_url']) if (good(c) && GATEWAY_NEVER_CALLS[v[c]]) at('callback-port', c);
          if (type === 'SRC' && good('country') && ['US', 'CA', 'AU'].includes(v.country) && !filled('state'))
            at('state-required', 'state');
          if (good('start-date') && good('finish-date') && dateNum(v['finish-date']) < dateNum(v['start-date']))
            at('date-order', 'finish-date');
          if (good('credit-card-number') && !luhn(v['credit-card-number'])) at('card-luhn', 'credit-card-number');
          if (
            good('expire-month') &&
            good('expire-year') &&
            Number(v['expire-year']) * 100 + Number(v['expire-month']) < TODAY.year * 100 + TODAY.month
          )
            at('card-expired', 'expire-month');
          if (good('start-date') && dateNum(v['start-date']) < TODAY_NUM) at('start-date-past', 'start-date');
          if (good('client-orderid')) {
            // The gateway's reading, for this pool: spaces, tabs and no-break spaces around, zero-width spaces anywhere.
            const id = v['client-orderid'].replace(/\u200b/g, '').replace(/^[ \t\u00a0]+|[ \t\u00a0]+$/g, '');
            if (id !== v['client-orderid']) at('id-whitespace', 'client-orderid');
            if (seen.has(id)) at('duplicate-order-id', 'client-orderid');
            seen.add(id);
          }
        });
        const got = lint(text, { today: TODAY })
          .diagnostics.filter((d) => CROSS.has(d.code))
          .filter((d) => given.add(d.code))
          .map((d) => `${d.range.start.line} ${d.columnName} ${d.code}`);
        assert.deepEqual(got.sort(), expected.sort(), text);
      }),
      { numRuns: 1000 },
    );
    everyCodeSeen('cross', given);
  });
});

// Header rules: names, aliases, unknowns, duplicates and missing columns for random headers.
const COLUMN_NAMES = [
  'client-orderid',
  'rp_card_type',
  'credit-card-number',
  'cvv2',
  'card-printed-name',
  'expire-year',
  'expire-month',
  'amount',
  'amount-from',
  'amount-to',
  'amount-sequence',
  'currency',
  'country',
  'city',
  'zip-code',
  'address1',
  'first-name',
  'last-name',
  'email',
  'period',
  'interval',
  'order_desc',
  'customer-ip',
  'ssn',
  'birthday',
  'phone',
  'state',
  'start-date',
  'finish-date',
  'max-repeats-number',
  'purpose',
  'notify_url',
  'server_callback_url',
];
const KNOWN_ALIASES: Record<string, string> = {
  'payment-description': 'order_desc',
  'notify-url': 'notify_url',
  'server-callback-url': 'server_callback_url',
};
const loose = (s: string) => s.trim().toLowerCase().replace(/[-_ ]/g, '');
function resolve(raw: string): { kind: 'exact' | 'alias' | 'unknown'; column?: string } {
  if (COLUMN_NAMES.includes(raw)) return { kind: 'exact', column: raw };
  // Aliases are compared as loosely as column names (`Payment-Description` is payment-description).
  const aliasKey = Object.keys(KNOWN_ALIASES).find((a) => loose(a) === loose(raw));
  const alias = (aliasKey && KNOWN_ALIASES[aliasKey]) ?? COLUMN_NAMES.find((c) => loose(c) === loose(raw));
  return alias ? { kind: 'alias', column: alias } : { kind: 'unknown' };
}
const REQUIRED = ['client-orderid', 'rp_card_type', 'credit-card-number', 'currency'];
const SRC_REQUIRED = [
  'card-printed-name',
  'expire-year',
  'expire-month',
  'country',
  'city',
  'zip-code',
  'address1',
  'first-name',
  'last-name',
  'email',
];
const HEADER_POOL = [
  ...COLUMN_NAMES,
  ...COLUMN_NAMES.slice(0, 12),
  'payment-description',
  'notify-url',
  'server-callback-url',
  'Client_OrderId',
  ' currency ',
  'RP CARD TYPE',
  'Expire_Month',
  'AMOUNT',
  'amount_from',
  'foo',
  'cvv',
  '',
  'Payment-Description',
  'state',
];
const HEADER_CODES = modelled('header');

describe('header rules against a model', () => {
  it('random headers get exactly the predicted header diagnostics', () => {
    const scenario = fc.record({
      // A lone empty header cell is a blank first line: the next line becomes the header (tested in lint-file).
      // eslint-disable-next-line no-restricted-syntax -- bounded: a fixed list of test values
      header: fc.array(fc.constantFrom(...HEADER_POOL), { minLength: 1, maxLength: 14 }).filter((h) => !(h.length === 1 && h[0] === '')),
      rows: fc.array(fc.record({ type: fc.constantFrom('SRC', 'DST', 'src'), country: fc.constantFrom('US', 'AU', 'DE', '') }), {
        maxLength: 3,
      }),
    });
    const given = new Set<string>();
    fc.assert(
      fc.property(scenario, ({ header, rows }) => {
        const cells = header.map(resolve);
        const index = new Map<string, number>();
        const expected: string[] = [];
        let offset = 0;
        cells.forEach((c, i) => {
          const where = `0:${offset}-${offset + header[i].length}`;
          offset += header[i].length + 1;
          if (c.column && index.has(c.column)) expected.push(`${where} duplicate-column ${c.column}`);
          else if (c.kind === 'alias') expected.push(`${where} column-alias ${c.column}`);
          else if (c.kind === 'unknown') expected.push(`${where} unknown-column null`);
          if (c.column && !index.has(c.column)) index.set(c.column, i);
        });
        const lineRange = `0:0-${header.join(';').length}`;
        const missing = (name: string) => expected.push(`${lineRange} missing-column ${name}`);
        const typeAt = index.get('rp_card_type');
        const countryAt = index.get('country');
        const cellAt = (r: (typeof rows)[number], i: number) => {
          if (i === typeAt) return r.type;
          return i === countryAt ? r.country : 'x';
        };
        const lines = rows.map((r) => header.map((_, i) => cellAt(r, i)).join(';'));
        for (const n of REQUIRED) if (!index.has(n)) missing(n);
        const srcRows = typeAt === undefined ? [] : rows.filter((r) => r.type === 'SRC');
        if (srcRows.length > 0) {
          for (const n of SRC_REQUIRED) if (!index.has(n)) missing(n);
          if (!index.has('state') && countryAt !== undefined && srcRows.some((r) => ['US', 'CA', 'AU'].includes(r.country)))
            missing('state');
        }
        const has = (n: string) => index.has(n);
        if (!(has('amount') || (has('amount-from') && has('amount-to')) || has('amount-sequence'))) {
          if (has('amount-from')) missing('amount-to');
          else if (has('amount-to')) missing('amount-from');
          else missing('amount');
        }
        const text = [header.join(';'), ...lines].join('\r\n');
        const got = lint(text, { today: TODAY })
          .diagnostics.filter((d) => HEADER_CODES.has(d.code))
          .filter((d) => given.add(d.code))
          .map(
            (d) =>
              `${d.range.start.line}:${d.range.start.character}-${d.range.end.line === 0 ? '' : `${d.range.end.line}:`}${d.range.end.character} ${d.code} ${d.columnName}`,
          )
          .map((s) => s.replace(/^0:(\d+)-(\d+) missing/, '0:$1-$2 missing'));
        assert.deepEqual(got.sort(), expected.sort(), JSON.stringify(text));
      }),
      { numRuns: 1000, examples: [[{ header: ['', ''], rows: [] }]] },
    );
    everyCodeSeen('header', given);
  });
});
