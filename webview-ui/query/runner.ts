// The table's queries over the rows on the page, in the store's pieces where they lie (the same query
// core as `paygate query`): the rows the filter expression keeps, and a grouping with exact totals. Work
// is cut into slices with a turn for the page between them, so typing and scrolling never wait long,
// and a newer query makes an older one give up (`stale`).
import { queryOutcome, QueryRun, type QueryOutcome, type QueryPlan } from '../../src/shared/query';
import { yieldToPage } from '../dataset';
import type { ColumnStore } from '../store';

/** Longest stretch of work between two turns for the page. */
const SLICE_MS = 25;

/** The rows an expression keeps, marked per row (1: kept) and extended as more pieces arrive. */
export class WhereMarks {
  hits = new Uint8Array(0);
  private pieces = 0;

  constructor(readonly plan: QueryPlan) {}

  /** Marks every row of the store's pieces not yet read; false when it gave up for a newer query. */
  async extend(store: ColumnStore, stale: () => boolean): Promise<boolean> {
    const test = this.plan.test;
    const width = store.width;
    if (this.hits.length < store.rowCount) {
      const grown = new Uint8Array(Math.max(store.rowCount, this.hits.length * 2));
      grown.set(this.hits);
      this.hits = grown;
    }
    let t = performance.now();
    while (this.pieces < store.pieceCount) {
      const p = store.pieceAt(this.pieces);
      if (this.hits.length < p.first + p.rows) return this.extend(store, stale);
      const hits = this.hits;
      for (let r = 0, i = 0; r < p.rows; r++, i += width) hits[p.first + r] = test === undefined || test(p, i) ? 1 : 0;
      this.pieces++;
      if (performance.now() - t > SLICE_MS) {
        await yieldToPage();
        if (stale()) return false;
        t = performance.now();
      }
    }
    return true;
  }
}

export interface Grouping {
  outcome: QueryOutcome;
  /** Each row's group id (-1: the expression did not keep it), for listing a group's rows. */
  groupOf: Int32Array;
  ms: number;
}

/** Groups every row now in the store; null when it gave up for a newer query. */
export async function groupRows(store: ColumnStore, plan: QueryPlan, stale: () => boolean): Promise<Grouping | null> {
  const started = performance.now();
  const run = new QueryRun(plan);
  const groupOf = new Int32Array(store.rowCount);
  const width = store.width;
  const pieces = store.pieceCount;
  let t = performance.now();
  for (let k = 0; k < pieces; k++) {
    const p = store.pieceAt(k);
    if (p.first + p.rows > groupOf.length) break; // rows that arrived after the start: the next run counts them
    run.addRows(p, p.rows, width, p.first, undefined, groupOf);
    if (performance.now() - t > SLICE_MS) {
      await yieldToPage();
      if (stale()) return null;
      t = performance.now();
    }
  }
  // The groups' outcome in a task of its own, not after the last slice's.
  await yieldToPage();
  if (stale()) return null;
  return { outcome: queryOutcome(run), groupOf, ms: performance.now() - started };
}

/** The rows of one group, marked per row. */
export function groupMarks(groupOf: Int32Array, id: number): Uint8Array {
  const marks = new Uint8Array(groupOf.length);
  for (let i = 0; i < groupOf.length; i++) marks[i] = groupOf[i] === id ? 1 : 0;
  return marks;
}
