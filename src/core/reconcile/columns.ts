import { parseGatewayDate, formatGatewayDate } from '../dates';
import { COLUMN_ROLES, type ColumnRole, type ReportCharge, type StatusSource } from './types';

// Which report column plays which role. Defaults follow the gateway's sample report (docs/reconcile.md, "Report columns"); `--column role=NAME`
// overrides any of them. Names match case-insensitively, ignoring surrounding spaces.

export const DEFAULT_COLUMNS: Readonly<Record<Exclude<ColumnRole, 'status'>, string>> = {
  order: 'Merchant_OID',
  amount: 'Amount',
  currency: 'Currency',
  date: 'Created_date',
  id: 'Transaction_id',
};
const STATUS_COLUMNS = ['Status', 'Transaction_status'];
const TYPE_COLUMN = 'Transaction_type';
const REPORT_DATE_COLUMN = 'Date_of_report';

export type ColumnOverrides = Partial<Record<ColumnRole, string>>;

/** Parses `role=NAME`; an error message naming what is wrong otherwise. */
export function parseColumnOverride(text: string): { role: ColumnRole; name: string } | { error: string } {
  const at = text.indexOf('=');
  const role = (at === -1 ? text : text.slice(0, at)).trim();
  const name = at === -1 ? '' : text.slice(at + 1).trim();
  if (!(COLUMN_ROLES as readonly string[]).includes(role))
    return { error: `--column "${text}": the role must be one of ${COLUMN_ROLES.join(', ')}` };
  if (name === '') return { error: `--column "${text}": give the report's column name after "="` };
  return { role: role as ColumnRole, name };
}

export interface ColumnPlan {
  index: Record<Exclude<ColumnRole, 'status'>, number>;
  status: { index: number; source: StatusSource };
  reportDate: number;
}

const find = (header: readonly string[], name: string): number => {
  const want = name.trim().toLowerCase();
  return header.findIndex((h) => h.trim().toLowerCase() === want);
};

/** The plan for a header, or the message naming the columns it lacks. */
export function planColumns(
  header: readonly string[],
  overrides: ColumnOverrides = {},
  hint?: (role: string) => string,
): ColumnPlan | { error: string } {
  const index = {} as ColumnPlan['index'];
  const lacking: string[] = [];
  for (const role of ['order', 'amount', 'currency', 'date', 'id'] as const) {
    const name = overrides[role] ?? DEFAULT_COLUMNS[role];
    index[role] = find(header, name);
    // Only the order id and the amount are indispensable; a report without ids or dates still reconciles.
    if (index[role] === -1 && (role === 'order' || role === 'amount' || overrides[role] !== undefined))
      lacking.push(`${role} column "${name}"${overrides[role] === undefined && hint ? ` (${hint(role)})` : ''}`);
  }
  let status: ColumnPlan['status'] = { index: -1, source: { from: 'assumed-approved' } };
  if (overrides.status !== undefined) {
    const i = find(header, overrides.status);
    if (i === -1) lacking.push(`status column "${overrides.status}"`);
    status = { index: i, source: { from: 'column', column: header[i] ?? overrides.status } };
  } else {
    const s = STATUS_COLUMNS.map((n) => find(header, n)).find((i) => i !== -1);
    const t = find(header, TYPE_COLUMN);
    if (s !== undefined) status = { index: s, source: { from: 'column', column: header[s] } };
    else if (t !== -1) status = { index: t, source: { from: 'transaction-type', column: header[t] } };
  }
  if (lacking.length > 0) return { error: `the report has no ${lacking.join(', no ')}; its columns are: ${header.join(', ')}` };
  return { index, status, reportDate: find(header, REPORT_DATE_COLUMN) };
}

const DECLINED_WORDS = /\b(declined?|filtered|error|failed|failure|rejected)\b/i;

/** A status word as approved (true) or not: "Sale approved" is approved, "declined"/"filtered"/"error" are not. */
export function isApproved(text: string): boolean {
  return !DECLINED_WORDS.test(text);
}

/** A report date as DD.MM.YYYY: `YYYY-MM-DD[ hh:mm:ss]` (the report's form) or DD.MM.YYYY; else as written. */
export function reportDate(text: string): string {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(t);
  if (iso) {
    const d = parseGatewayDate(`${iso[3]}.${iso[2]}.${iso[1]}`);
    if (d) return formatGatewayDate(d);
  }
  const gw = parseGatewayDate(t.slice(0, 10));
  return gw ? formatGatewayDate(gw) : t;
}

/**
 * A copy of a value that owns its characters. A longer value cut from a report piece (a V8 sliced string)
 * keeps that whole piece alive; a kept report line must not keep the report.
 */
export function own(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** One report record through the plan. */
export function chargeOf(plan: ColumnPlan, values: readonly string[], line: number): ReportCharge {
  const at = (i: number) => (i === -1 ? '' : (values[i] ?? '').trim());
  return {
    line,
    clientOrderId: at(plan.index.order),
    transactionId: own(at(plan.index.id)),
    amount: own(at(plan.index.amount)),
    currency: own(at(plan.index.currency)),
    date: own(reportDate(at(plan.index.date))),
    approved: plan.status.index === -1 ? true : isApproved(at(plan.status.index)),
  };
}
