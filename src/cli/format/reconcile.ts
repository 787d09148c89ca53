import { hasShape, joinLaid, laid, laidSlice, maskText, saidText, vet, vouched, words, type Laid } from '../../core/output';
import { RECONCILE_STATUSES, type Reconciliation, type ReportCharge, type RowReconciliation } from '../../core/reconcile';
import { csvRecordText, csvText, field, jsonLaid, vouchedIfLaid } from '../output';

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
  reason: saidText(x.reason),
  expected: x.expected,
  charges: x.charges.map(charge),
});

const unmatchedJson = (u: ReportCharge) => ({ line: u.line, clientOrderId: m(u.clientOrderId), amount: u.amount, date: u.date });

/** The members of a JSON array, a piece at a time, commas between (the text JSON.stringify writes inside its brackets). */
function* jsonMembers<T>(items: readonly T[], json: (item: T) => unknown): Generator<string> {
  let first = true;
  for (const piece of inPieces(items)) {
    const comma = words(first ? '' : ',');
    yield vouchedIfLaid(jsonLaid((j) => laid`${comma}${laidSlice(j(piece.map(json)), 1, -1)}`));
    first = false;
  }
}

/** The JSON object `{"window","statusSource","rows","unmatched","summary"}` and a line break, in pieces. */
export function* reconcileJsonPieces(r: Reconciliation): Generator<string> {
  yield vouchedIfLaid(jsonLaid((j) => laid`{"window":${j(r.window)},"statusSource":${j(r.statusSource)},"rows":[`));
  yield* jsonMembers(r.rows, rowJson);
  yield vouched(words('],"unmatched":['));
  yield* jsonMembers(r.unmatched, unmatchedJson);
  yield vouchedIfLaid(jsonLaid((j) => laid`],"summary":${j(r.summary)}}\n`));
}

export function sourceText(r: Reconciliation): Laid {
  const s = r.statusSource;
  if (s.from === 'column') return laid`charge status from the report's ${field(s.column)} column`;
  if (s.from === 'transaction-type') return laid`charge status from the words in the report's ${field(s.column)} column`;
  return words('the report has no status column: every report row is counted as an approved charge');
}

const severity = (x: RowReconciliation) => RECONCILE_STATUSES.indexOf(x.status);

/**
 * What the text calls the report: its name in the title, and how one of its lines is named. A saved report
 * is a file, so `transactions.csv:7`; a report run now is no file (the template is not the report), so
 * `report line 7` under a title that names the template it was run from.
 */
export interface ReportLabel {
  title: Laid;
  line: (n: number) => Laid;
}

export const reportFileLabel = (name: string): ReportLabel => ({
  title: laid`${field(name)}`,
  line: (n) => laid`${field(name)}:${vet.count(n)}`,
});
export const reportRunLabel = (template: string): ReportLabel => ({
  title: laid`the report of ${field(template)}, run now`,
  line: (n) => laid`report line ${vet.count(n)}`,
});

/** A report line's date, amount and currency: each checked by its type, side by side. */
const dated = (c: Pick<ReportCharge, 'date' | 'amount' | 'currency'>) =>
  laid`${vet.date(c.date)} ${vet.amount(c.amount)} ${field(c.currency)}`;

/** A report line as text: every value from the report is one value on the line. */
function chargeText(c: ReportCharge, report: ReportLabel): Laid {
  return laid`  ${report.line(c.line)}  ${dated(c)} ${words(c.approved ? 'approved' : 'not approved')} ${vet.id(c.transactionId)}`;
}

function rowText(x: RowReconciliation, report: ReportLabel): Laid[] {
  const payout = words(x.kind === 'payouts' ? ' (payout)' : '');
  const expected = x.expected.map((e) => laid`${vet.date(e.date)} ${vet.amount(e.amount)}`);
  return [
    words(''),
    laid`${field(x.file)}:${vet.count(x.line)}  ${words(x.status)}  ${field(x.clientOrderId)}${payout}: ${x.reason}`,
    laid`  expected ${expected.length > 0 ? joinLaid(expected, ', ') : words('nothing')}`,
    ...x.charges.map((c) => chargeText(c, report)),
  ];
}

