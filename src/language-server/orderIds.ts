import { duplicateOf, type RowState } from './rows';

// The rows of each client-orderid, so an edit settles the duplicates of the ids it touched without a
// scan of a million rows. An id on one row (the usual case) is stored as that row; a list only for ids
// used more than once. Built on the first edit, not on open: opening a file does not wait for it.

export class OrderIds {
  private readonly rows = new Map<string, RowState | RowState[]>();

  static of(rows: readonly RowState[]): OrderIds {
    const ids = new OrderIds();
    for (const row of rows) ids.add(row);
    return ids;
  }

  add(row: RowState): void {
    const key = row.key;
    if (key === undefined) return;
    const had = this.rows.get(key);
    if (had === undefined) this.rows.set(key, row);
    else if (Array.isArray(had)) had.push(row);
    else this.rows.set(key, [had, row]);
  }

  remove(row: RowState): void {
    const key = row.key;
    if (key === undefined) return;
    const had = this.rows.get(key);
    if (had === row) this.rows.delete(key);
    if (!Array.isArray(had)) return;
    const at = had.indexOf(row);
    if (at >= 0) had.splice(at, 1);
    if (had.length === 1) this.rows.set(key, had[0]);
  }

  /** Gives every row of `key` the duplicate-order-id naming the first of them (none on the first). */
  settle(key: string): void {
    const had = this.rows.get(key);
    if (had === undefined) return;
    if (!Array.isArray(had)) {
      had.dup = undefined;
      return;
    }
    had.sort((a, b) => a.rowNumber - b.rowNumber);
    had[0].dup = undefined;
    for (let i = 1; i < had.length; i++) had[i].dup = duplicateOf(had[i], key, had[0].rowNumber);
  }
}
