import type { Batch, BatchRow } from './batch';

export interface CellLocation {
  recordIndex: number;
  fieldIndex: number;
  /** The resolved column of that position in the header, or null. */
  column: string | null;
  isHeader: boolean;
  row?: BatchRow;
}

/** The cell at a text offset (a position on a delimiter belongs to the cell before it). */
export function cellAt(batch: Batch, offset: number): CellLocation | undefined {
  const csv = batch.csv;
  if (csv.recordCount === 0) return undefined;
  let lo = 0;
  let hi = csv.recordCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (csv.recordStart(mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  const record = csv.record(lo);
  if (offset < record.start || offset > record.end) return undefined;
  for (let f = 0; f < record.values.length; f++) {
    if (offset >= record.fieldStart(f) && offset <= record.fieldEnd(f)) {
      const isHeader = lo === batch.headerIndex;
      const row = isHeader ? undefined : rowOf(batch, lo);
      return { recordIndex: lo, fieldIndex: f, column: batch.columns[f] ?? null, isHeader, row };
    }
  }
  return undefined;
}

/** The data row of a record, by binary search: rows are in record order. */
function rowOf(batch: Batch, recordIndex: number): BatchRow | undefined {
  const rows = batch.rows;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid].recordIndex;
    if (at === recordIndex) return rows[mid];
    if (at < recordIndex) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
