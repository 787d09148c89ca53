import { compareDates, formatGatewayDate, gatewayDateKey, parseGatewayDate, type CalendarDate } from '../dates';
import { isPayoutRow, kindWords } from '../schedule/describe';
import { computeSchedule, formatAmount, type Charge, MAX_CHARGES_PER_CALL, scheduleInputFromRow } from '../schedule/schedule';
import { chargeOf, own, planColumns, type ColumnOverrides, type ColumnPlan } from './columns';
import { rowStatus } from './status';
import { maskCardNumbers } from '../output';
import { RECONCILE_STATUSES, type BatchRowInput, type Reconciliation, type ReportCharge, type RowReconciliation } from './types';

// Reconciliation as a stream: the batch rows are indexed by client-orderid first, then the report's
// records are fed one at a time (never held as text), each kept only as a small matched or unmatched
// charge. The window and the schedules are settled at the end, when the report's date is known. Time
// and memory are linear in batch rows + report rows.
//
// Order ids are matched through the card-number floor (core/output): an order id that is a card number is
// kept masked wherever it leaves a batch (the local gateway stores it so, and so may a report), so the
// batch's full id and a report's masked one are the same order.

/** The key an order id is matched by: the id as every output shows it. */
const orderKey = (id: string) => maskCardNumbers(id.trim());

export interface ReconcileOptions {
  columns?: ColumnOverrides;
  /**
   * How this face lets a person name a report column for a role (the CLI: `--column order=NAME`), added to
   * the message about a missing column. Absent where there is no such way: the message then names none.
   */
  columnHint?: (role: string) => string;
  /** Window start; default the earliest start-date (or `today` for a row without one). */
  from?: CalendarDate;
  /** Window end; default the report's Date_of_report, else `today`. */
  asOf?: CalendarDate;
  /**
   * The gateway's date: the first charge of a row without start-date (unless the row says when it was
   * sent), and the window's end when nothing else says.
   */
  today: CalendarDate;
}

interface RowState {
  input: BatchRowInput;
  lines: ReportCharge[];
}

export class Reconciler {
  private readonly byOrder = new Map<string, RowState[]>();
  private readonly rows: RowState[];
  private readonly unmatched: ReportCharge[] = [];
  private plan: ColumnPlan | undefined;
  private reportDate: CalendarDate | undefined;

  constructor(
    batchRows: readonly BatchRowInput[],
    private readonly options: ReconcileOptions,
  ) {
    this.rows = batchRows.map((input) => ({ input, lines: [] }));
    for (const row of this.rows) {
      const id = orderKey(row.input.values['client-orderid'] ?? '');
      const list = this.byOrder.get(id);
      if (list) list.push(row);
      else this.byOrder.set(id, [row]);
    }
  }

  /** The report's header; an error (naming the missing columns) as a value. */
  header(columns: readonly string[]): { error: string } | undefined {
    const plan = planColumns(columns, this.options.columns, this.options.columnHint);
    if ('error' in plan) return plan;
    this.plan = plan;
    return undefined;
  }

  /** One report record (after `header`). */
  record(values: readonly string[], line: number): void {
    const plan = this.plan;
    if (!plan) throw new Error('Reconciler.record before header');
    if (plan.reportDate !== -1 && this.reportDate === undefined) this.reportDate = parseGatewayDate((values[plan.reportDate] ?? '').trim());
    const charge = chargeOf(plan, values, line);
    charge.amount = this.intern(charge.amount);
    charge.currency = this.intern(charge.currency);
    charge.date = this.intern(charge.date);
    // Lines of an order id that several batch rows share are kept on the first and shared out at the end.
    const row = charge.clientOrderId === '' ? undefined : this.byOrder.get(orderKey(charge.clientOrderId))?.[0];
    if (row) {
      // The batch's own string: a value cut from the report text would keep its whole piece alive.
      charge.clientOrderId = row.input.values['client-orderid'].trim();
      row.lines.push(charge);
    } else {
      charge.clientOrderId = own(charge.clientOrderId);
      this.unmatched.push(charge);
    }
  }

