import { said, typed } from '../output';
import { Codes, CodeInfo } from './codes';
import type { Batch } from './batch';
import { RowCells } from '../csv/rowCells';
import { LineIndex } from '../text';
import { PUBLISHED_TEST_CARDS } from './testCards';
import type { LintDiagnostic } from './types';
import { luhnHashIn } from '../luhn';

// `card-data-in-git`: a batch holding real card numbers that git tracks, or would take with the next
// `git add .`. PCI DSS forbids storing card numbers unprotected, and a repository is storage that is
// copied to every clone and kept in history. The check itself is pure: the face asks git (core/git.ts)
// and says what it found.

/** Where a file stands with git: tracked, in a work tree and not ignored, ignored, or in no work tree. */
export type GitTracking = 'tracked' | 'unignored' | 'ignored' | 'outside';

const CARD_COLUMN = 'credit-card-number';

/** The first full card number of a batch: its field's start in the document (its quote, if quoted) and its value's length. */
export interface CardNumberCell {
  start: number;
  length: number;
}

/** A full card number: 12–19 digits passing Luhn, and not one of the schemes' published test numbers. */
export function isFullCardNumber(value: string): boolean {
  return isFullCardNumberIn(value, 0, value.length);
}

/**
 * The published test numbers by the hash of their digits that luhnHashIn works out alongside the Luhn sum,
 * so a cell is compared with at most the one test number of its hash: a sandbox batch holds one on every row.
 */
const isDigit = (c: number) => c >= 48 && c <= 57;
const TEST_BY_HASH = new Map<number, string>();
// Every published test number passes the Luhn check (one that did not would be no full card number anyway).
for (const { number } of PUBLISHED_TEST_CARDS) TEST_BY_HASH.set(luhnHashIn(number, 0, number.length), number);

const isTestNumber = (s: string, from: number, to: number, h: number): boolean => {
  const test = TEST_BY_HASH.get(h);
  if (test === undefined || test.length !== to - from) return false;
  for (let i = 0; i < test.length; i++) if (s.charCodeAt(from + i) !== test.charCodeAt(i)) return false;
  return true;
};

/** isFullCardNumber of the characters `s[from, to)`, without cutting them out: a sandbox batch asks this of every row. */
function isFullCardNumberIn(s: string, from: number, to: number): boolean {
  if (to - from < 12 || to - from > 19) return false;
  const h = luhnHashIn(s, from, to);
  return !Number.isNaN(h) && !isTestNumber(s, from, to, h);
}

/**
 * Looks for the first full card number, one row at a time, reading the card cell in place. The linter
 * runs it inside its own pass over the rows (lint's `findCardNumber`), so `paygate lint` reads each row
 * once; `firstFullCardNumber` runs it alone. A cell counts with its value trimmed, in every data row, also
 * one the linter does not trust (a card number is card data wherever it is).
 */
export class CardNumberFinder {
  found: CardNumberCell | undefined;

  /** `row` holds a data row's cells; `column` is the card column's index in the header. */
  look(row: RowCells, column: number): void {
    if (column >= row.count) return;
    const s = row.source;
    const from = row.from(column);
    const to = row.to(column);
    if (to === from) return;
    // Digits at both ends: trimming changes nothing (the common case, read in place).
    if (isDigit(s.charCodeAt(from)) && isDigit(s.charCodeAt(to - 1))) {
      if (!isFullCardNumberIn(s, from, to)) return;
    } else {
      const value = s.slice(from, to);
      if (!isFullCardNumber(value.trim())) return;
    }
    this.found = foundAt(row, column);
  }

  /**
   * look, for a card cell the linter has read already: 12–19 ASCII digits passing the Luhn check, whose
   * luhnHashIn is `hash` (card-luhn's reading of the same cell: the digits are not read again).
   */
  lookChecked(row: RowCells, column: number, hash: number): void {
    if (isTestNumber(row.source, row.from(column), row.to(column), hash)) return;
    this.found = foundAt(row, column);
  }
}

/** The range is the field's start and the untrimmed value's length, as a diagnostic shows it. */
function foundAt(row: RowCells, column: number): CardNumberCell {
  return { start: row.bounds[2 * column], length: row.to(column) - row.from(column) };
}

/** The batch's first full card number, read row by row in place (for a batch the linter has not just read). */
export function firstFullCardNumber(batch: Batch): CardNumberCell | undefined {
  const column = batch.columnIndex.get(CARD_COLUMN);
  if (column === undefined) return undefined;
  const csv = batch.csv;
  const finder = new CardNumberFinder();
  const row = new RowCells();
  for (let r = batch.headerIndex + 1; r < csv.recordCount && !finder.found; r++) {
    if (csv.isBlankAt(r)) continue;
    csv.readRow(r, row);
    finder.look(row, column);
  }
  return finder.found;
}

/** The card column's index, when the batch has one: what the linter's finder needs. */
export const cardColumnOf = (batch: Batch): number | undefined => batch.columnIndex.get(CARD_COLUMN);

/**
 * The warning on the first cell holding a full card number, when git keeps or would keep the file.
 * `found` is that cell when the linter has looked already (lint's `findCardNumber`); else it is looked for.
 */
export function cardDataInGit(
  batch: Batch,
  tracking: GitTracking,
  fileName: string,
  found: CardNumberCell | null | undefined = undefined,
): LintDiagnostic | undefined {
  if (tracking !== 'tracked' && tracking !== 'unignored') return undefined;
  const cell = found === undefined ? firstFullCardNumber(batch) : found;
  if (!cell) return undefined;
  const message =
    tracking === 'tracked'
      ? said`${typed.text(fileName)} holds full card numbers and git tracks it: every clone and the history keep them. Remove it from the repository (git rm --cached ${typed.text(fileName)}) and from its history (git filter-repo or BFG), then keep batches git-ignored or outside the work tree.`
      : said`${typed.text(fileName)} holds full card numbers and lies in a git work tree without being ignored: the next commit may store them. Add it to .gitignore, or keep batches outside the work tree.`;
  return {
    code: Codes.cardDataInGit,
    severity: CodeInfo[Codes.cardDataInGit].severity,
    message,
    range: rangeOf(batch, cell),
    columnName: CARD_COLUMN,
    fixes: [],
  };
}

/**
 * The cell's line and character, from the text up to its end only: a batch with no other problem would
 * otherwise build the whole file's line index (every line of it) for this one warning, usually on row 1.
 */
function rangeOf(batch: Batch, cell: CardNumberCell) {
  const end = cell.start + cell.length;
  // One character past the end: a CR there is one line break with the LF after it, not a break of its own.
  return new LineIndex(batch.csv.text.slice(0, end + 1)).range(cell.start, end);
}

/**
 * The `.gitignore` text with `entry` (a path relative to the work tree's root, `/`-separated) added on a
 * line of its own, anchored at the root so it names this file only. Unchanged when the line is there.
 */
export function withGitignoreEntry(gitignore: string, entry: string): string {
  const line = `/${entry.replace(/^\/+/, '').replace(/([\\*?[\]!# ])/g, '\\$1')}`;
  const lines = gitignore.split(/\r?\n/);
  if (lines.includes(line)) return gitignore;
  const eol = gitignore.includes('\r\n') ? '\r\n' : '\n';
  const sep = gitignore === '' || gitignore.endsWith('\n') ? '' : eol;
  return `${gitignore}${sep}${line}${eol}`;
}
