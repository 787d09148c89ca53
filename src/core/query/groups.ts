// A query's groups, column by column (run.ts keeps them, result.ts and the faces read them): per group its
// value id in each group column (the values themselves interned once per column, interner.ts), its row
// count and its amounts (amountColumn.ts), all in typed arrays grown by doubling. A million groups are a
// few arrays, not a million objects of a key, a count and accumulators for the garbage collector to walk.

import type { AmountAccumulator, AmountReading } from './aggregate';
import { AmountColumn } from './amountColumn';

/** One group as an object, for the few a page lists (QueryGroups.slice): made when asked, never kept. */
export interface GroupView {
  /** Order of first appearance: the id the table uses to list a group's rows. */
  id: number;
  /** One value per group column: the cell, or its date's period label. */
  key: string[];
  count: number;
  /** One per amount column of the plan. */
  amounts: AmountReading[];
}

export class GroupTable {
  length = 0;
  /** Group g's value id in group column j at g * parts + j. */
  ids: Int32Array;
  counts: Uint32Array;
  /** One per amount column of the plan. */
  readonly amounts: AmountColumn[];

  /** `ranged[a]`: amount column a keeps its least and most (min or max is asked for). */
  constructor(
    readonly parts: number,
    ranged: readonly boolean[],
    private capacity = 64,
  ) {
    this.ids = new Int32Array(capacity * parts);
    this.counts = new Uint32Array(capacity);
    this.amounts = ranged.map((r) => new AmountColumn(r, capacity));
  }

  /** A new group, its value ids to be written at ids[g * parts …]: its index g. */
  add(): number {
    if (this.length === this.capacity) this.grow();
    return this.length++;
  }

  private grow(): void {
    this.capacity *= 2;
    const ids = new Int32Array(this.capacity * this.parts);
    ids.set(this.ids);
    this.ids = ids;
    const counts = new Uint32Array(this.capacity);
    counts.set(this.counts);
    this.counts = counts;
    for (const a of this.amounts) a.grow(this.capacity);
  }
}

/**
 * The groups of a query in the order people read them (`order[i]`: the group at place i), read by
 * accessors: `key(i, j)`, `count(i)`, `amount(i, a)`. The text, CSV and JSON writers read a million groups
 * this way without an object per group; `slice` makes objects for the few a page shows.
 */
export class QueryGroups {
  constructor(
    private readonly table: GroupTable,
    /** Per group column, its distinct values by id. */
    private readonly values: readonly (readonly string[])[],
    private readonly order: Int32Array,
  ) {}

  /** No groups (a query over its bound of groups, or before it ran). */
  static none(): QueryGroups {
    return new QueryGroups(new GroupTable(0, [], 0), [], new Int32Array(0));
  }

  get length(): number {
    return this.order.length;
  }

  /** The id (order of first appearance) of the group at place i. */
  id(i: number): number {
    return this.order[i];
  }

  /** The value of group column j of the group at place i. */
  key(i: number, j: number): string {
    const t = this.table;
    return this.values[j][t.ids[this.order[i] * t.parts + j]];
  }

  /** The value id of group column j of the group at place i (the same id, the same value). */
  keyId(i: number, j: number): number {
    const t = this.table;
    return t.ids[this.order[i] * t.parts + j];
  }

  /** How many distinct values group column j holds (its value ids are 0 up to this). */
  valueCount(j: number): number {
    return this.values[j].length;
  }

  count(i: number): number {
    return this.table.counts[this.order[i]];
  }

  /** Amount column a of the group at place i. */
  amount(i: number, a: number): AmountReading {
    return this.table.amounts[a].at(this.order[i]);
  }

  /** The amounts of the group at place i added to `totals` (one per amount column). */
  mergeInto(i: number, totals: readonly AmountAccumulator[]): void {
    const g = this.order[i];
    const columns = this.table.amounts;
    for (let a = 0; a < columns.length; a++) columns[a].mergeInto(g, totals[a]);
  }

  /** The largest scale of amount column a among the groups. */
  maxScale(a: number): number {
    return this.table.amounts[a].maxScale(this.table.length);
  }

  /** The rows of the group whose id is `id` (0 when there is none). */
  countOfId(id: number): number {
    return id >= 0 && id < this.table.length ? this.table.counts[id] : 0;
  }

  /** The groups at places [from, to) as objects. */
  slice(from = 0, to = this.length): GroupView[] {
    const out: GroupView[] = [];
    const parts = this.table.parts;
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) {
      const key = Array.from({ length: parts }, (_, j) => this.key(i, j));
      const amounts = this.table.amounts.map((_, a) => this.amount(i, a));
      out.push({ id: this.id(i), key, count: this.count(i), amounts });
    }
    return out;
  }
}
