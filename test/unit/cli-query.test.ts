import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runQueryCommand } from '../fixtures/cli/commands';
import { newReportTemplate } from '../../src/core/gateway';
import type { QueryJson } from '../../src/core/query/result';
import { captured } from '../fixtures/cli/context';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';

// The columns the local gateway's report has, in its order.
const COLUMNS = [...REPORT_COLUMNS];

const csvLine = (values: readonly string[]) => `${values.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')}\r\n`;

async function query(files: Record<string, string>, args: string[], stdin?: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'paygate-query-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    const { ctx, out, err } = captured({ cwd, columns: 100, ...(stdin !== undefined ? { stdin: async () => Buffer.from(stdin) } : {}) });
    const code = await runQueryCommand(args, ctx);
    return { code, out: out(), err: err() };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

// ---- an independent computation: the amount rule as the docs state it, sums in BigInt, half-even ----

const AMOUNT = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/;

function exact(text: string): { units: bigint; scale: number } | undefined {
  const m = AMOUNT.exec(text);
  if (!m) return undefined;
  const units = BigInt(m[2] + (m[3] ?? ''));
  return { units: m[1] === '-' ? -units : units, scale: (m[3] ?? '').length };
}

function shown(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`}`;
}

function halfEven(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  let q = n / denominator;
  const r = n % denominator;
  if (2n * r > denominator || (2n * r === denominator && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

interface Expected {
  groups: Map<string, { count: number; units: bigint; read: number; min?: bigint; max?: bigint; skipped: number }>;
  skipped: number[];
  scale: number;
}

function expected(rows: string[][], keyOf: (row: string[]) => string): Expected {
  const scale = rows.reduce((s, r) => Math.max(s, exact(r[4])?.scale ?? 0), 0);
  const groups: Expected['groups'] = new Map();
  const skipped: number[] = [];
  rows.forEach((r, i) => {
    const key = keyOf(r);
    const g = groups.get(key) ?? { count: 0, units: 0n, read: 0, skipped: 0 };
    groups.set(key, g);
    g.count++;
    const a = exact(r[4]);
    if (!a) {
      g.skipped++;
      skipped.push(i + 2); // the header is line 1, and no value here holds a line break
      return;
    }
    const units = a.units * 10n ** BigInt(scale - a.scale);
    g.units += units;
    g.read++;
    g.min = g.min === undefined || units < g.min ? units : g.min;
    g.max = g.max === undefined || units > g.max ? units : g.max;
  });
  return { groups, skipped, scale };
}

// Amounts below 10^12 in all (a whole part of 13 digits or more passing Luhn is masked as a card number
// might be, output-boundary.test.ts); one of 18 digits takes the exact BigInt way.
const amountArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 10n }), fc.constantFrom(2, 3))
      .map(([neg, n, scale]) => shown(neg ? -n : n, scale)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'abc', '1,50', '12.', '.5', '1e3', '12.5 EUR', '  ', '900719925474.099312', ' 7.10 ') },
);
const rowArb = fc.tuple(
  amountArb,
  fc.constantFrom('EUR', 'USD', 'JPY', 'BHD'),
  fc.constantFrom('sale', 'refund', 'declined', 'Payout approved', 'Chargeback'),
  fc.integer({ min: 1, max: 28 }),
);

// Each drawn type's kind of money, written out here rather than taken from the core's classification.
const KIND_OF: Record<string, string> = {
  sale: 'charges',
  refund: 'refunds',
  declined: 'other',
  'Payout approved': 'payouts',
  Chargeback: 'chargebacks',
};

