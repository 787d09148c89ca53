// The rows on the page and the filtered/sorted view of them. Rows stay as arrays of strings; sort keys
// are built per column only when that column is first sorted, and the view is an index array, so a
// million-row report costs one extra 4-byte integer per row per view, not a copy of the rows.
import { buildKeys, detectKind, makeMatcher, sortIndices, type ColumnKind, type SortSpec } from './columnKinds';

export interface ViewQuery {
  sorting: SortSpec | null;
  filters: Map<number, string>;
  search: string;
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

const FILTER_SLICE = 100_000;
const INTERN_LIMIT = 4096;

export class Dataset {
  columns: string[] = [];
  readonly rows: string[][] = [];
  complete = false;
  private kinds = new Map<number, ColumnKind>();
  private keys = new Map<number, Float64Array | string[]>();
  private sorted = new Map<string, Uint32Array>();
  private generation = 0;
  /**
   * Per-column string pools. Reports repeat a few values in many rows (merchant, currency, type, report
   * date); sharing one string per distinct value instead of one per cell halves the heap of a large
   * report and releases the parser's chunk strings that slices would otherwise keep alive.
   */
  private pools: (Map<string, string> | null)[] = [];

  reset(columns: string[]): void {
    this.columns = columns;
    this.pools = columns.map(() => new Map<string, string>());
    this.rows.length = 0;
    this.complete = false;
    this.invalidate();
  }

  append(rows: string[][]): void {
    const pools = this.pools;
    for (const r of rows) {
      for (let c = 0; c < r.length && c < pools.length; c++) {
        const pool = pools[c];
        if (!pool) continue;
        const v = r[c];
        const seen = pool.get(v);
        if (seen !== undefined) r[c] = seen;
        else if (pool.size < INTERN_LIMIT) pool.set(v, v);
        else pools[c] = null; // a column of mostly distinct values (ids, times) is not worth a map
      }
      this.rows.push(r);
    }
    this.invalidate();
  }

  private invalidate(): void {
    this.kinds.clear();
    this.keys.clear();
    this.sorted.clear();
    this.generation++;
  }

  kind(column: number): ColumnKind {
    let k = this.kinds.get(column);
    if (!k) {
      k = detectKind(this.rows, column);
      this.kinds.set(column, k);
    }
    return k;
  }

  private sortedOrder(spec: SortSpec): Uint32Array {
    const id = `${spec.column}:${spec.desc}`;
    let order = this.sorted.get(id);
    if (!order) {
      let keys = this.keys.get(spec.column);
      if (!keys) {
        keys = buildKeys(this.rows, spec.column, this.kind(spec.column));
        this.keys.set(spec.column, keys);
      }
      order = sortIndices(this.rows.length, keys, spec.desc);
      // One direction cached at a time: a million-row order is 4 MB.
      this.sorted.clear();
      this.sorted.set(id, order);
    }
    return order;
  }

  /**
   * The row indices to show, in order. Filtering runs in slices with a yield between them so typing
   * in a filter box never freezes the page; `isCurrent` lets a newer query cancel an older one.
   */
  async view(query: ViewQuery, isCurrent: () => boolean): Promise<Uint32Array | null> {
    const generation = this.generation;
    const stale = () => !isCurrent() || generation !== this.generation;
    const n = this.rows.length;
    const base = query.sorting && query.sorting.column < this.columns.length ? this.sortedOrder(query.sorting) : null;
    const tests: { column: number; match: (cell: string) => boolean }[] = [];
    for (const [column, text] of query.filters) {
      const match = makeMatcher(text);
      if (match) tests.push({ column, match });
    }
    const search = makeMatcher(query.search);
    if (tests.length === 0 && !search) {
      if (base) return base;
      const all = new Uint32Array(n);
      for (let i = 0; i < n; i++) all[i] = i;
      return all;
    }
    const out = new Uint32Array(n);
    let count = 0;
    const width = this.columns.length;
    for (let start = 0; start < n; start += FILTER_SLICE) {
      const end = Math.min(n, start + FILTER_SLICE);
      for (let p = start; p < end; p++) {
        const i = base ? base[p] : p;
        const row = this.rows[i];
        let ok = true;
        for (const t of tests) {
          if (!t.match(row[t.column] ?? '')) {
            ok = false;
            break;
          }
        }
        // One lower-cased string per row instead of one per cell; NUL never comes from the search box,
        // so a match cannot straddle two cells.
        if (ok && search) ok = search(width === 1 ? row[0] ?? '' : row.join('\u0000'));
        if (ok) out[count++] = i;
      }
      if (end < n) {
        await yieldToPage();
        if (stale()) return null;
      }
    }
    return out.slice(0, count);
  }
}
