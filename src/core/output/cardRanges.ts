import { groupStart, isCard, MAX_DIGITS, MIN_DIGITS, type Run } from './digitRuns';

// Which digits of a run's stretch (./digitRuns.ts) are a card number, by how strictly the text is read.

/** How a run is masked: card numbers only, or any long run too (see ./mask.ts). */
export type CardMode =
  /** Luhn-valid 13–19 digits (the floor). */
  | 'cards'
  /** Also a run of 12–19 digits standing on its own, Luhn or not (free text: a mistyped card is a card). */
  | 'loose'
  /** Also any run of 12 or more digits, glued to letters or not (a cell quoted into a message, text at rest). */
  | 'strict';

/** Digit ranges into `run.digits`, [from, to). */
type Ranges = Array<[number, number]>;

/**
 * The digit ranges (into `run.digits`) of groups [g0, g1) to mask: the whole stretch when it is a card
 * number (or, by `mode`, long enough); otherwise the longest stretch of whole groups that is one from
 * each group (they may overlap).
 */
export function cardRanges(run: Run, g0: number, g1: number, mode: CardMode, text: string, out: Ranges): void {
  if (isAmount(run, g0, g1)) return amountRange(run, g0, mode, out);
  if (wholeStretch(run, g0, g1, mode, text)) return void out.push([groupStart(run, g0), groupStart(run, g1)]);
  if (g1 - g0 >= 2 && groupStart(run, g1) - groupStart(run, g0) >= MIN_DIGITS) longestCards(run, g0, g1, out);
}

/**
 * Two groups joined by one `.`, the second shorter than 12 digits: an amount (a sum of a billion has 13
 * digits, and one in ten passes Luhn). A "fraction" of 12 digits or more is no amount's: the run is read as
 * any other (`01.05555555555554444`).
 */
function isAmount(run: Run, g0: number, g1: number): boolean {
  return g1 - g0 === 2 && run.joins[g0] === '.' && groupStart(run, g1) - groupStart(run, g0 + 1) < 12;
}

/** An amount's whole part, when it is a card number (or long enough, strictly read): only it can be one. */
function amountRange(run: Run, g0: number, mode: CardMode, out: Ranges): void {
  const from = groupStart(run, g0);
  const whole = groupStart(run, g0 + 1);
  if (isCard(run.digits, from, whole) || (mode === 'strict' && whole - from >= 12)) out.push([from, whole]);
}

/** Groups [g0, g1) masked as one: a card number, or by `mode` a long enough run. */
function wholeStretch(run: Run, g0: number, g1: number, mode: CardMode, text: string): boolean {
  const from = groupStart(run, g0);
  const to = groupStart(run, g1);
  const n = to - from;
  if (isCard(run.digits, from, to)) return true;
  if (mode === 'strict') return n >= 12;
  return mode === 'loose' && n >= 12 && n <= MAX_DIGITS && cardGrouping(run, g0, g1) && standsAlone(run, from, to, text);
}

/**
 * From each group of [g0, g1), the longest card-length stretch of whole groups starting there. They may
 * overlap: two card numbers joined by separators only (`… / …`) can make a longer Luhn-valid stretch that
 * starts in the first and ends inside the second, whose own digits would then be left whole. Every card
 * number starting at a group starts its longest stretch, so each has a masked digit.
 */
function longestCards(run: Run, g0: number, g1: number, out: Ranges): void {
  const start = (g: number) => groupStart(run, g);
  for (let g = g0; g < g1; g++) {
    // At most 19 digits ahead of each group, so linear in the run.
    let found = -1;
    for (let h = g + 1; h <= g1 && start(h) - start(g) <= MAX_DIGITS; h++) if (isCard(run.digits, start(g), start(h))) found = h;
    if (found >= 0) out.push([start(g), start(found)]);
  }
}

/**
 * Groups [g0, g1) as card numbers are grouped when printed: one group, fours (the last 1 to 4 digits), or
 * the 4-6-5 and 4-6-4 of American Express and Diners. A Luhn-failing run is taken for a mistyped card only
 * so (free text), never a count beside an amount.
 */
function cardGrouping(run: Run, g0: number, g1: number): boolean {
  const sizes: number[] = [];
  for (let g = g0; g < g1; g++) sizes.push(groupStart(run, g + 1) - run.groupStarts[g]);
  if (sizes.length === 1) return true;
  if (sizes.length === 3 && sizes[0] === 4 && sizes[1] === 6 && (sizes[2] === 4 || sizes[2] === 5)) return true;
  return sizes.length >= 3 && sizes.slice(0, -1).every((x) => x === 4) && sizes[sizes.length - 1] <= 4;
}

// Made on first use, as every Unicode class the CLI's start would otherwise build (issue 40).
let wordChar: RegExp | undefined;
const isWordChar = (c: string) => (wordChar ??= /[\p{L}\p{N}_-]/u).test(c);

/** No letter, digit, underscore or dash right before or after the digits `[from, to)` of a run. */
function standsAlone(run: Run, from: number, to: number, text: string): boolean {
  const before = run.positions[from] - 1;
  const after = run.positions[to - 1] + run.widths[to - 1];
  return (before < 0 || !isWordChar(text[before])) && (after >= text.length || !isWordChar(text[after]));
}
