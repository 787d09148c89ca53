import { maskText } from '../../core/output';
import { RECONCILE_STATUSES, type Reconciliation, type StatusSource } from '../../core/reconcile';
import { RECONCILE_KEY_COLUMN, RECONCILE_STATUS_COLUMN, type ReconciliationView } from '../../shared/resultsProtocol';

// A reconciliation as the results table shows it: the status first (pinned and coloured by the page), the
// batch line (the key the page sends back to reveal it), then the row's numbers, its expected charges and
// its report lines; the unmatched report rows last. Each value from the batch or the report passes the
// output boundary before it is laid out in a cell (a report's amount or currency column is input too),
// never the composed cell, where a date beside an amount could make a card-length run; the page masks
// what it shows again (src/shared/cardData.ts).

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

export function sourceNote(s: StatusSource): string {
  if (s.from === 'column') return `charge status from the report's ${maskText(s.column)} column`;
  if (s.from === 'transaction-type') return `charge status from the words in ${maskText(s.column)}`;
  return 'the report has no status column: every report row counts as an approved charge';
}

/** The batch line's key as the table shows it: the file's base name and line, unique per reconciliation. */
export const rowKey = (file: string, line: number): string => `${file.split(/[\\/]/).pop()}:${line}`;

export function reconciliationView(r: Reconciliation, title: string): ReconciliationView {
  const m = (s: string) => maskText(s);
  const order = (s: string) => RECONCILE_STATUSES.indexOf(s as (typeof RECONCILE_STATUSES)[number]);
  const rows = [...r.rows]
    .sort((a, b) => order(a.status) - order(b.status))
    .map((x) => [
      x.status,
      rowKey(x.file, x.line),
      m(x.clientOrderId),
      x.kind,
      String(x.due),
      String(x.charged),
      String(x.declined),
      x.reason, // its values masked as they went in (core/reconcile/status.ts)
      x.expected.map((e) => `${e.date} ${m(e.amount)}`).join(', '),
      x.charges.map((c) => `${c.line}: ${m(c.date)} ${m(c.amount)} ${m(c.currency)}${c.approved ? '' : ' (not approved)'}`).join('; '),
    ]);
  for (const u of r.unmatched)
    rows.push([
      'unmatched',
      '',
      m(u.clientOrderId),
      '',
      '',
      '',
      '',
      'in no batch row reconciled',
      '',
      `${u.line}: ${m(u.date)} ${m(u.amount)} ${m(u.currency)}`,
    ]);
  const summary: [string, number][] = [
    ...RECONCILE_STATUSES.map((s): [string, number] => [s, r.summary[s]]),
    ['unmatched', r.summary.unmatched],
  ];
  return {
    title: m(title),
    window: r.window,
    note: sourceNote(r.statusSource),
    summary,
    columns: RECONCILE_COLUMNS,
    rows,
  };
}
