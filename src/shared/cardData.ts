import { maskCardNumbers } from '../core/output';

// The page masks card data with the product's one masking module; this is the page's only way to it.
// CVV columns are hidden by name in each row as it is parsed (rowMasker). Card numbers are masked in
// every column wherever the page gives a row out (shownRow: the grid, a tooltip, a copy, an export, the
// state kept across a reload), not in the text as it is parsed: that scan cost about as much again as
// the parse itself (five million rows), while the rows given out are the few on screen.
export { rowMasker } from '../core/output';

/** A row as the page shows it: every card number masked, whatever column it stands in. */
export function shownRow(row: readonly string[]): string[] {
  return row.map((cell) => maskCardNumbers(cell));
}
