// The filtered and sorted view of the rows in the store. The view is an index array, so a million-row
// report costs one 4-byte integer per row per view, not a copy of the rows. Everything here also works
// while rows are still arriving: match marks and sort keys are kept per column and extended with each
// new piece instead of being rebuilt, so the view can follow the file as it loads.
import { detectKind, sortIndices, sortKey, type ColumnKind, type SortSpec } from './columnKinds';
import type { Piece } from './csvReader';
import { radixSortIndices } from './radixSort';
import { ColumnStore } from './store';
import { laidRows, shownRow } from '../src/shared/cardData';
import type { Said } from '../src/core/output/said';

export interface ViewQuery {
  sorting: SortSpec | null;
  filters: Map<number, string>;
  search: string;
  /** Rows marked 1 are kept (the filter expression, or one group's rows), covering every row viewed. */
  marks?: Uint8Array;
}

/** Gives the event loop a turn (input, paint) without the 4 ms clamp of nested setTimeout. */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(0);
  });
}

/** Longest stretch of work between two yields: input waits at most about this long. */
const SLICE_MS = 40;

/** The lower-cased, trimmed needle of a search or filter box; empty means "no condition". */
export const needleOf = (text: string) => text.trim().toLowerCase();

interface Marks {
  hits: Uint8Array;
  pieces: number; // pieces of the store already scanned
}

interface Keys {
  kind: ColumnKind;
  keys: Float64Array | string[];
  rows: number; // rows covered
}

export class Dataset {
  readonly store = new ColumnStore();
  complete = false;
  private mask: ((row: string[]) => void) | undefined;
  /** Columns the page laid out from typed values (src/shared/cardData.ts laidRows), not read again. */
  private laid: ReadonlySet<number> | undefined;
  private kinds = new Map<number, ColumnKind>();
  private keys = new Map<number, Keys>();
  private marks = new Map<string, Marks>();
  private sorted: { id: string; order: Uint32Array } | undefined;
  private generation = 0;
  /** Counts every change of the rows (a new table, rows added): what is derived from them can be kept until it moves. */
  version = 0;

  get columns(): string[] {
    return this.store.columns;
  }

  get rowCount(): number {
    return this.store.rowCount;
  }

  reset(columns: string[], mask?: (row: string[]) => void): void {
    this.store.reset(columns);
    this.mask = mask;
    this.laid = undefined;
    this.complete = false;
    this.kinds.clear();
    this.keys.clear();
    this.marks.clear();
    this.sorted = undefined;
    this.generation++;
    this.version++;
  }

  /** Rows given whole; a reconciliation's cells of several typed values are laid out here, where they are shown. */
  append(cells: readonly (readonly (string | Said)[])[]): void {
    const { rows, laid } = laidRows(cells);
    if (laid.size > 0) this.laid = laid;
    this.store.addRows(rows, this.mask);
    this.version++;
  }

  addPiece(piece: Piece): void {
    this.store.add(piece, this.mask);
    this.version++;
  }

  /** All rows are in: column kinds are decided again on the whole column. */
  finish(): void {
    this.complete = true;
    const before = new Map(this.kinds);
    this.kinds.clear();
    for (const [col, k] of before) {
      if (this.kind(col) === k) continue;
      // The rows so far looked like one shape, the whole column is another: sort it again.
      this.keys.delete(col);
      if (this.sorted?.id.startsWith(`${col}:`)) this.sorted = undefined;
    }
  }

  /**
   * Row i as the page gives it out (the grid, tooltips, copies, exports, the state kept): card numbers
   * masked in every column. Sorting, filtering and search read the store itself.
   */
  row(i: number): string[] {
    return shownRow(this.store.row(i), this.laid);
  }

  kind(column: number): ColumnKind {
    let k = this.kinds.get(column);
    if (!k) {
      k = detectKind(this.store.rowCount, (r) => this.store.value(r, column));
      this.kinds.set(column, k);
    }
    return k;
  }

  private keysFor(column: number, n: number): Keys {
    const kind = this.kind(column);
    let k = this.keys.get(column);
    if (!k || k.kind !== kind) k = { kind, keys: kind === 'text' ? [] : new Float64Array(0), rows: 0 };
    if (k.rows < n) {
      if (kind === 'text') {
        const keys = k.keys as string[];
        this.store.forEachValue(column, k.rows, n, (v) => keys.push(v.toLowerCase()));
      } else {
        const keys = new Float64Array(n);
        keys.set(k.keys as Float64Array);
        if (kind === 'number') this.store.numberKeys(column, k.rows, n, keys);
        else this.store.forEachValue(column, k.rows, n, (v, r) => (keys[r] = sortKey(kind, v)));
        k.keys = keys;
      }
      k.rows = n;
    }
    this.keys.set(column, k);
    return k;
  }

