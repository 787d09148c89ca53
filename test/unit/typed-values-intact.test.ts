import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runPaygate } from '../../src/cli/program';
import { testContext } from '../fixtures/cli/context';
import { plainBatch, plainRow, quoted } from '../fixtures/hostile/plainBatch';
import type { Reconciliation, ReportCharge } from '../../src/core/reconcile';
import { formatReconcileText, reconcileCsvPieces, reconcileJsonPieces, reportFileLabel } from '../../src/cli/format/reconcile';
import { throughOutputBoundary } from '../../src/cli/boundary';
import { reconciliationView } from '../../src/extension/reconcile/view';
import { laidRows, shownRow } from '../../src/shared/cardData';
import { ourWords, said, terminalSafe, typed } from '../../src/core/output';

// Mask values, not layouts (issue 38): a date and an amount side by side made 13 Luhn-valid digits
// (`28.12.2025 29.990` → `28.12.20** *9.990`), and a content hash with a long digit run lost its middle.
// Reconciliation's text, CSV and JSON, the editor's reconciliation view (through the page's own mask) and
// every line through the CLI's floor keep dates, amounts, transaction ids, hashes and UUIDs whole; so do
// `paygate schedule`, `paygate diff` and `paygate query` in each format, run as the process runs them
// (`paygate history`'s content hash: test/process/card-shapes-commands.test.ts).

/** What the CLI prints, through its floor (src/cli/boundary.ts), as a command writes it. */
function printed(text: string): string {
  let out = '';
  const { ctx, flush } = throughOutputBoundary({ stdout: (t: string) => void (out += t), stderr: () => undefined });
  ctx.stdout(text);
  flush();
  return out;
}

function reconciliation(charges: ReportCharge[]): Reconciliation {
  return {
    window: { from: '01.12.2025', to: '31.12.2025' },
    statusSource: { from: 'assumed-approved' },
    rows: [
      {
        file: '/tmp/batch.rpcsv',
        line: 2,
        clientOrderId: 'ORD-1',
        kind: 'charges',
        status: 'amount-mismatch',
        due: charges.length,
        charged: charges.length,
        declined: 0,
        expected: charges.map((c, i) => ({ index: i + 1, date: c.date, amount: c.amount })),
        charges,
        reason: said`report line ${typed.count(charges[0].line)} charged ${typed.amount(charges[0].amount)}, the schedule says ${typed.amount('1.00')}`,
      },
    ],
    unmatched: charges.map((c) => ({ ...c, line: c.line + 100 })),
    summary: {
      extra: 0,
      'amount-unreadable': 0,
      'amount-mismatch': 1,
      'currency-mismatch': 0,
      declined: 0,
      missing: 0,
      ok: 0,
      'not-due': 0,
      unmatched: charges.length,
    },
  };
}

/**
 * Every output of reconciliation a person reads: the CLI's three formats through the floor, the editor's
 * view through the page. `ids`: whether that output shows the report's transaction ids (the CSV does not).
 */
function outputs(r: Reconciliation): Array<{ out: string; ids: boolean }> {
  const view = reconciliationView(r, ourWords('report.csv'));
  const page = laidRows(view.rows); // as the page lays the view's cells out, where it shows them
  return [
    { out: printed(formatReconcileText(r, reportFileLabel('report.csv'))), ids: true },
    { out: printed([...reconcileCsvPieces(r)].join('')), ids: false },
    { out: printed([...reconcileJsonPieces(r)].join('')), ids: true },
    { out: page.rows.map((row) => shownRow(row, page.laid).join(' | ')).join('\n'), ids: false },
    { out: terminalSafe(page.rows.map((row) => row.join('  ')).join('\n')), ids: false },
  ];
}

test("reconcile's date and amount side by side are two values: the issue's line comes out whole", () => {
  const r = reconciliation([
    {
      line: 7,
      clientOrderId: 'ORD-1',
      transactionId: '3f6109184411111111111111119750cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      amount: '29.990',
      currency: 'EUR',
      date: '28.12.2025',
      approved: true,
    },
  ]);
  const all = outputs(r);
  assert.ok(
    all.some(({ out }) => out.includes('28.12.2025 29.990')),
    'side by side in at least one layout',
  );
  for (const { out, ids } of all) {
    assert.ok(out.includes('28.12.2025') && out.includes('29.990'), out);
    if (ids) assert.ok(out.includes('3f6109184411111111111111119750cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), out);
    assert.doesNotMatch(out, /\*/, out);
  }
});

test("reconcile's CSV lists a row's report lines as counts: four 4-digit lines are no card number", () => {
  // `1001 1002 1003 1004` in one cell, read whole as free text, was a card grouped in fours: `1001 10** **** 1004`.
  const charge = (line: number): ReportCharge => ({
    line,
    clientOrderId: 'ORD-1',
    transactionId: 'T',
    amount: '1.00',
    currency: 'EUR',
    date: '28.12.2025',
    approved: true,
  });
  const r = reconciliation([1001, 1002, 1003, 1004].map(charge));
  for (const floor of [true, false]) {
    const csv = [...reconcileCsvPieces(r)].join('');
    const out = floor ? printed(csv) : csv;
    assert.ok(out.includes(',1001 1002 1003 1004,'), out);
    assert.doesNotMatch(out, /\*/, out);
  }
});

const p2 = (n: number) => String(n).padStart(2, '0');
const date = fc
  .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2099 }))
  .map(([d, m, y]) => `${p2(d)}.${p2(m)}.${y}`);
