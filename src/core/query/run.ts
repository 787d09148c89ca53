// A query run over a report's rows as they come, in pieces (the report reader's shape: one text and the
// offsets of every cell), never holding a row: memory grows with the groups, not the rows. Each row is
// tested, its group found, and its amounts added; an amount that cannot be read is skipped and noted
// with its row (and line, when the caller knows lines), never taken as zero.

import { formatIsoDate, fromDayNumber } from '../dates';
import { periodLabel } from '../forecast/periods';
import { readDecimal } from './cells';
import { cellText, type Cells } from './filter';
import { GroupTable, QueryGroups, type GroupView } from './groups';
import { Interner } from './interner';
import { orderByRanks, rankValues } from './order';
import type { Period } from '../periods';
import type { QueryPlan } from './plan';

/** A row whose amount an aggregate could not read: skipped, and named. */
export interface SkippedAmount {
  /** 0-based among the report's data rows. */
  row: number;
  /** 1-based line of the report the row starts on, when known. */
  line?: number;
  column: string;
  value: string;
  reason: 'empty' | 'not an amount';
}

/**
 * The most groups `paygate query` keeps unless told otherwise (--max-groups). A group holds its key and
 * running aggregates (a few hundred bytes); past the bound a run keeps no more groups and only counts the
 * distinct keys it meets (the interned values and one slot of the tree each), so a group per row of a
 * million-row report costs tens of megabytes and ends in a plain "too many groups" with their number.
 */
export const DEFAULT_MAX_GROUPS = 100_000;

/** Stands in the tree for a group met past the bound: counted, not kept. */
const PAST_BOUND = -1;

/** Skipped amounts named one by one, at most this many; the rest are counted. */
const SKIPPED_NAMED = 1000;

export class QueryRun {
  read = 0;
  matched = 0;
  skippedCount = 0;
  readonly skipped: SkippedAmount[] = [];
  /**
   * The groups as a tree of arrays indexed by each group column's value id, the last level holding the
   * group's index in `table`: an array read per column, faster than hashing a key (the groups of five
   * million rows by currency and day are found in a few array reads each).
   */
  private readonly tree: unknown[] = [];
  /** The groups, column by column (groups.ts): each one's value ids, row count and amounts. */
  private readonly table: GroupTable;
  /** The piece's rows the expression keeps (1), and each level's value ids, row by row (addRows). */
  private keep = new Uint8Array(0);
  private columnIds: Int32Array[] = [];
  private readonly interners: Interner[];
  /**
   * The group columns in the tree's order, by their place in the plan: the currency and the kind a query
   * added come first. They have a handful of values, so a column of many values (an id per row) is the last
   * level, one array of all its groups, instead of a small array per value for each level below it.
   */
  private readonly levels: number[];
  private readonly labels = new Map<Period, Map<number, string>>();
  /** Groups met past `maxGroups`: counted only. */
  private pastBound = 0;

  /** `maxGroups`: the most groups kept (see DEFAULT_MAX_GROUPS); unbounded when absent. */
  constructor(
    readonly plan: QueryPlan,
    readonly maxGroups = Infinity,
  ) {
    this.interners = plan.groups.map(
      (g) => new Interner(g.period === undefined ? undefined : (day) => this.label(g.period!, day), g.kind === true),
    );
    const added = (j: number) => (plan.currencyAdded && j === plan.currencyGroup) || (plan.kindAdded && j === plan.kindGroup);
    const all = plan.groups.map((_, j) => j);
    this.levels = [...all.filter(added), ...all.filter((j) => !added(j))];
    this.columnIds = this.levels.map(() => new Int32Array(0));
    // Least and most are kept only where min or max is asked for.
    const { min, max } = plan.aggregates;
    this.table = new GroupTable(
      plan.groups.length,
      plan.amounts.map((_, a) => min.includes(a) || max.includes(a)),
    );
  }

  /** Every distinct group met, those past the bound included. */
  get groupCount(): number {
    return this.table.length + this.pastBound;
  }

  /** Whether more groups were met than `maxGroups`: the groups kept are then not the answer. */
  get overBound(): boolean {
    return this.pastBound > 0;
  }