/**
 * The text for people, in pieces of lines, each laid out from checked values (core/output/laid.ts): a date
 * beside an amount is two values, never one number for the floor to guess at.
 */
export function* reconcileTextLaid(r: Reconciliation, report: ReportLabel): Generator<Laid> {
  const n = vet.count(r.rows.length);
  const out: Laid[] = [
    laid`Reconciliation of ${n} batch row(s) with ${report.title}, window ${vet.date(r.window.from)} to ${vet.date(r.window.to)}`,
  ];
  out.push(laid`(${sourceText(r)})`);
  // A DST row's report lines are payouts (money paid out), matched and counted apart from the charges.
  const payouts = r.rows.filter((x) => x.kind === 'payouts').length;
  if (payouts > 0)
    out.push(laid`(${vet.count(r.rows.length - payouts)} row(s) matched as charges, ${vet.count(payouts)} DST row(s) as payouts)`);
  for (const s of [...RECONCILE_STATUSES, 'unmatched'] as const) out.push(laid`  ${words(s.padEnd(17))} ${vet.count(r.summary[s])}`);
  yield lines(out);
  const attention = r.rows.filter((x) => x.status !== 'ok' && x.status !== 'not-due').sort((a, b) => severity(a) - severity(b));
  for (const piece of inPieces(attention)) yield lines(piece.flatMap((x) => rowText(x, report)));
  if (r.unmatched.length > 0) yield lines([words(''), words('Report rows that match no batch row:')]);
  for (const piece of inPieces(r.unmatched))
    yield lines(
      piece.map((u) => {
        const id = u.clientOrderId === '' ? words('(no order id)') : field(u.clientOrderId);
        return laid`  ${report.line(u.line)}  ${id} ${dated(u)}`;
      }),
    );
}

/** The text, each piece vouched for as it is made: write it before taking the next. */
export function* reconcileTextPieces(r: Reconciliation, report: ReportLabel): Generator<string> {
  for (const piece of reconcileTextLaid(r, report)) yield vouched(piece);
}

const lines = (text: Laid[]) => laid`${joinLaid(text, '\n')}\n`;

export const formatReconcileText = (r: Reconciliation, report: ReportLabel): Laid => joinLaid([...reconcileTextLaid(r, report)], '');

const CSV_HEADER = ['file', 'line', 'client-orderid', 'status', 'due', 'charged', 'declined', 'reason', 'report lines', 'kind'];

/**
 * The CSV, in pieces, each laid out from its cells and vouched for as it is made (write it before taking the
 * next); `raw` (the user's --raw) keeps cells that start like a formula as they are. Free text (a file name,
 * an order id, a reason) is masked as free text is; a count, a status or a list of report lines is ours, and
 * a report line's date, amount and currency are each checked by their type before they share a cell.
 */
export function* reconcileCsvPieces(r: Reconciliation, raw = false): Generator<string> {
  const header = csvText([CSV_HEADER]);
  yield vouched(header);
  // Each piece is written as the whole CSV is (the header first, so the same columns are kept) and
  // printed without its header.
  const records = (rows: string[][]) =>
    vouched(
      joinLaid(
        rows.map((row) => csvRecordText(row, { raw })),
        '',
      ),
    );
  // A value of its type's shape as it is (a count, a date…), any other masked as free text.
  const typed = (type: 'date' | 'amount' | 'count', value: string) => (hasShape(type, value) ? value : m(value));
  for (const piece of inPieces(r.rows))
    yield records(
      piece.map((x) => [
        m(x.file),
        String(x.line),
        m(x.clientOrderId),
        x.status,
        String(x.due),
        String(x.charged),
        String(x.declined),
        saidText(x.reason),
        x.charges.map((c) => typed('count', String(c.line))).join(' '),
        x.kind,
      ]),
    );
  for (const piece of inPieces(r.unmatched))
    yield records(
      piece.map((u) => {
        const what = `${typed('date', u.date)} ${typed('amount', u.amount)} ${m(u.currency)}`;
        return ['', '', m(u.clientOrderId), 'unmatched', '', '', '', what, String(u.line), ''];
      }),
    );
}
