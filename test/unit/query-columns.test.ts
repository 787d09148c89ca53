import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addAmounts, parseAmount, type Amount } from '../../src/core/amounts';
import { formatIsoDate, fromDayNumber } from '../../src/core/dates';
import { moment, readDate } from '../../src/core/query/cells';
import type { Cells } from '../../src/core/query/filter';
import { moneyKind } from '../../src/core/query/kinds';
import { planQuery, type QuerySpec } from '../../src/core/query/plan';
import { QueryRun } from '../../src/core/query/run';

// Issue 40 (the 5M-row page's Group by): QueryRun finds a piece's group ids a column at a time, in typed
// arrays (interner.ts), instead of row by row. Whatever the values (short codes, long and non-Latin-1
// text, quoted cells, dates and non-dates in a date column, amounts that cannot be read) and however the
// rows are cut into pieces, its groups, their ids (order of first appearance), counts, exact sums,
// skipped amounts and each row's group are those of a plain grouping written here row by row with strings.

const COLUMNS = ['Merchant', 'Transaction_type', 'Amount', 'Currency', 'Created_date'];

// eslint-disable-next-line no-restricted-syntax -- bounded: a handful of sample values
const cell = (values: string[]) => fc.constantFrom(...values);
const row = fc.tuple(
  cell(['Acme', 'Demo Shop', 'Café € Ltd', 'He said "stop"', '', 'Zeta Ltd', 'Shop, Inc.']),
  cell(['sale', 'refund', 'chargeback', 'SALE_APPROVED', 'payout', 'void', '']),
  fc.oneof(
    fc.integer({ min: -99999, max: 99999 }).map((n) => (n / 100).toFixed(2)),
    fc.integer({ min: 0, max: 9999 }).map((n) => `${n}.5`),
    cell(['', 'n/a', '12', '1e3', '0.001', '123456789012345678.25']),
  ),
  // ERN and UAH: of EUR's and USD's length and first character (interner.ts's memo must tell them apart).
  cell(['EUR', 'USD', 'eur', 'GBP', '', 'ÉUR', 'LONGCURRENCY', 'ERN', 'UAH']),
  fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 23 }))
      .map(([m, d, h]) => `2025-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')} ${String(h).padStart(2, '0')}:05:09`),
    cell(['2025-02-30 10:00:00', '2025-03-01', '01.03.2025', 'not a date', '', '2025-03-01 25:00:00', '1850-01-01', '2300-06-01']),
  ),
);

/** Rows as the report reader leaves them: one text, each cell's offsets, a quoted cell's quotes doubled. */
function piece(rows: string[][]): Cells {
  const n = rows.length * COLUMNS.length;
  const start = new Uint32Array(n);
  const end = new Uint32Array(n);
  const escaped = new Uint8Array(n);
  let text = '';
  rows.flat().forEach((v, k) => {
    const raw = v.replace(/"/g, '""');
    text += ',';
    start[k] = text.length;
    text += raw;
    end[k] = text.length;
    escaped[k] = raw === v ? 0 : 1;
  });
  return { text, start, end, escaped };
}

/** The same grouping, row by row, with strings. */
function plainGrouping(rows: string[][], spec: QuerySpec) {
  const plan = planQuery(COLUMNS, spec);
  assert.ok(plan.ok);
  const { groups, amounts, test } = plan.plan;
  const all = piece(rows);
  const found = new Map<string, { id: number; key: string[]; count: number; sum: Amount | undefined; skipped: number }>();
  const groupOf: number[] = [];
  const skippedRows: number[] = [];
  rows.forEach((r, i) => {
    if (test !== undefined && !test(all, i * COLUMNS.length)) return groupOf.push(-1);
    const key = groups.map((g) => {
      const v = r[g.index];
      if (g.kind) return moneyKind(v);
      if (g.period === 'day' && readDate(v, 0, v.length)) return formatIsoDate(fromDayNumber(moment.day));
      return v;
    });
    const name = JSON.stringify(key);
    let group = found.get(name);
    if (!group) found.set(name, (group = { id: found.size, key, count: 0, sum: undefined, skipped: 0 }));
    group.count++;
    groupOf.push(group.id);
    for (const a of amounts) {
      const amount = parseAmount(r[a.index]);
      if (amount) group.sum = group.sum === undefined ? amount : addAmounts(group.sum, amount);
      else {
        group.skipped++;
        skippedRows.push(i);
      }
    }
  });
  return { groups: [...found.values()].map((g) => ({ ...g, sum: value(g.sum) })), groupOf, skippedRows };
}

/**
 * A sum as a value, its trailing zeros dropped: QueryRun's running sum does not widen its scale for an
 * amount of zero ("0.5" + "0.00" is 0.5 at scale 1) where addAmounts does (0.50); both are the same money.
 */
function value(a: Amount | undefined): Amount | undefined {
  if (a === undefined) return undefined;
  let { units, scale } = a;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { ...a, units, scale };
}

/** QueryRun over the rows cut into pieces at `cuts`. */
function runGrouping(rows: string[][], spec: QuerySpec, cuts: number[]) {
  const plan = planQuery(COLUMNS, spec);
  assert.ok(plan.ok);
  const run = new QueryRun(plan.plan);
  const groupOf = new Int32Array(rows.length);
  const bounds = [...new Set([0, ...cuts.map((c) => c % (rows.length + 1)), rows.length])].sort((a, b) => a - b);
  for (let b = 1; b < bounds.length; b++) {
    const part = rows.slice(bounds[b - 1], bounds[b]);
    run.addRows(piece(part), part.length, COLUMNS.length, bounds[b - 1], undefined, groupOf);
  }
  const groups = run.groupStates().map((g) => ({
    id: g.id,
    key: g.key,
    count: g.count,
    sum: value(g.amounts[0]?.sum()),
    skipped: g.amounts[0]?.skipped ?? 0,
  }));
  return { groups, groupOf: [...groupOf], skippedRows: run.skipped.map((s) => s.row) };
}

const SPECS: QuerySpec[] = [
  { groupBy: ['Currency'], by: 'day', sum: ['Amount'] },
  { groupBy: ['Merchant', 'Transaction_type'], sum: ['Amount'], where: 'Amount >= 0' },
  { groupBy: ['Created_date'], by: 'day', count: true },
  { groupBy: [], sum: ['Amount'], currency: null },
  { groupBy: ['Currency', 'Merchant'], count: true, where: 'Currency != "USD"' },
];

describe('QueryRun groups a piece a column at a time', () => {
  for (const spec of SPECS) {
    it(`as a plain row-by-row grouping: ${JSON.stringify(spec)}`, () => {
      fc.assert(
        fc.property(fc.array(row, { maxLength: 120 }), fc.array(fc.nat(), { maxLength: 5 }), (rows, cuts) => {
          const plain = rows.map((r) => [...r]);
          const expected = plainGrouping(plain, spec);
          assert.deepEqual(runGrouping(plain, spec, cuts), expected);
        }),
        { numRuns: 150 },
      );
    });
  }
});