const amount = fc
  .tuple(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 999 }))
  .map(([w, f]) => `${w}.${String(f).padStart(3, '0')}`);
const hexOf = (n: number) =>
  fc
    .array(
      fc.integer({ min: 0, max: 15 }).map((x) => x.toString(16)),
      { minLength: n, maxLength: n },
    )
    .map((a) => a.join(''))
    .filter((h) => /[a-f]/.test(h));
const transactionId = fc.oneof(
  hexOf(64),
  hexOf(24),
  fc.uuid().filter((u) => /[a-f]/.test(u)),
  fc.integer({ min: 1, max: 99_999 }).map(String),
);

test('property: dates, amounts, hashes and UUIDs laid out by reconcile (text, CSV, JSON, the editor) come out intact', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(date, amount, transactionId), { minLength: 1, maxLength: 3 }),
      fc.constantFrom('EUR', 'USD', 'JPY'),
      (values, currency) => {
        const charges = values.map(([d, a, id], i) => ({
          line: i + 2,
          clientOrderId: 'ORD-1',
          transactionId: id,
          amount: a,
          currency,
          date: d,
          approved: true,
        }));
        for (const { out, ids } of outputs(reconciliation(charges))) {
          for (const [d, a, id] of values) {
            for (const v of ids ? [d, a, id] : [d, a]) assert.ok(out.includes(v), `${v} not whole in:\n${out}`);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'paygate-typed-values-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `paygate ARGS` in process, through the floor, in `dir`; standard output and error together. */
async function paygateOut(args: string[]): Promise<string> {
  let out = '';
  const ctx = testContext({ cwd: dir, env: { HOME: dir, COLUMNS: '200' }, stdout: (t) => void (out += t), stderr: (t) => void (out += t) });
  await runPaygate(args, ctx);
  return out;
}

/** A row key (24 hex), a content hash (64 hex) or a UUID, each with a letter. */
const keyOfKnownForm = fc.oneof(
  hexOf(24),
  hexOf(64),
  fc.uuid().filter((u) => /[a-f]/.test(u)),
);
/** A charge's date after the schedule's today (01.01.2027), and an amount in EUR's cents (at most 10 characters). */
const laterDate = fc
  .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2027, max: 2099 }))
  .map(([d, m, y]) => `${p2(d)}.${p2(m)}.${y}`);
// At least 1.00: the other batch changes a row to 0.50.
const cents = fc.tuple(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: 0, max: 99 })).map(([w, f]) => `${w}.${p2(f)}`);

/** `values` whole in `out` (a key longer than a table cell's 40 characters as its first 39 in text), nothing masked. */
function intact(out: string, values: readonly string[], text: boolean): void {
  assert.doesNotMatch(out, /\*/, out);
  for (const v of values) assert.ok(out.includes(text && v.length > 40 ? v.slice(0, 39) : v), `${v} not whole in:\n${out}`);
}

test('property: dates, amounts, hashes, row keys and UUIDs side by side come out intact in schedule, diff, query and reconcile', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(keyOfKnownForm, { minLength: 3, maxLength: 3 }),
      laterDate,
      cents,
      async ([k1, k2, k3], date, amount) => {
        writeFileSync(join(dir, 'a.rpcsv'), plainBatch([plainRow(k1, date, amount), plainRow(k2, date, amount)]));
        writeFileSync(join(dir, 'b.rpcsv'), plainBatch([plainRow(k1, date, '0.50'), plainRow(k3, date, amount)]));
        for (const f of ['text', 'json'])
          intact(await paygateOut(['schedule', 'a.rpcsv', '--today', '01.01.2027', '--format', f]), [k1, k2, date, amount], false);
        for (const f of ['text', 'json'])
          intact(await paygateOut(['diff', 'a.rpcsv', '--against', 'b.rpcsv', '--format', f]), [k1, k2, k3], false);
        const iso = date.split('.').reverse().join('-');
        const report = [
          ['Transaction_id', 'Created_date', 'Amount', 'Currency'],
          [k1, `${iso} 09:00:00`, amount, 'EUR'],
          [k2, `${iso} 10:00:00`, amount, 'EUR'],
        ];
        writeFileSync(join(dir, 'r.csv'), report.map((r) => r.map(quoted).join(',')).join('\r\n') + '\r\n');
        for (const f of ['text', 'json', 'csv']) {
          const out = await paygateOut(['query', 'r.csv', '--group-by', 'Transaction_id,Created_date', '--sum', 'Amount', '--format', f]);
          intact(out, [k1, k2, `${iso} 09:00:00`, amount], f === 'text');
        }
        // Reconcile, run as the process runs it: k1 charged 0.50 on its day (transaction k3), and a report row of no batch row.
        const charged = [
          ['Merchant_OID', 'Transaction_id', 'Created_date', 'Amount', 'Currency'],
          [k1, k3, date, '0.50', 'EUR'],
          ['X-1', k2, date, amount, 'EUR'],
        ];
        writeFileSync(join(dir, 'c.csv'), charged.map((r) => r.map(quoted).join(',')).join('\r\n') + '\r\n');
        for (const f of ['text', 'json', 'csv']) {
          const out = await paygateOut(['reconcile', 'a.rpcsv', '--report', 'c.csv', '--as-of', date, '--format', f]);
          intact(out, f === 'csv' ? [date, amount, k1] : [date, amount, k1, k3], false);
        }
      },
    ),
    { numRuns: 40 },
  );
});
