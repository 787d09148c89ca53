import { maskText } from '../../core/output';
import { RECONCILE_STATUSES, type Reconciliation, type StatusSource } from '../../core/reconcile';
import { RECONCILE_KEY_COLUMN, RECONCILE_STATUS_COLUMN, type ReconciliationView } from '../../shared/resultsProtocol';

// A reconciliation as the results table shows it: the status first (pinned and coloured by the page), the
// batch line (the key the page sends back to reveal it), then the row's numbers, its expected charges and
// its report lines; the unmatched report rows last. Every cell passes the output boundary (a report's
// amount or currency column is input too).

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
  if (s.from === 'column') return `charge status from the report's ${s.column} column`;
  if (s.from === 'transaction-type') return `charge status from the words in ${s.column}`;
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
      m(x.reason),
      x.expected.map((e) => `${e.date} ${e.amount}`).join(', '),
      x.charges.map((c) => `${c.line}: ${c.date} ${c.amount} ${c.currency}${c.approved ? '' : ' (not approved)'}`).join('; '),
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
      `${u.line}: ${u.date} ${u.amount} ${u.currency}`,
    ]);
  const summary: [string, number][] = [
    ...RECONCILE_STATUSES.map((s): [string, number] => [s, r.summary[s]]),
    ['unmatched', r.summary.unmatched],
  ];
  return {
    title: m(title),
    window: r.window,
    note: m(sourceNote(r.statusSource)),
    summary,
    columns: RECONCILE_COLUMNS,
    rows: rows.map((row) => row.map(m)),
  };
}
