import { maskCardNumbers } from '../core/output/cardNumbers';
import { isSaid, saidText, type Said } from '../core/output/said';

// The page masks card data with the product's one masking module; this is the page's only way to it.
// CVV columns are hidden by name in each row as it is parsed (rowMasker). Card numbers are masked in
// every column wherever the page gives a row out (shownRow: the grid, a tooltip, a copy, an export, the
// state kept across a reload), not in the text as it is parsed: that scan cost about as much again as
// the parse itself (five million rows), while the rows given out are the few on screen.
export { rowMasker } from '../core/output';

/**
 * A row as the page shows it: every card number masked, whatever column it stands in, but in the columns the
 * page laid out itself from typed values (`laid`, from laidRows), which were checked value by value.
 */
export function shownRow(row: readonly string[], laid?: ReadonlySet<number>): string[] {
  return row.map((cell, i) => (laid?.has(i) ? cell : maskCardNumbers(cell)));
}

/**
 * Rows whose cells may be a `Said` (several values with their types: a reconciliation's expected charges and
 * report lines), laid out where they are shown: each value checked alone by its type (saidText), so a date
 * beside an amount, or a line number beside a count, is never read as one card number. `laid`: the columns
 * whose every cell was laid so, which shownRow does not read again; any other cell is read whole as before.
 */
export function laidRows(rows: readonly (readonly (string | Said)[])[]): { rows: readonly (readonly string[])[]; laid: Set<number> } {
  if (!rows.some((row) => row.some(isSaid))) return { rows: rows as readonly (readonly string[])[], laid: new Set() };
  const laid = new Set<number>(rows.length > 0 ? rows[0].map((_, i) => i) : []);
  const out = rows.map((row) =>
    row.map((cell, i) => {
      if (isSaid(cell)) return saidText(cell);
      laid.delete(i);
      return cell;
    }),
  );
  return { rows: out, laid };
}
