// A query run over a report's rows as they come, in pieces (the report reader's shape: one text and the
// offsets of every cell), never holding a row: memory grows with the groups, not the rows. Each row is
// tested, its group found, and its amounts added; an amount that cannot be read is skipped and noted
// with its row (and line, when the caller knows lines), never taken as zero.

import { formatIsoDate, fromDayNumber } from '../dates';
import { periodLabel } from '../forecast/periods';
import { AmountAccumulator } from './aggregate';
import { moment, readDate, readDecimal } from './cells';
import { cellText, type Cells } from './filter';
import type { Period, QueryPlan } from './plan';

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

/** Skipped amounts named one by one, at most this many; the rest are counted. */
export const SKIPPED_NAMED = 1000;

const SEPARATOR = '\u001f';

export class QueryRun {
  read = 0;
  matched = 0;
  skippedCount = 0;
  readonly skipped: SkippedAmount[] = [];
  private readonly groups = new Map<string, GroupState>();
  private readonly labels = new Map<Period, Map<number, string>>();

  constructor(readonly plan: QueryPlan) {}

  get groupCount(): number {
    return this.groups.size;
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

  private groupAt(p: Cells, i: number): GroupState {
    const groups = this.plan.groups;
    let key = groups.length === 0 ? '' : this.part(0, p, i);
    for (let j = 1; j < groups.length; j++) key += SEPARATOR + this.part(j, p, i);
    let g = this.groups.get(key);
    if (g === undefined) {
      const parts = groups.length === 0 ? [] : groups.length === 1 ? [key] : key.split(SEPARATOR);
      g = { id: this.groups.size, key: parts, count: 0, amounts: this.plan.amounts.map(() => new AmountAccumulator()) };
      this.groups.set(key, g);
    }
    return g;
  }

  /** Group column j's value of the row: the cell, or for a date column by period the period's label. */
  private part(j: number, p: Cells, i: number): string {
    const column = this.plan.groups[j];
    const k = i + column.index;
    // A value holding the separator would split into two parts: it is kept whole, without it.
    if (column.period === undefined) return cellText(p, k).replaceAll(SEPARATOR, ' ');
    // A cell that is no date keeps its own text as its group (an empty date is a group of its own).
    if (!readDate(p.text, p.start[k], p.end[k])) return cellText(p, k).replaceAll(SEPARATOR, ' ');
    return this.label(column.period, moment.day);
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
    return [...this.groups.values()];
  }
}
