import type { Range } from '../core/text';
import type { RowList } from './rowList';
import { duplicateOf, type RowState } from './rows';

// The rows of each client-orderid, so an edit settles the duplicates of the ids it touched without a
// scan of a million rows. An id on one row (the usual case) is stored as that row; a list only for ids
// used more than once, which are also kept in `duplicated`. Built on the first edit or when the server
// is idle after a whole-file lint (IncrementalLint.prepare), not on open: opening a file does not wait for it.

export class OrderIds {
  private readonly rows = new Map<string, RowState | RowState[]>();
  /** The ids used on more than one row. */
  readonly duplicated = new Set<string>();

  static of(rows: RowList): OrderIds {
    const ids = new OrderIds();
    rows.forEach((row) => ids.add(row));
    return ids;
  }

  add(row: RowState): void {
    const key = row.key;
    if (key === undefined) return;
    const had = this.rows.get(key);
    if (had === undefined) this.rows.set(key, row);
    else if (Array.isArray(had)) had.push(row);
    else {
      this.rows.set(key, [had, row]);
      this.duplicated.add(key);
    }
  }

  remove(row: RowState): void {
    const key = row.key;
    if (key === undefined) return;
    const had = this.rows.get(key);
    if (had === row) this.rows.delete(key);
    if (!Array.isArray(had)) return;
    const at = had.indexOf(row);
    if (at >= 0) had.splice(at, 1);
    if (had.length === 1) {
      this.rows.set(key, had[0]);
      this.duplicated.delete(key);
    }
  }

  /** Gives every row of `key` the duplicate-order-id naming the first of them (none on the first); `cellOf` finds a row's id cell. */
  settle(key: string, list: RowList, cellOf: (row: RowState) => Range): void {
    const had = this.rows.get(key);
    if (had === undefined) return;
    if (!Array.isArray(had)) {
      list.setDup(had, undefined);
      return;
    }
    // The first of them in the file (no sort, no object per row: a paste settles a thousand ids).
    let first = had[0];
    let firstNumber = list.numberOf(first);
    for (let i = 1; i < had.length; i++) {
      const n = list.numberOf(had[i]);
      if (n >= firstNumber) continue;
      first = had[i];
      firstNumber = n;
    }
    for (const row of had) list.setDup(row, row === first ? undefined : duplicateOf(key, cellOf(row), firstNumber));
  }
}