  /**
   * Runs `rows` rows of `p` (`width` cells each). `firstRow` is the index of the first among the report's
   * rows; `lineOf(r)` the line row r of the piece starts on. `groupOf`, when given, gets each row's group
   * id at its report row index (-1: not matched), for listing a group's rows later.
   */
  addRows(p: Cells, rows: number, width: number, firstRow: number, lineOf?: (r: number) => number, groupOf?: Int32Array): void {
    const test = this.plan.test;
    const amounts = this.plan.amounts;
    const columns = amounts.map((a) => a.index);
    const sums = this.table.amounts;
    this.read += rows;
    if (this.keep.length < rows) this.grow(rows);
    // A column at a time: the rows the expression keeps, then each group column's ids (interner.ts).
    const keep = test === undefined ? null : this.keep;
    if (keep !== null) for (let r = 0, i = 0; r < rows; r++, i += width) keep[r] = test!(p, i) ? 1 : 0;
    const groups = this.plan.groups;
    for (let l = 0; l < this.levels.length; l++) {
      const j = this.levels[l];
      this.interners[j].fill(p, rows, width, groups[j].index, keep, this.columnIds[l]);
    }
    for (let r = 0, i = 0; r < rows; r++, i += width) {
      if (keep !== null && keep[r] === 0) {
        if (groupOf) groupOf[firstRow + r] = -1;
        continue;
      }
      this.matched++;
      const g = this.groupAt(r);
      if (groupOf) groupOf[firstRow + r] = g;
      if (g < 0) continue;
      this.table.counts[g]++;
      for (let a = 0; a < columns.length; a++) {
        const k = i + columns[a];
        if (readDecimal(p.text, p.start[k], p.end[k])) sums[a].addRead(g);
        else {
          sums[a].skip(g);
          this.skip(p, k, firstRow + r, lineOf?.(r), amounts[a].name);
        }
      }
    }
  }

  /** Room for a piece of `rows` rows in the per-piece columns. */
  private grow(rows: number): void {
    this.keep = new Uint8Array(rows);
    this.columnIds = this.levels.map(() => new Int32Array(rows));
  }

  private skip(p: Cells, k: number, row: number, line: number | undefined, column: string): void {
    this.skippedCount++;
    if (this.skipped.length >= SKIPPED_NAMED) return;
    const value = cellText(p, k);
    this.skipped.push({ row, line, column, value, reason: value.trim() === '' ? 'empty' : 'not an amount' });
  }

  /** The group of row r of the piece (its ids in `columnIds`); -1 for a group past the bound (counted the first time it is met). */
  private groupAt(r: number): number {
    const columnIds = this.columnIds;
    const last = columnIds.length - 1;
    let node = this.tree;
    for (let l = 0; l < last; l++) {
      const id = columnIds[l][r];
      let next = node[id] as unknown[] | undefined;
      if (next === undefined) node[id] = next = [];
      node = next;
    }
    const id = last < 0 ? 0 : columnIds[last][r];
    const g = node[id] as number | undefined;
    if (g !== undefined) return g;
    const table = this.table;
    if (table.length >= this.maxGroups) {
      node[id] = PAST_BOUND;
      this.pastBound++;
      return PAST_BOUND;
    }
    const added = table.add();
    const levels = this.levels;
    for (let l = 0; l < levels.length; l++) table.ids[added * table.parts + levels[l]] = columnIds[l][r];
    node[id] = added;
    return added;
  }

  private label(period: Period, day: number): string {
    let labels = this.labels.get(period);
    if (!labels) this.labels.set(period, (labels = new Map()));
    let label = labels.get(day);
    if (label === undefined) {
      const date = fromDayNumber(day);
      label = period === 'day' ? formatIsoDate(date) : periodLabel(period, date);
      labels.set(day, label);
    }
    return label;
  }

  /** The groups so far, in order of first appearance (their ids), as objects. */
  groupStates(): GroupView[] {
    const order = new Int32Array(this.table.length);
    for (let g = 0; g < order.length; g++) order[g] = g;
    return this.groups(order).slice();
  }

  /** The groups so far in order of their key, column by column, numbers as numbers (order.ts). */
  groupsInOrder(): QueryGroups {
    const parts = this.plan.groups.length;
    const count = this.table.length;
    if (parts === 0) return this.groups(Int32Array.from({ length: count }, (_, g) => g));
    const ranks = this.interners.map((interner) => rankValues(interner.values));
    return this.groups(orderByRanks(count, parts, this.table.ids, ranks));
  }

  private groups(order: Int32Array): QueryGroups {
    return new QueryGroups(
      this.table,
      this.interners.map((i) => i.values),
      order,
    );
  }
}
