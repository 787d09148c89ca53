// A query run over a report's rows as they come, in pieces (the report reader's shape: one text and the
// offsets of every cell), never holding a row: memory grows with the groups, not the rows. Each row is
// tested, its group found, and its amounts added; an amount that cannot be read is skipped and noted
// with its row (and line, when the caller knows lines), never taken as zero.

import { formatIsoDate, fromDayNumber } from '../dates';
import { periodLabel } from '../forecast/periods';
import { AmountAccumulator } from './aggregate';
import { readDecimal } from './cells';
import { cellText, type Cells } from './filter';
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

export interface GroupState {
  /** Order of first appearance: the id the table uses to list a group's rows. */
  id: number;
  /** One value per group column: the cell, or its date's period label. */
  key: string[];
  count: number;
  /** One per amount column of the plan. */
  amounts: AmountAccumulator[];
}

/**
 * The most groups `paygate query` keeps unless told otherwise (--max-groups). A group holds its key and
 * running aggregates (a few hundred bytes); past the bound a run keeps no more groups and only counts the
 * distinct keys it meets (the interned values and one slot of the tree each), so a group per row of a
 * million-row report costs tens of megabytes and ends in a plain "too many groups" with their number.
 */
export const DEFAULT_MAX_GROUPS = 100_000;

/** Stands in the tree for a group met past the bound: counted, not kept. */
const PAST_BOUND = Symbol('past the bound');

/** Skipped amounts named one by one, at most this many; the rest are counted. */
const SKIPPED_NAMED = 1000;

export class QueryRun {
  read = 0;
  matched = 0;
  skippedCount = 0;
  readonly skipped: SkippedAmount[] = [];
  /**
   * The groups as a tree of arrays indexed by each group column's value id, the last level holding the
   * group: an array read per column, faster than hashing a key (the groups of five million rows by
   * currency and day are found in a few array reads each).
   */
  private readonly tree: unknown[] = [];
  private readonly list: GroupState[] = [];
  /** Each group's value id in each group column, group after group (for putting them in order). */
  private readonly groupIds: number[] = [];
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
  }

  /** One accumulator per amount column, keeping least and most only where min or max is asked for. */
  newAccumulators(): AmountAccumulator[] {
    const { min, max } = this.plan.aggregates;
    return this.plan.amounts.map((_, a) => new AmountAccumulator(min.includes(a) || max.includes(a)));
  }

  /** Every distinct group met, those past the bound included. */
  get groupCount(): number {
    return this.list.length + this.pastBound;
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
      if (g === undefined) {
        if (groupOf) groupOf[firstRow + r] = -1;
        continue;
      }
      if (groupOf) groupOf[firstRow + r] = g.id;
      g.count++;
      for (let a = 0; a < columns.length; a++) {
        const k = i + columns[a];
        if (readDecimal(p.text, p.start[k], p.end[k])) g.amounts[a].addRead();
        else {
          g.amounts[a].skipped++;
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

  /** The group of row r of the piece (its ids in `columnIds`); undefined for a group past the bound (counted the first time it is met). */
  private groupAt(r: number): GroupState | undefined {
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
    let g = node[id] as GroupState | typeof PAST_BOUND | undefined;
    if (g === PAST_BOUND) return undefined;
    if (g === undefined && this.list.length >= this.maxGroups) {
      node[id] = PAST_BOUND;
      this.pastBound++;
      return undefined;
    }
    if (g === undefined) {
      const ids = this.plan.groups.map((_, j) => columnIds[this.levels.indexOf(j)][r]);
      const key = ids.map((id, j) => this.interners[j].values[id]);
      for (const id of ids) this.groupIds.push(id);
      g = { id: this.list.length, key, count: 0, amounts: this.newAccumulators() };
      node[id] = g;
      this.list.push(g);
    }
    return g;
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

  /** The groups so far, in order of first appearance (their ids). */
  groupStates(): GroupState[] {
    return this.list.slice();
  }

  /** The groups so far in order of their key, column by column, numbers as numbers (order.ts). */
  groupsInOrder(): GroupState[] {
    const parts = this.plan.groups.length;
    const list = this.list;
    if (parts === 0) return list.slice();
    const ranks = this.interners.map((interner) => rankValues(interner.values));
    const order = orderByRanks(list.length, parts, this.groupIds, ranks);
    const out = new Array<GroupState>(list.length);
    for (let k = 0; k < order.length; k++) out[k] = list[order[k]];
    return out;
  }
}
