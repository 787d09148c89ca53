// A query as asked (the CLI's options, a saved view, the table's controls) checked against a report's
// header and turned into a plan: the row test, the group columns (a date column by day, week or month),
// the amount columns and the currency column every amount is summed within. Amounts of two currencies
// are never added: when an amount is aggregated, the currency column joins the group columns; and where the
// report says which row is which (Transaction_type), so does each row's kind of money (kinds.ts).

import type { Expr } from './ast';
import { defaultCurrencyColumn, defaultDateColumn, findColumn, isDateColumnName } from './columns';
import { compileFilter, type RowTest } from './filter';
import { defaultKindColumn } from './kinds';
import { parseExpression } from './parser';
import type { QueryProblem } from './problem';
import { isCvvName } from '../output';
import type { Period } from '../periods';

export type AggregateKind = 'sum' | 'min' | 'max' | 'avg';
export const AGGREGATES: readonly AggregateKind[] = ['sum', 'min', 'max', 'avg'];

/** A query in the words of its options (the CLI's flags, a saved view's fields, the table's controls). */
export interface QuerySpec {
  /** The filter expression; empty or absent: every row. */
  where?: string;
  groupBy?: readonly string[];
  /** Group the date columns among groupBy (or, when there is none, the report's default date column) by this period. */
  by?: Period;
  count?: boolean;
  sum?: readonly string[];
  min?: readonly string[];
  max?: readonly string[];
  avg?: readonly string[];
  /** The column holding each amount's currency: absent, the report's Currency column; null, none (one currency). */
  currency?: string | null;
  /** The most groups kept (QueryRun); past it the outcome says how many there were and shows none. Unbounded when absent. */
  maxGroups?: number;
}

export interface GroupColumn {
  index: number;
  name: string;
  period?: Period;
  /** The group's value is the row's kind of money (charges, payouts…) read from the cell, not the cell. */
  kind?: true;
}

export interface QueryPlan {
  columns: readonly string[];
  spec: QuerySpec;
  expr: Expr | undefined;
  /** Absent: every row matches. */
  test: RowTest | undefined;
  groups: GroupColumn[];
  /** Columns whose amounts are read (each once, whatever aggregates name it). */
  amounts: { index: number; name: string }[];
  /** Per aggregate, the positions in `amounts` it reports. */
  aggregates: Record<AggregateKind, number[]>;
  /** Position in `groups` of the currency column, or -1 (no amount aggregate, or `currency: null`). */
  currencyGroup: number;
  /** The currency column was added to the groups because an amount is aggregated. */
  currencyAdded: boolean;
  /**
   * Position in `groups` of the column saying each row's kind of money (Transaction_type), or -1 (no amount
   * aggregate, or no such column): the column itself when grouped by it, else the kind read from it.
   */
  kindGroup: number;
  /** The kind was added to the groups because an amount is aggregated (charges and payouts are never added). */
  kindAdded: boolean;
  /** Report a count per group: asked for, or nothing else was. */
  count: boolean;
}

/** What is wrong with a query: the option it came from, and for the expression the place in it. */
export interface PlanProblem {
  option: 'where' | 'group-by' | 'by' | AggregateKind | 'currency';
  message: string;
  /** For `where`: where in the expression. */
  place?: QueryProblem;
}

export type PlanResult = { ok: true; plan: QueryPlan } | { ok: false; problem: PlanProblem };

class Refused {
  constructor(readonly problem: PlanProblem) {}
}

function column(columns: readonly string[], name: string, option: PlanProblem['option']): { index: number; name: string } {
  const found = findColumn(columns, name.trim());
  if (!found.ok) throw new Refused({ option, message: found.message });
  return { index: found.index, name: columns[found.index] };
}

export function planQuery(columns: readonly string[], spec: QuerySpec): PlanResult {
  try {
    return { ok: true, plan: plan(columns, spec) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, problem: err.problem };
    throw err;
  }
}

function plan(columns: readonly string[], spec: QuerySpec): QueryPlan {
  const parsed = parseExpression(spec.where ?? '', columns);
  if (!parsed.ok) throw new Refused({ option: 'where', message: parsed.problem.message, place: parsed.problem });
  const groups = groupColumns(columns, spec);
  const amounts: { index: number; name: string }[] = [];
  const aggregates = { sum: [], min: [], max: [], avg: [] } as Record<AggregateKind, number[]>;
  for (const kind of AGGREGATES) {
    for (const name of spec[kind] ?? []) {
      const c = column(columns, name, kind);
      let at = amounts.findIndex((a) => a.index === c.index);
      if (at < 0) at = amounts.push(c) - 1;
      if (!aggregates[kind].includes(at)) aggregates[kind].push(at);
    }
  }
  let currencyGroup = -1;
  let currencyAdded = false;
  if (amounts.length > 0 && spec.currency !== null) {
    const currency = currencyColumn(columns, spec.currency);
    currencyGroup = groups.findIndex((g) => g.index === currency.index && g.period === undefined);
    if (currencyGroup < 0) {
      currencyGroup = groups.push(currency) - 1;
      currencyAdded = true;
    }
  }
  const kinds = amounts.length > 0 ? kindGroupOf(columns, groups) : { kindGroup: -1, kindAdded: false };
  return {
    columns,
    spec,
    expr: parsed.expr,
    test: parsed.expr && compileFilter(parsed.expr),
    groups,
    amounts,
    aggregates,
    currencyGroup,
    currencyAdded,
    ...kinds,
    count: spec.count === true || amounts.length === 0,
  };
}

/** The groups' kind of money: the report's type column as grouped, else its kind added as a group. */
function kindGroupOf(columns: readonly string[], groups: GroupColumn[]): { kindGroup: number; kindAdded: boolean } {
  const index = defaultKindColumn(columns);
  if (index < 0) return { kindGroup: -1, kindAdded: false };
  const grouped = groups.findIndex((g) => g.index === index && g.period === undefined);
  if (grouped >= 0) return { kindGroup: grouped, kindAdded: false };
  return { kindGroup: groups.push({ index, name: columns[index], kind: true }) - 1, kindAdded: true };
}

function currencyColumn(columns: readonly string[], name: string | undefined): { index: number; name: string } {
  if (name !== undefined) return column(columns, name, 'currency');
  const found = defaultCurrencyColumn(columns);
  if (found < 0) {
    throw new Refused({
      option: 'currency',
      message:
        'the report has no Currency column, and amounts of two currencies are never added: name the column holding ' +
        "each amount's currency, or say there is none (one currency)",
    });
  }
  return { index: found, name: columns[found] };
}

function groupColumns(columns: readonly string[], spec: QuerySpec): GroupColumn[] {
  const groups: GroupColumn[] = [];
  for (const name of spec.groupBy ?? []) {
    if (name.trim() === '') continue;
    const c = column(columns, name, 'group-by');
    // A group's key is printed; a CVV is printed nowhere (docs/limits.md), so its column makes no groups.
    if (isCvvName(c.name))
      throw new Refused({
        option: 'group-by',
        message: `"${c.name}" holds card verification values, which are never shown: group by another column`,
      });
    if (!groups.some((g) => g.index === c.index)) groups.push(c);
  }
  if (spec.by === undefined) return groups;
  const dated = groups.filter((g) => isDateColumnName(g.name));
  if (dated.length > 0) {
    for (const g of dated) g.period = spec.by;
    return groups;
  }
  const date = defaultDateColumn(columns);
  if (date < 0) throw new Refused({ option: 'by', message: `no date column to group by ${spec.by}: name one among the group columns` });
  groups.push({ index: date, name: columns[date], period: spec.by });
  return groups;
}
