import { randomBytes } from 'node:crypto';
import { ChunkedInt32 } from '../chunked';
import { RowCells } from '../csv/rowCells';
import type { ParsedCsv } from '../csv/parse';
import { maskText } from '../output';
import type { Batch } from '../rules/batch';
import { countBreaks } from '../text';
import type { BatchDiff } from './diffShape';
import { CVV, ORDER_ID } from './rowKeys';

// `paygate diff FILE --against OTHER`: two batch files compared by row key without holding two parsed
// files. The older side is read first and kept only as a compact index (per row: its client-orderid, its
// line and one 32-bit hash of each column's value, in typed arrays), then its text and parse are dropped;
// the newer side is walked record by record in place (RowCells, no row objects) and each row is matched
// against the index as it comes. The answer is the one a whole comparison of the row keys gives
// (test/fixtures/ledger/rowKeysDiff.ts): rows keyed by client-orderid (a key used twice is matched in
// order of use), added and changed in the newer side's order, removed in the older side's, a column one
// side lacks counting as empty there, cvv2 never compared. The hashes are seeded at random for each comparison and are 32 bits a value, as
// the ledger's own value hashes are (rowKeys.ts): enough to tell a changed value from an unchanged one.
//
// Memory at 1M rows: the index is about 4 bytes per column per row plus the ids in one Map, far less
// than the two parsed files and the row objects and string keys the comparison made before (2.2 GB).

/** A value's 32-bit hash: the characters of `s` from `from` to `to`, under `seed`. */
export function spanHash(seed: number, s: string, from: number, to: number): number {
  let h = seed ^ (to - from);
  for (let i = from; i < to; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * A copy of `s` that holds no reference to the text it was cut from: V8 keeps a long slice as a view of
 * its parent, so an id kept as a slice would keep the whole older file alive.
 */
const detached = (s: string) => (s.length < 13 ? s : (s + '\0').slice(0, -1));

/** Each column name of a header once, with the header index of its last cell (as a row's values map keeps it). */
function lastIndexByName(columns: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  columns.forEach((c, i) => out.set(c, i));
  return out;
}

/** The header's columns as the row keys name them (rowKeys.ts: an unknown cell as written). */
const columnsOf = (batch: Batch) => batch.headerCells.map((cell) => cell.column ?? cell.raw);

/**
 * The older row a newer row keyed `key` is matched with: the key's row when it has one and it is not taken
 * yet, else its rows (a key used twice) in order of use; -1 when none is left. Marks nothing: the caller
 * marks the row it takes in `matched`.
 */
export function takeOlder(seen: number | number[] | undefined, key: string, matched: Uint8Array, used: Map<string, number>): number {
  if (typeof seen === 'number') return matched[seen] ? -1 : seen;
  if (seen === undefined) return -1;
  const k = used.get(key) ?? 0;
  if (k >= seen.length) return -1;
  used.set(key, k + 1);
  return seen[k];
}

/**
 * Walks the trusted rows of a batch with a client-orderid (no CSV syntax problem, as many fields as the
 * header), in order, with each one's 1-based line; the row's cells are read in place into `row`.
 */
export function forEachKeyedRow(batch: Batch, visit: (row: RowCells, id: string, line: number) => void): void {
  const csv: ParsedCsv = batch.csv;
  const idColumn = batch.columnIndex.get(ORDER_ID);
  if (idColumn === undefined || !batch.header) return;
  const width = batch.header.values.length;
  const row = new RowCells();
  const text = csv.text;
  let line = 1;
  let at = 0;
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r) || csv.syntaxProblemAt(r)) continue;
    csv.readRow(r, row);
    if (row.count !== width || row.isEmpty(idColumn)) continue;
    const start = csv.recordStart(r);
    line += countBreaks(text, at, start);
    at = start;
    visit(row, row.value(idColumn), line);
  }
}

/** The older side of a comparison, kept as a compact index of its rows. */
export class DiffIndex {
  /** The older side's columns as the row keys name them. */
  readonly columns: string[];
  /** The value hash slot of each column name (the last header cell of that name), cvv2 left out. */
  readonly slots: Map<string, number>;
  private readonly cellOfSlot: number[];
  private readonly ids: string[] = [];
  private readonly lines = new ChunkedInt32();
  private readonly hashes = new ChunkedInt32();
  /** Row index by client-orderid; an id used more than once keeps its rows in order. */
  private readonly byId = new Map<string, number | number[]>();

  private constructor(
    readonly seed: number,
    batch: Batch,
  ) {
    this.columns = columnsOf(batch);
    this.slots = new Map();
    this.cellOfSlot = [];
    for (const [name, i] of lastIndexByName(this.columns)) {
      if (name === CVV) continue;
      this.slots.set(name, this.cellOfSlot.length);
      this.cellOfSlot.push(i);
    }
  }

  /** The index of `batch` (which may then be dropped), its values hashed under `seed`. */
  static of(batch: Batch, seed = randomBytes(4).readInt32LE(0)): DiffIndex {
    const index = new DiffIndex(seed, batch);
    index.add(batch);
    return index;
  }

  private add(batch: Batch): void {
    const cellOfSlot = this.cellOfSlot;
    forEachKeyedRow(batch, (row, id, line) => {
      const n = this.ids.length;
      const key = detached(id);
      this.ids.push(key);
      this.lines.push(line);
      for (const i of cellOfSlot) this.hashes.push(spanHash(this.seed, row.source, row.from(i), row.to(i)));
      const seen = this.byId.get(key);
      if (seen === undefined) this.byId.set(key, n);
      else if (typeof seen === 'number') this.byId.set(key, [seen, n]);
      else seen.push(n);
    });
  }

  get rowCount(): number {
    return this.ids.length;
  }

  /** The newer side `batch` against this index (each of this index's rows matched at most once: use it once). */
  diff(batch: Batch): BatchDiff {
    const seed = this.seed;
    const now = columnsOf(batch);
    const nowCell = lastIndexByName(now);
    // The columns compared, as the reference names them: the newer side's in header order, then the older
    // side's it lacks; for each, where its value is on either side (-1: the side lacks it, empty there).
    const compared = [...now, ...this.columns.filter((c) => !now.includes(c))].filter((c) => c !== CVV);
    const cellOf = compared.map((c) => nowCell.get(c) ?? -1);
    const slotOf = compared.map((c) => this.slots.get(c) ?? -1);
    const empty = spanHash(seed, '', 0, 0);
    const width = this.cellOfSlot.length;
    const matched = new Uint8Array(this.ids.length);
    const used = new Map<string, number>();
    const diff: BatchDiff = { added: [], removed: [], changed: [], unchanged: 0 };
    forEachKeyedRow(batch, (row, id, line) => {
      const old = takeOlder(this.byId.get(id), id, matched, used);
      if (old === -1) {
        diff.added.push({ 'client-orderid': maskText(id), line });
        return;
      }
      matched[old] = 1;
      let columns: string[] | undefined;
      for (let c = 0; c < compared.length; c++) {
        const i = cellOf[c];
        const s = slotOf[c];
        const x = i === -1 ? empty : spanHash(seed, row.source, row.from(i), row.to(i));
        const y = s === -1 ? empty : this.hashes.get(old * width + s);
        if (x !== y) (columns ??= []).push(compared[c]);
      }
      if (columns) diff.changed.push({ 'client-orderid': maskText(id), line, columns });
      else diff.unchanged++;
    });
    for (let r = 0; r < this.ids.length; r++) {
      if (!matched[r]) diff.removed.push({ 'client-orderid': maskText(this.ids[r]), line: this.lines.get(r) });
    }
    return diff;
  }
}
