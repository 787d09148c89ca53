// What a query found, in the order people read it (groups by their key), with totals per currency and per
// kind of money (charges apart from payouts, refunds and chargebacks, where the report says which is which), and
// as the JSON every face writes: amounts as decimal strings with the report's scale (the most decimals
// the column's amounts have), never numbers, so nothing rounds them on the way.

import { averageAmount, formatAmount, type Amount } from '../amounts';
import { AmountAccumulator, type AmountReading } from './aggregate';
import { QueryGroups } from './groups';
import { kindHeading, kindRank, moneyKind } from './kinds';
import { AGGREGATES, type AggregateKind, type GroupColumn, type QueryPlan } from './plan';
import type { QueryRun, SkippedAmount } from './run';

export interface QueryTotal {
  /** The currency these totals are in; undefined when the query names no currency column. */
  currency: string | undefined;
  /** The kind of money (charges, payouts, refunds, chargebacks, other); undefined when the report does not say. */
  kind: string | undefined;
  count: number;
  amounts: AmountAccumulator[];
}

export interface QueryOutcome {
  plan: QueryPlan;
  /** Sorted by their key, column by column (numbers as numbers), read column by column (groups.ts). */
  groups: QueryGroups;
  /** One per currency and kind, in order; one without either when the query has neither column. */
  totals: QueryTotal[];
  read: number;
  matched: number;
  skipped: SkippedAmount[];
  skippedCount: number;
  /** Per amount column: the decimals its amounts are shown with. */
  scales: number[];
  /** Set when the run met more groups than its bound: how many, and the bound; `groups` and `totals` are then empty. */
  tooManyGroups?: { groups: number; limit: number };
}

export function queryOutcome(run: QueryRun): QueryOutcome {
  const plan = run.plan;
  if (run.overBound) {
    const { read, matched, skipped, skippedCount } = run;
    const scales = plan.amounts.map(() => 0);
    return {
      plan,
      groups: QueryGroups.none(),
      totals: [],
      read,
      matched,
      skipped,
      skippedCount,
      scales,
      tooManyGroups: { groups: run.groupCount, limit: run.maxGroups },
    };
  }
  const groups = run.groupsInOrder();
  const scales = plan.amounts.map((_, a) => groups.maxScale(a));
  return {
    plan,
    groups,
    totals: totalsOf(plan, groups),
    read: run.read,
    matched: run.matched,
    skipped: run.skipped,
    skippedCount: run.skippedCount,
    scales,
  };
}

function totalsOf(plan: QueryPlan, groups: QueryGroups): QueryTotal[] {
  const totals = new Map<string, QueryTotal>();
  const c = plan.currencyGroup;
  const k = plan.kindGroup;
  // The kind a group's rows are of: its key when the kind was added, else read from the type it is grouped by.
  const kindOf = (i: number) => {
    if (k < 0) return undefined;
    return plan.groups[k].kind ? groups.key(i, k) : moneyKind(groups.key(i, k));
  };
  // A group's total by the value ids of its currency and kind columns (a few of each): no text made per group.
  const byIds = new Map<number, QueryTotal>();
  const empty = (currency: string | undefined, kind: string | undefined): QueryTotal => ({
    currency,
    kind,
    count: 0,
    amounts: plan.amounts.map(() => new AmountAccumulator()),
  });
  for (let i = 0; i < groups.length; i++) {
    const ids = (c < 0 ? 0 : groups.keyId(i, c) + 1) * 2 ** 26 + (k < 0 ? 0 : groups.keyId(i, k) + 1);
    let t = byIds.get(ids);
    if (!t) {
      const currency = c < 0 ? undefined : groups.key(i, c);
      const kind = kindOf(i);
      const at = `${currency ?? ''}\u0000${kind ?? ''}`;
      t = totals.get(at);
      if (!t) totals.set(at, (t = empty(currency, kind)));
      byIds.set(ids, t);
    }
    t.count += groups.count(i);
    groups.mergeInto(i, t.amounts);
  }
  // No row matched: without a currency or kind column there is still the one total (of nothing); with one, none.
  if (totals.size === 0 && plan.currencyGroup < 0 && k < 0) totals.set('', empty(undefined, undefined));
  return [...totals.values()].sort(
    (a, b) => textOrder(a.currency ?? '', b.currency ?? '') || kindRank(a.kind ?? '') - kindRank(b.kind ?? ''),
  );
}

/** A group column as a table heads it: `Created_date (day)`, `Transaction_type (charges/payouts)`. */
export function groupHeading(g: GroupColumn): string {
  if (g.kind) return kindHeading(g.name);
  return g.period ? `${g.name} (${g.period})` : g.name;
}

/** What a total is of, as its row names it: `EUR charges`, `EUR`, `payouts`, or '' (the one total). */
export const totalOf = (t: Pick<QueryTotal, 'currency' | 'kind'>): string => [t.currency, t.kind].filter((x) => x !== undefined).join(' ');