describe('paygate query: exact totals against an independent computation', () => {
  it('sum, count, min, max and avg per Currency and Transaction_type on random reports; unreadable amounts named and skipped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 0, maxLength: 60 }), async (drawn) => {
        const rows = drawn.map(([amount, currency, type, day], i) => [
          'Demo Shop',
          String(i + 1),
          `ORD-${i}`,
          `2026-01-${String(day).padStart(2, '0')} 10:00:00`,
          amount,
          currency,
          type,
          'order',
          '31.01.2026',
        ]);
        const text = csvLine(COLUMNS) + rows.map(csvLine).join('');
        const r = await query({ 'r.csv': text }, [
          'r.csv',
          '--group-by',
          'Transaction_type',
          '--sum',
          'Amount',
          '--min',
          'Amount',
          '--max',
          'Amount',
          '--avg',
          'Amount',
          '--count',
          '--format',
          'json',
        ]);
        assert.equal(r.code, 0, r.err);
        const json = JSON.parse(r.out) as QueryJson;
        const want = expected(rows, (row) => `${row[6]}|${row[5]}`);
        assert.equal(json.groups.length, want.groups.size);
        for (const g of json.groups) {
          const w = want.groups.get(`${g.key.Transaction_type}|${g.key.Currency}`)!;
          assert.ok(w, JSON.stringify(g.key));
          assert.equal(g.count, w.count);
          if (w.read === 0) {
            // Never summed as zero: a group with no readable amount has none.
            assert.deepEqual([g.sum!.Amount, g.min!.Amount, g.max!.Amount, g.avg!.Amount], [null, null, null, null]);
          } else {
            assert.equal(g.sum!.Amount, shown(w.units, want.scale));
            assert.equal(g.min!.Amount, shown(w.min!, want.scale));
            assert.equal(g.max!.Amount, shown(w.max!, want.scale));
            assert.equal(g.avg!.Amount, shown(halfEven(w.units, BigInt(w.read)), want.scale));
          }
          assert.equal(g.skipped?.Amount ?? 0, w.skipped);
        }
        // Totals per currency and kind of money, never across currencies nor charges with payouts or refunds.
        const byTotal = new Map<string, bigint>();
        for (const [key, w] of want.groups) {
          const [type, currency] = key.split('|');
          const at = `${currency}|${KIND_OF[type]}`;
          if (w.read > 0) byTotal.set(at, (byTotal.get(at) ?? 0n) + w.units);
        }
        const totals = json.total.sum!.Amount as Record<string, Record<string, string | null>>;
        for (const [at, units] of byTotal) {
          const [currency, kind] = at.split('|');
          assert.equal(totals[currency][kind], shown(units, want.scale), at);
        }
        assert.deepEqual(json.rows, { read: rows.length, matched: rows.length });
        assert.equal(json.skipped.count, want.skipped.length);
        assert.deepEqual(
          json.skipped.rows.map((s) => s.line),
          want.skipped,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('the text names each skipped row by line and never shows it as zero', async () => {
    const text =
      csvLine(COLUMNS) +
      [
        ['Shop', '1', 'A', '2026-01-05 10:00:00', '10.50', 'EUR', 'sale', 'x', '05.01.2026'],
        ['Shop', '2', 'B', '2026-01-05 11:00:00', '', 'EUR', 'sale', 'two\nlines', '05.01.2026'],
        ['Shop', '3', 'C', '2026-01-06 11:00:00', '1,5', 'EUR', 'sale', 'x', '06.01.2026'],
      ]
        .map(csvLine)
        .join('');
    const r = await query({ 'r.csv': text }, ['r.csv', '--sum', 'Amount']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^r\.csv: 3 rows read, 3 matched$/m);
    assert.match(
      r.out,
      /^grouped by Currency, Transaction_type as charges, payouts, refunds… \(amounts are never added across currencies, nor charges with payouts or refunds\)$/m,
    );
    assert.match(r.out, /^EUR +charges +█+ +10\.50$/m);
    assert.match(r.out, /^total EUR charges: 3 rows, sum Amount 10\.50, 2 Amount amounts skipped$/m);
    assert.match(r.out, /^ {2}line 3: Amount is empty$/m);
    assert.match(r.out, /^ {2}line 5: Amount "1,5" is not an amount$/m, 'the quoted line break moves the next row a line down');
  });
});

const SMALL =
  csvLine(COLUMNS) +
  [
    ['Shop', '1', 'A', '2026-01-05 10:00:00', '10.500', 'EUR', 'sale', '=HYPERLINK("http://x")', '05.01.2026'],
    ['Shop', '2', 'B', '2026-01-12 11:00:00', '2.250', 'EUR', 'declined', 'ok', '12.01.2026'],
    ['Acme', '3', 'C', '2026-02-02 11:00:00', '7.000', 'USD', 'declined', 'ok', '02.02.2026'],
  ]
    .map(csvLine)
    .join('');

describe('paygate query: options and formats', () => {
  it('--where keeps the rows it matches; --by groups the report date column by week', async () => {
    const r = await query({ 'r.csv': SMALL }, [
      'r.csv',
      '--where',
      'Transaction_type = "declined"',
      '--by',
      'week',
      '--sum',
      'Amount',
      '--format',
      'json',
    ]);
    const json = JSON.parse(r.out) as QueryJson;
    assert.deepEqual(
      json.groups.map((g) => [g.key, g.sum]),
      [
        [{ Created_date: '2026-W03', Currency: 'EUR', Transaction_type: 'other' }, { Amount: '2.250' }],
        [{ Created_date: '2026-W06', Currency: 'USD', Transaction_type: 'other' }, { Amount: '7.000' }],
      ],
    );
    assert.deepEqual(json.rows, { read: 3, matched: 2 });
    // "declined" names no kind of money (a status, not a sale or a payout): kept apart as other, never guessed a charge.
    assert.deepEqual(json.total, { count: 2, sum: { Amount: { EUR: { other: '2.250' }, USD: { other: '7.000' } } } });
  });

  it('--group-by a date column with --by month, a count alone, and standard input', async () => {
    const r = await query({}, ['-', '--group-by', 'Date_of_report', '--by', 'month', '--format', 'json'], SMALL);
    const json = JSON.parse(r.out) as QueryJson;
    assert.deepEqual(
      json.groups.map((g) => [g.key, g.count]),
      [
        [{ Date_of_report: '2026-01' }, 2],
        [{ Date_of_report: '2026-02' }, 1],
      ],
    );
    assert.deepEqual(json.total, { count: 3 });
  });

  it('a bad expression exits 2 and shows where', async () => {
    const r = await query({ 'r.csv': SMALL }, ['r.csv', '--where', 'Amount >= and Currency = "EUR"']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(
      r.err,
      "paygate query: r.csv: --where: column 11: expected a value after '>=', found the keyword 'and' (a column of that name goes in backticks)\n" +
        '  Amount >= and Currency = "EUR"\n' +
        '            ^^^\n',
    );
  });

  it('an unknown column in --sum, and a report without a currency column, exit 2', async () => {
    const bad = await query({ 'r.csv': SMALL }, ['r.csv', '--sum', 'Amonut']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--sum: no column 'Amonut' in the report; did you mean Amount\?/);
    const noCurrency = 'Id,Amount\r\n1,5.00\r\n2,6.00\r\n';
    const refused = await query({ 'r.csv': noCurrency }, ['r.csv', '--sum', 'Amount']);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--currency: the report has no Currency column.*\(--currency COL, or --currency none\)/);
    const one = await query({ 'r.csv': noCurrency }, ['r.csv', '--sum', 'Amount', '--currency', 'none', '--format', 'json']);
    assert.deepEqual((JSON.parse(one.out) as QueryJson).total, { count: 2, sum: { Amount: '11.00' } });
  });

  it('a CVV column makes no groups: its values would be printed as keys', async () => {
    const withCvv = 'Id,cvv2,Amount,Currency\r\n1,739,5.00,EUR\r\n2,412,6.00,EUR\r\n';
    for (const format of ['text', 'json', 'csv']) {
      const refused = await query({ 'r.csv': withCvv }, ['r.csv', '--group-by', 'cvv2', '--format', format]);
      assert.equal(refused.code, 2, format);
      assert.match(refused.err, /--group-by: "cvv2" holds card verification values/);
      assert.doesNotMatch(refused.out + refused.err, /739|412/);
    }
  });

  it('csv neutralises formulas in cells, --raw writes them as they came', async () => {
    const r = await query({ 'r.csv': SMALL }, ['r.csv', '--group-by', 'Order_description', '--format', 'csv']);
    assert.equal(r.out, 'kind,Order_description,count\r\ngroup,"\'=HYPERLINK(""http://x"")",1\r\ngroup,ok,2\r\ntotal,,3\r\n');
    const raw = await query({ 'r.csv': SMALL }, ['r.csv', '--group-by', 'Order_description', '--format', 'csv', '--raw']);
    assert.match(raw.out, /^group,"=HYPERLINK/m);
  });

  it('groups sort by their key: numbers as numbers (of any length), then text', async () => {
    const text =
      csvLine(['Code', 'Amount', 'Currency']) +
      ['10', 'abc', '9', '100000000000000000000', '-1.5', '99999999999999999999.5', ''].map((c) => csvLine([c, '1.00', 'EUR'])).join('');
    const r = await query({ 'r.csv': text }, ['r.csv', '--group-by', 'Code', '--format', 'json']);
    const json = JSON.parse(r.out) as QueryJson;
    assert.deepEqual(
      json.groups.map((g) => g.key.Code),
      ['-1.5', '9', '10', '99999999999999999999.5', '100000000000000000000', '', 'abc'],
    );
  });

  it('card numbers in a group key are masked in every format', async () => {
    const text = csvLine(['Card', 'Amount', 'Currency']) + csvLine(['4111111111111111', '1.00', 'EUR']);
    for (const format of ['text', 'json', 'csv']) {
      const r = await query({ 'r.csv': text }, ['r.csv', '--group-by', 'Card', '--format', format]);
      assert.ok(!r.out.includes('4111111111111111'), format);
      assert.ok(r.out.includes('411111******1111'), format);
    }
  });
});

describe('paygate query --view', () => {
  // The template the New Report Template command writes, with an identifier and these views.
  const template = (views: unknown[]) =>
    JSON.stringify({ ...newReportTemplate(), reportIdentifier: 'transactions', reportName: 'T', views });
  const declined = { name: 'declined by currency', where: 'Transaction_type = "declined"', sum: ['Amount'] };

  it('finds the view in a template beside the report; options given on the command line replace its own', async () => {
    const r = await query({ 'r.csv': SMALL, 'transactions.report.json': template([declined]) }, [
      'r.csv',
      '--view',
      'declined by currency',
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual((JSON.parse(r.out) as QueryJson).total, {
      count: 2,
      sum: { Amount: { EUR: { other: '2.250' }, USD: { other: '7.000' } } },
    });
    const over = await query({ 'r.csv': SMALL, 'transactions.report.json': template([declined]) }, [
      'r.csv',
      '--view',
      'declined by currency',
      '--where',
      '',
      '--format',
      'json',
    ]);
    assert.deepEqual((JSON.parse(over.out) as QueryJson).rows, { read: 3, matched: 3 });
  });

  it('--template names the template; an unknown or ambiguous view exits 2 naming what there is', async () => {
    const files = {
      'r.csv': SMALL,
      'a.report.json': template([declined]),
      'b.report.json': template([declined, { name: 'all', count: true }]),
    };
    const ambiguous = await query(files, ['r.csv', '--view', 'declined by currency']);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.err, /view "declined by currency" is in a\.report\.json and b\.report\.json: name one with --template FILE/);
    const chosen = await query(files, ['r.csv', '--view', 'declined by currency', '--template', 'b.report.json', '--format', 'json']);
    assert.equal(chosen.code, 0, chosen.err);
    const unknown = await query(files, ['r.csv', '--view', 'nope']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.err,
      /no view "nope" in the templates in \. \(found: .*"all" in b\.report\.json\); name the template with --template FILE/,
    );
  });

  it('a view with a bad expression exits 2 naming the view', async () => {
    const r = await query({ 'r.csv': SMALL, 't.report.json': template([{ name: 'v', where: 'Amount >' }]) }, ['r.csv', '--view', 'v']);
    assert.equal(r.code, 2);
    assert.match(r.err, /view "v": where: column 9: expected a value after '>'/);
  });
});
