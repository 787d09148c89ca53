// A CSV we write is opened in a spreadsheet, which runs a cell that starts like a formula (`=HYPERLINK…`,
// `+cmd|…`, `@SUM…`), even after a leading tab, CR or space. Such a cell is neutralised the OWASP way: a
// `'` in front, so the spreadsheet shows it as text. A plain number keeps its sign (`-12.50` is an amount,
// not a formula). Opting out (`--raw`, the editor's setting) writes cells as they came.

const FORMULA_START = /^[\t\r ]*[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** True when a spreadsheet would read the cell as a formula. */
export function startsFormula(value: string): boolean {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value.trim());
}

/** The cell as a spreadsheet shows it as text: `'` in front of a would-be formula, anything else as it is. */
export function neutraliseFormula(value: string): string {
  return startsFormula(value) ? `'${value}` : value;
}
