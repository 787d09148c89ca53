// The shape of a batch diff, on its own so the walks that make one (fileDiff, sentDiff) and the use case
// that picks a walk (batchDiff) import it without importing each other.

export interface DiffRow {
  'client-orderid': string;
  line: number;
}

export interface ChangedRow extends DiffRow {
  columns: string[];
}

export interface BatchDiff {
  added: DiffRow[];
  removed: DiffRow[];
  changed: ChangedRow[];
  unchanged: number;
}

export function differs(d: BatchDiff): boolean {
  return d.added.length + d.removed.length + d.changed.length > 0;
}