const textOrder = (a: string, b: string) => Number(a > b) - Number(a < b);

/** One aggregate of one accumulator, as shown: null when no amount was read. */
export function aggregateText(kind: AggregateKind, acc: AmountReading, scale: number): string | null {
  const value = aggregateValue(kind, acc, scale);
  return value === undefined ? null : formatAmount(value, scale);
}

function aggregateValue(kind: AggregateKind, acc: AmountReading, scale: number): Amount | undefined {
  switch (kind) {
    case 'sum':
      return acc.sum();
    case 'min':
      return acc.min();
    case 'max':
      return acc.max();
    case 'avg': {
      const sum = acc.sum();
      return sum && averageAmount(sum, acc.n, scale);
    }
  }
}

const reportedOf = new WeakMap<QueryPlan, [AggregateKind, number, string][]>();

/** The columns each aggregate reports, as [kind, amount position, column name] (made once per plan: asked per group). */
export function reportedAggregates(plan: QueryPlan): [AggregateKind, number, string][] {
  let reported = reportedOf.get(plan);
  if (!reported) {
    reported = AGGREGATES.flatMap((kind) =>
      plan.aggregates[kind].map((a): [AggregateKind, number, string] => [kind, a, plan.amounts[a].name]),
    );
    reportedOf.set(plan, reported);
  }
  return reported;
}

/** A total's value: one text; per currency or per kind; or per currency, then per kind. */
type TotalValue = string | null | Record<string, string | null | Record<string, string | null>>;

export type AggregateJson = Partial<Record<AggregateKind, Record<string, string | null>>>;

export interface QueryJson {
  groups: ({ key: Record<string, string>; count: number; skipped?: Record<string, number> } & AggregateJson)[];
  total: { count: number; skipped?: Record<string, number> } & Partial<Record<AggregateKind, Record<string, TotalValue>>>;
  rows: { read: number; matched: number };
  skipped: { count: number; rows: { row: number; line?: number; column: string; value: string; reason: string }[] };
}

function skippedCounts(plan: QueryPlan, accs: readonly AmountReading[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  accs.forEach((acc, a) => {
    if (acc.skipped > 0) out[plan.amounts[a].name] = acc.skipped;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The group at place i of the outcome's groups in the documented JSON shape. */
export function groupJson(o: QueryOutcome, i: number): QueryJson['groups'][number] {
  const plan = o.plan;
  const groups = o.groups;
  const key: Record<string, string> = {};
  plan.groups.forEach((c, j) => (key[c.name] = groups.key(i, j)));
  const out: QueryJson['groups'][number] = { key, count: groups.count(i) };
  const amounts = plan.amounts.map((_, a) => groups.amount(i, a));
  for (const [kind, a, name] of reportedAggregates(plan)) (out[kind] ??= {})[name] = aggregateText(kind, amounts[a], o.scales[a]);
  const skipped = skippedCounts(plan, amounts);
  if (skipped) out.skipped = skipped;
  return out;
}

/** Everything of the documented JSON (docs/cli.md, "paygate query") but the groups, which a writer streams one by one. */
export function queryJsonRest(o: QueryOutcome): Omit<QueryJson, 'groups'> {
  const plan = o.plan;
  const reported = reportedAggregates(plan);
  const total: QueryJson['total'] = { count: o.matched };
  for (const [kind, a, name] of reported) {
    const slot = (total[kind] ??= {});
    const text = (t: QueryTotal) => aggregateText(kind, t.amounts[a], o.scales[a]);
    if (plan.currencyGroup < 0 && plan.kindGroup < 0) slot[name] = text(o.totals[0]);
    else if (plan.kindGroup < 0) slot[name] = Object.fromEntries(o.totals.map((t) => [t.currency ?? '', text(t)]));
    else if (plan.currencyGroup < 0) slot[name] = Object.fromEntries(o.totals.map((t) => [t.kind ?? '', text(t)]));
    else {
      // Per currency, then per kind of money: {"EUR": {"charges": "…", "payouts": "…"}}.
      const byCurrency: Record<string, Record<string, string | null>> = {};
      for (const t of o.totals) (byCurrency[t.currency ?? ''] ??= {})[t.kind ?? ''] = text(t);
      slot[name] = byCurrency;
    }
  }
  const skippedTotal = skippedCounts(
    plan,
    plan.amounts.map((_, a) => {
      const acc = new AmountAccumulator();
      acc.skipped = o.totals.reduce((s, t) => s + t.amounts[a].skipped, 0);
      return acc;
    }),
  );
  if (skippedTotal) total.skipped = skippedTotal;
  return {
    total,
    rows: { read: o.read, matched: o.matched },
    skipped: { count: o.skippedCount, rows: o.skipped.map((s) => ({ ...s })) },
  };
}
