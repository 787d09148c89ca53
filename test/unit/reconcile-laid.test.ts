import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reconciliation, ReportCharge } from '../../src/core/reconcile';
import { rowStatus } from '../../src/core/reconcile/status';
import { reconciliationView } from '../../src/extension/reconcile/view';
import { laidRows, shownRow } from '../../src/shared/cardData';
import { isHostToPage, isPersistedState, PROTOCOL_VERSION } from '../../src/shared/resultsProtocol';
import { isSaid, ourWords, said, typed, type Said } from '../../src/core/output';
import { formatReconcileText, reconcileCsvPieces, reconcileJsonPieces, reportFileLabel } from '../../src/cli/format/reconcile';

// The editor's reconciliation view (issue 38): a cell of several values (the expected charges, the report
// lines) crosses to the page as a `Said`, its values with their types, and the page lays it out where it shows
// it (src/shared/cardData.ts laidRows), each value checked alone, never the composed cell; a cell of one value
// is masked by the host and read whole by the page as before. A report's date, amount or currency that is no
// such value (a card number in the column) is scanned alone and masked.

const HASH = '3f6109184411111111111111119750cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

function reconciliation(charges: ReportCharge[]): Reconciliation {
  const none = { extra: 0, 'amount-unreadable': 0, 'currency-mismatch': 0, declined: 0, missing: 0, ok: 0, 'not-due': 0 };
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
        reason: said`the schedule says ${typed.amount('1.00')}`,
      },
    ],
    unmatched: charges.map((c) => ({ ...c, line: c.line + 100 })),
    summary: { ...none, 'amount-mismatch': 1, unmatched: charges.length },
  };
}

const charge = (line: number, date: string, amount: string, currency = 'EUR'): ReportCharge => ({
  line,
  clientOrderId: 'ORD-1',
  transactionId: HASH,
  amount,
  currency,
  date,
  approved: line % 2 === 0,
});

/** The view as the page shows it: sent as JSON (postMessage), laid out by the page, each row as shownRow gives it. */
function onThePage(r: Reconciliation): string[][] {
  const view = JSON.parse(JSON.stringify(reconciliationView(r, ourWords('Reconciliation: report.csv')))) as unknown;
  assert.ok(isHostToPage({ type: 'reconciliation', view }), 'the guard takes the view with its Said cells');
  const { rows, laid } = laidRows((view as { rows: string[][] }).rows);
  return rows.map((row) => shownRow(row, laid));
}

test('the expected charges and the report lines cross as typed values and are laid out by the page, whole', () => {
  const r = reconciliation([charge(7, '28.12.2025', '29.990'), charge(8, '2025-12-28 10:31:02', '1,234.50'), charge(9, '28.12.2025', '0')]);
  const view = reconciliationView(r, ourWords('Reconciliation: report.csv'));
  const kinds = view.rows[0].map((c) => (isSaid(c) ? 'said' : 'text'));
  assert.deepEqual(kinds.slice(-3), ['said', 'said', 'said'], 'the reason and the two cells of several values');
  assert.equal(kinds.filter((k) => k === 'said').length, 3);
  const [row, ...unmatched] = onThePage(r);
  assert.equal(row.at(-2), '28.12.2025 29.990, 2025-12-28 10:31:02 1,234.50, 28.12.2025 0');
  assert.equal(
    row.at(-1),
    '7: 28.12.2025 29.990 EUR (not approved); 8: 2025-12-28 10:31:02 1,234.50 EUR; 9: 28.12.2025 0 EUR (not approved)',
  );
  assert.deepEqual(
    unmatched.map((u) => u.at(-1)),
    ['107: 28.12.2025 29.990 EUR', '108: 2025-12-28 10:31:02 1,234.50 EUR', '109: 28.12.2025 0 EUR'],
  );
  assert.ok(unmatched.every((u) => u.at(-2) === ''));
});