  /**
   * One string per distinct amount, currency and date: a million kept lines repeat a few hundred of them.
   * Bounded, so a report of all-different values costs no more than without it.
   */
  private readonly interned = new Map<string, string>();
  private intern(s: string): string {
    const known = this.interned.get(s);
    if (known !== undefined) return known;
    if (this.interned.size < 100_000) this.interned.set(s, s);
    return s;
  }

  finish(): Reconciliation {
    const today = this.options.today;
    const to = this.options.asOf ?? this.reportDate ?? today;
    const from = this.options.from ?? this.earliestStart() ?? to;
    const rows: RowReconciliation[] = [];
    for (const group of this.byOrder.values()) {
      // Lines in date order, shared out in batch order: each row takes the lines its own charges are due
      // for; whatever is left over is the last row's (so the same id twice, charged thrice, is `extra`).
      const pool = inDateOrder(group[0].lines.filter((l) => inWindow(l, from, to)));
      let at = 0;
      group.forEach((r, i) => {
        const due = this.due(r, from, to);
        const take = i === group.length - 1 ? pool.length - at : Math.min(due.length, pool.length - at);
        rows.push(this.settle(r, due, pool.slice(at, at + take)));
        at += take;
      });
    }
    rows.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    const summary = Object.fromEntries([...RECONCILE_STATUSES, 'unmatched'].map((s) => [s, 0])) as Reconciliation['summary'];
    for (const r of rows) summary[r.status]++;
    summary.unmatched = this.unmatched.length;
    return {
      window: { from: formatGatewayDate(from), to: formatGatewayDate(to) },
      statusSource: this.plan?.status.source ?? { from: 'assumed-approved' },
      rows,
      unmatched: this.unmatched,
      summary,
    };
  }

  private earliestStart(): CalendarDate | undefined {
    let earliest: CalendarDate | undefined;
    for (const r of this.rows) {
      const d = parseGatewayDate((r.input.values['start-date'] ?? '').trim()) ?? r.input.sentOn ?? this.options.today;
      if (!earliest || compareDates(d, earliest) < 0) earliest = d;
    }
    return earliest;
  }

  private due(r: RowState, from: CalendarDate, to: CalendarDate): Charge[] {
    const input = scheduleInputFromRow(r.input.values);
    const all = computeSchedule(input, { today: r.input.sentOn ?? this.options.today, limit: MAX_CHARGES_PER_CALL, until: to });
    return all.filter((c) => compareDates(c.date, from) >= 0);
  }

  private settle(r: RowState, due: Charge[], lines: ReportCharge[]): RowReconciliation {
    const payout = isPayoutRow(r.input.values);
    const { status, reason } = rowStatus(due, lines, (r.input.values.currency ?? '').trim(), kindWords(payout));
    return {
      file: r.input.file,
      line: r.input.line,
      clientOrderId: (r.input.values['client-orderid'] ?? '').trim(),
      kind: payout ? 'payouts' : 'charges',
      status,
      due: due.length,
      charged: lines.length,
      declined: lines.filter((l) => !l.approved).length,
      expected: due.map((c) => ({ index: c.index, date: formatGatewayDate(c.date), amount: formatAmount(c.amount) })),
      charges: lines,
      reason,
    };
  }
}

/** Lines dated outside the window belong to another reconciliation; a line without a readable date counts. */
function inWindow(l: ReportCharge, from: CalendarDate, to: CalendarDate): boolean {
  const d = parseGatewayDate(l.date);
  return !d || (compareDates(d, from) >= 0 && compareDates(d, to) <= 0);
}

/** Lines by date, then by report line; keys computed once (a comparator parsing dates costs n log n parses). */
function inDateOrder(lines: ReportCharge[]): ReportCharge[] {
  if (lines.length < 2) return lines;
  const keys = new Map(lines.map((l) => [l, gatewayDateKey(l.date) || 0]));
  return lines.sort((a, b) => keys.get(a)! - keys.get(b)! || a.line - b.line);
}
