import { joinSaid, maskText, ourWords, said, typed, type Said } from '../../core/output';
import { RECONCILE_STATUSES, type Reconciliation, type ReportCharge, type StatusSource } from '../../core/reconcile';
import { RECONCILE_KEY_COLUMN, RECONCILE_STATUS_COLUMN, type ReconcileCell, type ReconciliationView } from '../../shared/resultsProtocol';

// A reconciliation as the results table shows it: the status first (pinned and coloured by the page), the
// batch line (the key the page sends back to reveal it), then the row's numbers, its expected charges and
// its report lines; the unmatched report rows last. A cell of one value is masked here; a cell of several
// (the expected charges, the report lines) is a `Said`: its dates, amounts and line numbers carried with their
// types, which the page checks value by value where it shows them (src/shared/cardData.ts laidRows), never
// the composed cell, where a date beside an amount, or a line number beside a count, is no card number. A
// report's amount or currency column is input too: a value without its type's shape is scanned alone.

export const RECONCILE_COLUMNS = [
  RECONCILE_STATUS_COLUMN,
  RECONCILE_KEY_COLUMN,
  'client-orderid',
  'kind',
  'due',
  'charged',
  'declined',
  'reason',
  'expected',
  'report lines',
];

/** Where the statuses came from, the report's column a value of its own (laid out by the page). */
export function sourceNote(s: StatusSource): Said {
  if (s.from === 'column') return said`charge status from the report's ${typed.text(s.column)} column`;
  if (s.from === 'transaction-type') return said`charge status from the words in ${typed.text(s.column)}`;
  return ourWords('the report has no status column: every report row counts as an approved charge');
}

/** The batch line's key as the table shows it: the file's base name and line, unique per reconciliation. */
export const rowKey = (file: string, line: number): string => `${file.split(/[\\/]/).pop()}:${line}`;

/** One report line in a cell: `7: 28.12.2025 29.990 EUR`, each value with its type. */
const reportLine = (c: Pick<ReportCharge, 'line' | 'date' | 'amount' | 'currency'>): Said =>
  said`${typed.count(c.line)}: ${typed.date(c.date)} ${typed.amount(c.amount)} ${typed.text(c.currency)}`;

export function reconciliationView(r: Reconciliation, title: Said): ReconciliationView {
  const m = (s: string) => maskText(s);
  const order = (s: string) => RECONCILE_STATUSES.indexOf(s as (typeof RECONCILE_STATUSES)[number]);
  const rows: ReconcileCell[][] = [...r.rows]
    .sort((a, b) => order(a.status) - order(b.status))
    .map((x) => [
      x.status,
      rowKey(x.file, x.line),
      m(x.clientOrderId),
      x.kind,
      String(x.due),
      String(x.charged),
      String(x.declined),
      x.reason, // a Said: laid out by the page, value by value (core/reconcile/status.ts)
      joinSaid(
        x.expected.map((e) => said`${typed.date(e.date)} ${typed.amount(e.amount)}`),
        ', ',
      ),
      joinSaid(
        x.charges.map((c) => (c.approved ? reportLine(c) : said`${reportLine(c)} (not approved)`)),
        '; ',
      ),
    ]);
  for (const u of r.unmatched)
    rows.push(['unmatched', '', m(u.clientOrderId), '', '', '', '', said`in no batch row reconciled`, said``, reportLine(u)]);
  const summary: [string, number][] = [
    ...RECONCILE_STATUSES.map((s): [string, number] => [s, r.summary[s]]),
    ['unmatched', r.summary.unmatched],
  ];
  return {
    title,
    window: r.window,
    note: sourceNote(r.statusSource),
    summary,
    columns: RECONCILE_COLUMNS,
    rows,
  };
}
