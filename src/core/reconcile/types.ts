// Reconciliation: a batch's expected charges (the schedule) held against a report's rows (docs/reconcile.md).

import type { CalendarDate } from '../dates';
import type { Said } from '../output';

/**
 * One status per batch row, most serious first: the first that applies wins. `amount-unreadable` comes
 * before the amount comparison it makes impossible: an amount not read exactly is never called `ok`.
 */
export const RECONCILE_STATUSES = [
  'extra',
  'amount-unreadable',
  'amount-mismatch',
  'currency-mismatch',
  'declined',
  'missing',
  'ok',
  'not-due',
] as const;
export type ReconcileStatus = (typeof RECONCILE_STATUSES)[number];

/** Statuses that need no one's attention (exit 0 when every row has one and nothing is unmatched). */
export const SETTLED_STATUSES: readonly ReconcileStatus[] = ['ok', 'not-due'];

/** The report columns reconciliation reads, by role. */
export const COLUMN_ROLES = ['order', 'amount', 'currency', 'date', 'status', 'id'] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

/** One batch row as reconciliation sees it. */
export interface BatchRowInput {
  file: string;
  /** 1-based line of the row in its file. */
  line: number;
  /** Values by column name (client-orderid, currency, the schedule columns). */
  values: Record<string, string>;
  /**
   * The gateway's date when the row's batch was sent (a local gateway's simulated one), when known: without
   * start-date the row started on it. Else the reconciliation's `today`.
   */
  sentOn?: CalendarDate;
}

/** Where a charge's approved/declined comes from. */
export type StatusSource = { from: 'column'; column: string } | { from: 'transaction-type'; column: string } | { from: 'assumed-approved' };

/** One report row matched (or not) to a batch row. */
export interface ReportCharge {
  /** 1-based line in the report. */
  line: number;
  clientOrderId: string;
  transactionId: string;
  amount: string;
  currency: string;
  /** DD.MM.YYYY, or the value as written when it is no date. */
  date: string;
  approved: boolean;
}

export interface ExpectedCharge {
  index: number;
  date: string;
  /** A fixed amount, a range `from–to`, or `—` when the row has none. */
  amount: string;
}

export interface RowReconciliation {
  file: string;
  line: number;
  clientOrderId: string;
  /** What the row's schedule moves and its report lines were matched as: `payouts` for a DST row (money paid out). */
  kind: 'charges' | 'payouts';
  status: ReconcileStatus;
  /** Charges due in the window. */
  due: number;
  /** Report lines matched (approved and declined: each is an attempt, as the gateway's repeats counter counts). */
  charged: number;
  declined: number;
  expected: ExpectedCharge[];
  charges: ReportCharge[];
  /** Why the status, in a few words (e.g. which amount differs): our words and typed values, laid out where shown. */
  reason: Said;
}

export interface Reconciliation {
  window: { from: string; to: string };
  statusSource: StatusSource;
  rows: RowReconciliation[];
  unmatched: ReportCharge[];
  summary: Record<ReconcileStatus | 'unmatched', number>;
}