test('a report column holding a card number where a date, an amount or a currency stands is masked on the page', () => {
  const cards = ['4111\u200b1111\u200b1111\u200b1111', '４１１１１１１１１１１１１１１１', '4111–1111–1111–1111', '5105105105105100'];
  const r = reconciliation([charge(7, cards[0], cards[1], cards[2]), charge(8, cards[3], '1.00', cards[3])]);
  const page = onThePage(r).flat().join('\n');
  const digits = (s: string) => s.replace(/[^\d０-９]/g, '');
  for (const card of cards) assert.ok(!digits(page).includes(digits(card)), `${card} masked in ${page}`);
  assert.match(page, /\*/);
});

test('a Said cell from a saved page state or a forged message is checked too; a cell that is neither is refused', () => {
  const forged: unknown = { said: ['paid with 4111 1111 1111 1111 on ', ['date', '4111111111111111'], ['nonsense', '5105105105105100']] };
  const view = {
    ...reconciliationView(reconciliation([charge(7, '28.12.2025', '1.00')]), ourWords('t')),
    rows: [['missing', 'k', forged]],
  };
  assert.ok(isPersistedState({ v: PROTOCOL_VERSION, title: 't', source: { kind: 'inline' }, reconciliation: view }));
  const { rows, laid } = laidRows(view.rows as Array<Array<string | Said>>);
  const shown = shownRow(rows[0], laid)[2];
  assert.ok(!shown.includes('4111 1111 1111 1111') && !shown.includes('4111111111111111') && !shown.includes('5105105105105100'), shown);
  for (const bad of [3, { said: [3] }, { said: [['date']] }, { said: 'x' }])
    assert.ok(!isHostToPage({ type: 'reconciliation', view: { ...view, rows: [['missing', bad]] } }), JSON.stringify(bad));
});

test("the reason column: the core's reason is a Said, laid out by the page, its amounts whole and the report's words masked", () => {
  const due = (amount: string) =>
    ({ index: 1, date: { year: 2025, month: 12, day: 28 }, amount: { kind: 'fixed', value: amount } }) as never;
  // A 12-digit amount, as the reason was composed before (each value through maskText, the line read whole by the page): damaged.
  const mismatch = rowStatus([due('29.99')], [charge(3, '28.12.2025', '123456789012.50')], 'EUR');
  const card = '4111 1111 1111 1111';
  const currency = rowStatus([due('29.99')], [charge(4, '28.12.2025', '29.99', `EUR ${card}`)], 'EUR');
  const r = reconciliation([charge(3, '28.12.2025', '123456789012.50')]);
  r.rows = [mismatch, currency].map((s) => ({ ...r.rows[0], ...s }));
  const kinds = reconciliationView(r, ourWords('t')).rows.map((row) => isSaid(row[7]));
  assert.deepEqual(kinds, [true, true, true], 'every reason crosses as a Said (the unmatched row too)');
  const reasons = onThePage(r).map((row) => row[7]);
  assert.equal(reasons[0], 'report line 3 charged 123456789012.50, the schedule says 29.99');
  assert.equal(reasons[1], 'report line 4 is in EUR 4111 11** **** 1111, the batch row in EUR');
  assert.equal(reasons[2], 'in no batch row reconciled');
});

test("the CLI's reconcile lays the reason out value by value too: a 12-digit amount stays whole in text, JSON and CSV", () => {
  const due = (amount: string) =>
    ({ index: 1, date: { year: 2025, month: 12, day: 28 }, amount: { kind: 'fixed', value: amount } }) as never;
  const r = reconciliation([charge(3, '28.12.2025', '123456789012.50')]);
  r.rows = [{ ...r.rows[0], ...rowStatus([due('29.99')], [charge(3, '28.12.2025', '123456789012.50')], 'EUR') }];
  const reason = 'report line 3 charged 123456789012.50, the schedule says 29.99';
  // Before, each face read the composed reason again as free text (maskText), which cut the amount.
  assert.ok(formatReconcileText(r, reportFileLabel('report.csv')).includes(reason), 'text');
  assert.ok([...reconcileJsonPieces(r)].join('').includes(JSON.stringify(reason)), 'JSON');
  assert.ok([...reconcileCsvPieces(r)].join('').includes(reason), 'CSV');
});