  private sortedOrder(spec: SortSpec, n: number): Uint32Array {
    const id = `${spec.column}:${spec.desc}:${n}:${this.generation}`;
    if (this.sorted?.id === id) return this.sorted.order;
    const k = this.keysFor(spec.column, n);
    const order = k.keys instanceof Float64Array ? radixSortIndices(n, k.keys, spec.desc) : sortIndices(n, k.keys, spec.desc);
    // One order cached at a time: a million-row order is 4 MB.
    this.sorted = { id, order };
    return order;
  }

  /** Marks rows where `needle` occurs (in `column`, or anywhere with -1), scanning only pieces not yet seen. */
  private async marksFor(needle: string, column: number, stale: () => boolean): Promise<Uint8Array | null> {
    const key = `${column}\u0000${needle}`;
    let m = this.marks.get(key);
    if (!m) {
      m = { hits: new Uint8Array(this.store.rowCount), pieces: 0 };
      this.marks.set(key, m);
    }
    let t = performance.now();
    while (m.pieces < this.store.pieceCount) {
      // Pieces may arrive while this runs: grow the marks with them.
      const piece = this.store.pieceAt(m.pieces);
      if (m.hits.length < piece.first + piece.rows) {
        const grown = new Uint8Array(Math.max(this.store.rowCount, piece.first + piece.rows));
        grown.set(m.hits);
        m.hits = grown;
      }
      this.store.matchPiece(m.pieces, needle, column, m.hits);
      m.pieces++;
      if (performance.now() - t > SLICE_MS) {
        await yieldToPage();
        if (stale()) return null;
        t = performance.now();
      }
    }
    // Several boxes typed into keep a handful of mark sets; a new one beyond that replaces the oldest.
    if (this.marks.size > 8) this.marks.delete(this.marks.keys().next().value!);
    return m.hits;
  }

  /**
   * The row indices to show, in order, for rows `from` onwards (0: the whole view). With `from` > 0 the
   * query must be unsorted: the result is what to append to the view already shown. `isCurrent` lets a
   * newer query cancel an older one (null is returned then).
   */
  async view(query: ViewQuery, isCurrent: () => boolean, from = 0, to = this.store.rowCount): Promise<Uint32Array | null> {
    const generation = this.generation;
    const stale = () => !isCurrent() || generation !== this.generation;
    const n = to;
    const base = query.sorting && query.sorting.column < this.columns.length && from === 0 ? this.sortedOrder(query.sorting, n) : null;
    const conditions: Uint8Array[] = query.marks ? [query.marks] : [];
    const wanted: [string, number][] = [...query.filters].map(([col, text]) => [needleOf(text), col] as [string, number]);
    wanted.push([needleOf(query.search), -1]);
    for (const [needle, col] of wanted) {
      if (needle === '') continue;
      const hits = await this.marksFor(needle, col, stale);
      if (!hits || stale()) return null;
      conditions.push(hits);
    }
    if (conditions.length === 0) {
      if (base) return base;
      const all = new Uint32Array(n - from);
      for (let i = from; i < n; i++) all[i - from] = i;
      return all;
    }
    if (conditions.length === 1) {
      // The usual case (one search or one filter), without a loop over the conditions per row; the
      // marks are counted first (one pass in order), so the view is made at its size, not cut from one
      // of every row (20 MB zeroed and copied again at five million rows).
      const hits = conditions[0];
      let kept = 0;
      for (let i = from; i < n; i++) kept += hits[i] === 0 ? 0 : 1;
      const view = new Uint32Array(kept);
      for (let p = from, k = 0; p < n && k < kept; p++) {
        const i = base ? base[p] : p;
        if (hits[i] !== 0) view[k++] = i;
      }
      return view;
    }
    const out = new Uint32Array(n - from);
    let count = 0;
    for (let p = from; p < n; p++) {
      const i = base ? base[p] : p;
      let ok = true;
      for (const hits of conditions) {
        if (hits[i] === 0) {
          ok = false;
          break;
        }
      }
      if (ok) out[count++] = i;
    }
    return out.slice(0, count);
  }
}
