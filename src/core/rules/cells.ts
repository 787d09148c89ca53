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
  const records = batch.csv.records;
  let lo = 0;
  let hi = records.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (records[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  const record = records[lo];
  if (!record || offset < record.start || offset > record.end) return undefined;
  for (let f = 0; f < record.values.length; f++) {
    if (offset >= record.fieldStart(f) && offset <= record.fieldEnd(f)) {
      const isHeader = lo === batch.headerIndex;
      const row = isHeader ? undefined : batch.rows.find((r) => r.recordIndex === lo);
      return { recordIndex: lo, fieldIndex: f, column: batch.columns[f] ?? null, isHeader, row };
    }
  }
  return undefined;
}
