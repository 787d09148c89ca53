// What a query found, in the order people read it (groups by their key), with totals per currency, and
// as the JSON every face writes: amounts as decimal strings with the report's scale (the most decimals
// the column's amounts have), never numbers, so nothing rounds them on the way.

import { averageAmount, compareAmounts, formatAmount, parseAmount, type Amount } from '../amounts';
import { AmountAccumulator } from './aggregate';
import { AGGREGATES, type AggregateKind, type QueryPlan } from './plan';
import type { GroupState, QueryRun, SkippedAmount } from './run';

export interface QueryTotal {
  /** The currency these totals are in; undefined when the query names no currency column. */
  currency: string | undefined;
  count: number;
  amounts: AmountAccumulator[];
}

export interface QueryOutcome {
  plan: QueryPlan;
  /** Sorted by their key, column by column (numbers as numbers). */
  groups: GroupState[];
  /** One per currency, in order; one without a currency when the query has no currency column. */
  totals: QueryTotal[];
  read: number;
  matched: number;
  skipped: SkippedAmount[];
  skippedCount: number;
  /** Per amount column: the decimals its amounts are shown with. */
  scales: number[];
}

export function queryOutcome(run: QueryRun): QueryOutcome {
  const plan = run.plan;
  const groups = run.groupStates().sort((a, b) => compareKeys(a.key, b.key));
  const scales = plan.amounts.map((_, a) => groups.reduce((s, g) => Math.max(s, g.amounts[a].scale), 0));
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

function totalsOf(plan: QueryPlan, groups: GroupState[]): QueryTotal[] {
  const byCurrency = new Map<string | undefined, QueryTotal>();
  const currencyOf = (g: GroupState) => (plan.currencyGroup < 0 ? undefined : g.key[plan.currencyGroup]);
  for (const g of groups) {
    const currency = currencyOf(g);
    let t = byCurrency.get(currency);
    if (!t) byCurrency.set(currency, (t = { currency, count: 0, amounts: plan.amounts.map(() => new AmountAccumulator()) }));
    t.count += g.count;
    g.amounts.forEach((acc, a) => t.amounts[a].merge(acc));
  }
  // No row matched: without a currency column there is still the one total (of nothing); with one, none.
  if (byCurrency.size === 0 && plan.currencyGroup < 0)
    byCurrency.set(undefined, { currency: undefined, count: 0, amounts: plan.amounts.map(() => new AmountAccumulator()) });
  return [...byCurrency.values()].sort((a, b) => compareKeyPart(a.currency ?? '', b.currency ?? ''));
}

function compareKeyPart(a: string, b: string): number {
  const x = parseAmount(a);
  const y = x && parseAmount(b);
  if (x && y) return compareAmounts(x, y) || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareKeyPart(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** One aggregate of one accumulator, as shown: null when no amount was read. */
export function aggregateText(kind: AggregateKind, acc: AmountAccumulator, scale: number): string | null {
  const value = aggregateValue(kind, acc, scale);
  return value === undefined ? null : formatAmount(value, scale);
}

function aggregateValue(kind: AggregateKind, acc: AmountAccumulator, scale: number): Amount | undefined {
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

/** The columns each aggregate reports, as [kind, amount position, column name]. */
export function reportedAggregates(plan: QueryPlan): [AggregateKind, number, string][] {
  return AGGREGATES.flatMap((kind) => plan.aggregates[kind].map((a): [AggregateKind, number, string] => [kind, a, plan.amounts[a].name]));
}

export type AggregateJson = Partial<Record<AggregateKind, Record<string, string | null>>>;

export interface QueryJson {
  groups: ({ key: Record<string, string>; count: number; skipped?: Record<string, number> } & AggregateJson)[];
  total: { count: number; skipped?: Record<string, number> } & Partial<
    Record<AggregateKind, Record<string, string | null | Record<string, string | null>>>
  >;
  rows: { read: number; matched: number };
  skipped: { count: number; rows: { row: number; line?: number; column: string; value: string; reason: string }[] };
}

function skippedCounts(plan: QueryPlan, accs: AmountAccumulator[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  accs.forEach((acc, a) => {
    if (acc.skipped > 0) out[plan.amounts[a].name] = acc.skipped;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The documented JSON shape (docs/cli.md, "paygate query"). */
export function queryJson(o: QueryOutcome): QueryJson {
  const plan = o.plan;
  const reported = reportedAggregates(plan);
  const groups = o.groups.map((g) => {
    const key: Record<string, string> = {};
    plan.groups.forEach((c, j) => (key[c.name] = g.key[j]));
    const out: QueryJson['groups'][number] = { key, count: g.count };
    for (const [kind, a, name] of reported) (out[kind] ??= {})[name] = aggregateText(kind, g.amounts[a], o.scales[a]);
    const skipped = skippedCounts(plan, g.amounts);
    if (skipped) out.skipped = skipped;
    return out;
  });
  const total: QueryJson['total'] = { count: o.matched };
  for (const [kind, a, name] of reported) {
    const slot = (total[kind] ??= {});
    if (plan.currencyGroup < 0) slot[name] = aggregateText(kind, o.totals[0].amounts[a], o.scales[a]);
    else slot[name] = Object.fromEntries(o.totals.map((t) => [t.currency ?? '', aggregateText(kind, t.amounts[a], o.scales[a])]));
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
    groups,
    total,
    rows: { read: o.read, matched: o.matched },
    skipped: { count: o.skippedCount, rows: o.skipped.map((s) => ({ ...s })) },
  };
}
