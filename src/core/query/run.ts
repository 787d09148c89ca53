// A query run over a report's rows as they come, in pieces (the report reader's shape: one text and the
// offsets of every cell), never holding a row: memory grows with the groups, not the rows. Each row is
// tested, its group found, and its amounts added; an amount that cannot be read is skipped and noted
// with its row (and line, when the caller knows lines), never taken as zero.

import { formatIsoDate, fromDayNumber } from '../dates';
import { periodLabel } from '../forecast/periods';
import { AmountAccumulator } from './aggregate';
import { moment, readDate, readDecimal } from './cells';
import { cellText, type Cells } from './filter';
import { moneyKind } from './kinds';
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

/**
 * The distinct values of one group column, each given a small id. A short cell (up to six Latin-1
 * characters, as a currency or a type code) is looked up by a number made of its characters, without
 * cutting a string for it; a longer one by its text. A date column by period is looked up by its day.
 */
class Interner {
  readonly values: string[] = [];
  private readonly byCode = new Map<number, number>();
  private readonly byText = new Map<string, number>();
  /** Ids of days near the first one met (±90 years), by day number: an array read, not a map lookup. */
  private dayIds: Int32Array | undefined;
  private dayBase = 0;

  /** For a kind column: the cells' own ids, and the kind id of each (a type is classified once, not per row). */
  private readonly cells: Interner | undefined;
  private readonly kindOfCell: number[] = [];

  constructor(
    private readonly labelOf?: (day: number) => string,
    kind = false,
  ) {
    this.cells = kind ? new Interner() : undefined;
  }

  /** The id of the cell p[k]. No closure or string per call: this runs for every row and group column. */
  idOf(p: Cells, k: number): number {
    if (this.cells !== undefined) {
      const cell = this.cells.idOf(p, k);
      const id = this.kindOfCell[cell];
      return id !== undefined ? id : (this.kindOfCell[cell] = this.idOfText(moneyKind(this.cells.values[cell])));
    }
    const s = p.text;
    const from = p.start[k];
    const to = p.end[k];
    if (this.labelOf !== undefined && readDate(s, from, to)) return this.idOfDay(moment.day);
    const n = to - from;
    if (n > 6 || (p.escaped !== null && p.escaped[k] === 1)) return this.idOfText(cellText(p, k));
    let code = 0;
    for (let j = from; j < to; j++) {
      const c = s.charCodeAt(j);
      if (c > 255) return this.idOfText(cellText(p, k));
      code = code * 256 + c;
    }
    code = code * 8 + n;
    const id = this.byCode.get(code);
    return id !== undefined ? id : this.remember(code, s.slice(from, to));
  }

  private idOfDay(day: number): number {
    if (this.dayIds === undefined) {
      this.dayIds = new Int32Array(DAY_SPAN).fill(-1);
      this.dayBase = day - DAY_SPAN / 2;
    }
    const at = day - this.dayBase;
    if (at < 0 || at >= DAY_SPAN) {
      const id = this.byCode.get(-1 - day);
      return id !== undefined ? id : this.remember(-1 - day, this.labelOf!(day));
    }
    let id = this.dayIds[at];
    if (id < 0) id = this.dayIds[at] = this.remember(-1 - day, this.labelOf!(day));
    return id;
  }

  /** A code met for the first time: its value's id (a date's label and a cell of that text are one group). */
  private remember(code: number, value: string): number {
    const id = this.idOfText(value);
    this.byCode.set(code, id);
    return id;
  }

  private idOfText(text: string): number {
    let id = this.byText.get(text);
    if (id === undefined) {
      id = this.values.length;
      // A copy of its own: a value cut from a piece of the report (13 characters or more) would keep the
      // whole piece alive, and a streamed report would stay in memory, a piece per distinct value.
      const own = text.length >= 13 ? (text + ' ').slice(0, -1) : text;
      this.values.push(own);
      this.byText.set(own, id);
    }
    return id;
  }
}

/** Days an array of day ids covers around the first day met. */
const DAY_SPAN = 65536;

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
  private readonly ids: Int32Array;
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
    this.ids = new Int32Array(plan.groups.length);
    const added = (j: number) => (plan.currencyAdded && j === plan.currencyGroup) || (plan.kindAdded && j === plan.kindGroup);
    const all = plan.groups.map((_, j) => j);
    this.levels = [...all.filter(added), ...all.filter((j) => !added(j))];
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
    for (let r = 0, i = 0; r < rows; r++, i += width) {
      if (test !== undefined && !test(p, i)) {
        if (groupOf) groupOf[firstRow + r] = -1;
        continue;
      }
      this.matched++;
      const g = this.groupAt(p, i);
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

  private skip(p: Cells, k: number, row: number, line: number | undefined, column: string): void {
    this.skippedCount++;
    if (this.skipped.length >= SKIPPED_NAMED) return;
    const value = cellText(p, k);
    this.skipped.push({ row, line, column, value, reason: value.trim() === '' ? 'empty' : 'not an amount' });
  }

  /** The row's group; undefined for a group past the bound (counted the first time it is met). */
  private groupAt(p: Cells, i: number): GroupState | undefined {
    const groups = this.plan.groups;
    const interners = this.interners;
    const levels = this.levels;
    const last = levels.length - 1;
    let node = this.tree;
    for (let l = 0; l < last; l++) {
      const j = levels[l];
      const id = (this.ids[j] = interners[j].idOf(p, i + groups[j].index));
      let next = node[id] as unknown[] | undefined;
      if (next === undefined) node[id] = next = [];
      node = next;
    }
    const j = last < 0 ? 0 : levels[last];
    const id = last < 0 ? 0 : (this.ids[j] = interners[j].idOf(p, i + groups[j].index));
    let g = node[id] as GroupState | typeof PAST_BOUND | undefined;
    if (g === PAST_BOUND) return undefined;
    if (g === undefined && this.list.length >= this.maxGroups) {
      node[id] = PAST_BOUND;
      this.pastBound++;
      return undefined;
    }
    if (g === undefined) {
      const key = groups.map((_, j) => interners[j].values[this.ids[j]]);
      for (let k = 0; k < groups.length; k++) this.groupIds.push(this.ids[k]);
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
