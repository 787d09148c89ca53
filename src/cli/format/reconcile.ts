import { maskText, safeJson } from '../../core/output';
import { RECONCILE_STATUSES, type Reconciliation, type ReportCharge, type RowReconciliation } from '../../core/reconcile';
import { csvText, field } from '../output';

// `paygate reconcile` output: text for people, one JSON object, or CSV (one line per batch row, then one
// per unmatched report row). Every value from a batch or a report passes the output boundary: in text
// each is one value on its line (field), JSON is safeJson, CSV is masked and formula-safe (csvText).

const m = (s: string) => maskText(s);

function charge(c: ReportCharge) {
  return {
    line: c.line,
    clientOrderId: m(c.clientOrderId),
    transactionId: m(c.transactionId),
    amount: c.amount,
    currency: c.currency,
    date: c.date,
    approved: c.approved,
  };
}

/**
 * How many rows one piece of output holds: each piece is printed before the next is made, so a
 * reconciliation of a million report lines is never one string (nor one tree of masked copies).
 */
const ROWS_PER_PIECE = 1_000;

function* inPieces<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let at = 0; at < items.length; at += ROWS_PER_PIECE) yield items.slice(at, at + ROWS_PER_PIECE);
}

const rowJson = (x: RowReconciliation) => ({
  file: x.file,
  line: x.line,
  clientOrderId: m(x.clientOrderId),
  kind: x.kind,
  status: x.status,
  due: x.due,
  charged: x.charged,
  declined: x.declined,
  reason: m(x.reason),
  expected: x.expected,
  charges: x.charges.map(charge),
});

const unmatchedJson = (u: ReportCharge) => ({ line: u.line, clientOrderId: m(u.clientOrderId), amount: u.amount, date: u.date });

/** The members of a JSON array, a piece at a time, commas between (the text JSON.stringify writes inside its brackets). */
function* jsonMembers<T>(items: readonly T[], json: (item: T) => unknown): Generator<string> {
  let first = true;
  for (const piece of inPieces(items)) {
    const text = safeJson(piece.map(json));
    yield `${first ? '' : ','}${text.slice(1, -1)}`;
    first = false;
  }
}

/** The JSON object `{"window","statusSource","rows","unmatched","summary"}` and a line break, in pieces. */
export function* reconcileJsonPieces(r: Reconciliation): Generator<string> {
  yield `{"window":${safeJson(r.window)},"statusSource":${safeJson(r.statusSource)},"rows":[`;
  yield* jsonMembers(r.rows, rowJson);
  yield '],"unmatched":[';
  yield* jsonMembers(r.unmatched, unmatchedJson);
  yield `],"summary":${safeJson(r.summary)}}\n`;
}

export function sourceText(r: Reconciliation): string {
  const s = r.statusSource;
  if (s.from === 'column') return `charge status from the report's ${field(s.column)} column`;
  if (s.from === 'transaction-type') return `charge status from the words in the report's ${field(s.column)} column`;
  return 'the report has no status column: every report row is counted as an approved charge';
}

const severity = (x: RowReconciliation) => RECONCILE_STATUSES.indexOf(x.status);

/**
 * What the text calls the report: its name in the title, and how one of its lines is named. A saved report
 * is a file, so `transactions.csv:7`; a report run now is no file (the template is not the report), so
 * `report line 7` under a title that names the template it was run from.
 */
export interface ReportLabel {
  title: string;
  line: (n: number) => string;
}

export const reportFileLabel = (name: string): ReportLabel => ({ title: field(name), line: (n) => `${field(name)}:${n}` });
export const reportRunLabel = (template: string): ReportLabel => ({
  title: `the report of ${field(template)}, run now`,
  line: (n) => `report line ${n}`,
});

/** A report line as text: every value from the report is one value on the line. */
function chargeText(c: ReportCharge, report: ReportLabel): string {
  const what = [c.date, c.amount, c.currency].map(field).join(' ');
  return `  ${report.line(c.line)}  ${what} ${c.approved ? 'approved' : 'not approved'} ${field(c.transactionId)}`;
}

/** The text for people, in pieces of lines. */
export function* reconcileTextPieces(r: Reconciliation, report: ReportLabel): Generator<string> {
  const out: string[] = [`Reconciliation of ${r.rows.length} batch row(s) with ${report.title}, window ${r.window.from} to ${r.window.to}`];
  out.push(`(${sourceText(r)})`);
  // A DST row's report lines are payouts (money paid out), matched and counted apart from the charges.
  const payouts = r.rows.filter((x) => x.kind === 'payouts').length;
  if (payouts > 0) out.push(`(${r.rows.length - payouts} row(s) matched as charges, ${payouts} DST row(s) as payouts)`);
  for (const s of [...RECONCILE_STATUSES, 'unmatched'] as const) out.push(`  ${s.padEnd(17)} ${r.summary[s]}`);
  yield lines(out);
  const attention = r.rows.filter((x) => x.status !== 'ok' && x.status !== 'not-due').sort((a, b) => severity(a) - severity(b));
  for (const piece of inPieces(attention)) {
    const text: string[] = [];
    for (const x of piece) {
      text.push(
        '',
        `${field(x.file)}:${x.line}  ${x.status}  ${field(x.clientOrderId)}${x.kind === 'payouts' ? ' (payout)' : ''}: ${field(x.reason)}`,
      );
      text.push(`  expected ${x.expected.map((e) => `${e.date} ${field(e.amount)}`).join(', ') || 'nothing'}`);
      for (const c of x.charges) text.push(chargeText(c, report));
    }
    yield lines(text);
  }
  if (r.unmatched.length > 0) yield lines(['', 'Report rows that match no batch row:']);
  for (const piece of inPieces(r.unmatched))
    yield lines(
      piece.map((u) => {
        const what = [u.date, u.amount, u.currency].map(field).join(' ');
        return `  ${report.line(u.line)}  ${field(u.clientOrderId) || '(no order id)'} ${what}`;
      }),
    );
}

const lines = (text: string[]) => `${text.join('\n')}\n`;

export const formatReconcileText = (r: Reconciliation, report: ReportLabel): string => [...reconcileTextPieces(r, report)].join('');

const CSV_HEADER = ['file', 'line', 'client-orderid', 'status', 'due', 'charged', 'declined', 'reason', 'report lines', 'kind'];

/** The CSV, in pieces; `raw` (the user's --raw) keeps cells that start like a formula as they are. */
export function* reconcileCsvPieces(r: Reconciliation, raw = false): Generator<string> {
  const header = csvText([CSV_HEADER]);
  yield header;
  // Each piece is written as the whole CSV is (the header first, so the same columns are kept) and
  // printed without its header.
  const records = (rows: string[][]) => csvText([CSV_HEADER, ...rows.map((row) => row.map(m))], { raw }).slice(header.length);
  for (const piece of inPieces(r.rows))
    yield records(
      piece.map((x) => [
        x.file,
        String(x.line),
        x.clientOrderId,
        x.status,
        String(x.due),
        String(x.charged),
        String(x.declined),
        x.reason,
        x.charges.map((c) => c.line).join(' '),
        x.kind,
      ]),
    );
  for (const piece of inPieces(r.unmatched))
    yield records(
      piece.map((u) => ['', '', u.clientOrderId, 'unmatched', '', '', '', `${u.date} ${u.amount} ${u.currency}`, String(u.line), '']),
    );
}
