import { luhnValidIn } from '../luhn';
import { kindAt, SEPARATOR, width } from './digitKinds';

// A run of digits joined by separators (./digitKinds.ts), read as a person reads it: its groups, and the
// stretches between the typed values it holds. A date (`28.12.2025`, `2025-12-28`, `12/28/2025`) is cut out
// of a run and an amount's fraction ends one, so a date beside an amount is never one number.

export const MIN_DIGITS = 13;
export const MAX_DIGITS = 19;

/** One run: digits joined by separator runs. Positions and widths of its digits, its groups and their joins. */
export interface Run {
  /** Index in the text of each digit, and its width (2 for a digit beyond the BMP). */
  positions: number[];
  widths: number[];
  /** The digits folded to ASCII, for the Luhn check. */
  digits: string;
  /** Index into `digits` where each group (the digits between two separator runs) starts. */
  groupStarts: number[];
  /** For each group but the first, the separator run before it (a single `.` makes an amount or a date). */
  joins: string[];
  /** Index in the text just past the run's last digit. */
  end: number;
}

/** Reads the digits from `i` into the run's current group; returns the index past them. */
function readGroup(text: string, i: number, run: Run): number {
  let k: number;
  while (i < text.length && (k = kindAt(text, i)) >= 0) {
    const w = width(text, i);
    run.positions.push(i);
    run.widths.push(w);
    run.digits += String.fromCharCode(48 + k);
    i += w;
  }
  return i;
}

/** The index past the separators from `i`. */
function skipSeparators(text: string, i: number): number {
  while (i < text.length && kindAt(text, i) === SEPARATOR) i += width(text, i);
  return i;
}

/** The run starting at a digit at `start`, stopping before any id span (a UUID, a hash) it would enter. */
export function readRun(text: string, start: number, spanStarts: ReadonlySet<number> | undefined): Run {
  const run: Run = { positions: [], widths: [], digits: '', groupStarts: [0], joins: [], end: start };
  let i = start;
  for (;;) {
    i = run.end = readGroup(text, i, run);
    const j = skipSeparators(text, i);
    if (j === i || j >= text.length || kindAt(text, j) < 0 || spanStarts?.has(j)) return run;
    run.groupStarts.push(run.digits.length);
    run.joins.push(text.slice(i, j));
    i = j;
  }
}

/**
 * A card number over `digits[from, to)`: the Luhn check, and a first digit that is not 0 (ISO/IEC 7812
 * reserves major industry identifier 0, so no card starts with it; zero-padded ids such as
 * `00000000-0000-0000-0000-000000000001` pass Luhn but are not cards).
 */
export function isCard(digits: string, from: number, to: number): boolean {
  return to - from >= MIN_DIGITS && to - from <= MAX_DIGITS && digits.charCodeAt(from) !== 48 && luhnValidIn(digits, from, to);
}

/** Where group `g` of a run starts in its digits (its length past the last group). */
export function groupStart(run: Run, g: number): number {
  return g < run.groupStarts.length ? run.groupStarts[g] : run.digits.length;
}

/** The digits of group `h` of a run. */
function groupDigits(run: Run, h: number): string {
  return run.digits.slice(run.groupStarts[h], groupStart(run, h + 1));
}

const DATE_JOIN = /^[./-]$/;
const isYear = (s: string) => s.length === 4 && (s.startsWith('19') || s.startsWith('20'));
const isDayMonth = (d: string, m: string) => d.length <= 2 && m.length <= 2 && +d >= 1 && +d <= 31 && +m >= 1 && +m <= 12;

/** Groups g, g+1, g+2 of a run read as a date: DD.MM.YYYY (or MM/DD/YYYY) or YYYY-MM-DD, one separator twice. */
function isDateAt(run: Run, g: number): boolean {
  if (g + 2 >= run.groupStarts.length) return false;
  const a = run.joins[g];
  if (a !== run.joins[g + 1] || !DATE_JOIN.test(a)) return false;
  const x = groupDigits(run, g);
  const y = groupDigits(run, g + 1);
  const z = groupDigits(run, g + 2);
  if (isYear(z)) return isDayMonth(x, y) || isDayMonth(y, x);
  return isYear(x) && isDayMonth(z, y);
}

/**
 * Group g+1 of a run read as an amount's fraction: 1 to 3 digits after a single `.`, with no single `.`
 * joining the groups around (a dotted card number `4111.1111.1111.1111` has only dots). Its whole part may
 * still end a card number (`4111 1111 1111 1111.5`), but nothing after the fraction continues one: two
 * amounts side by side are two values.
 */
function isFractionAt(run: Run, g: number): boolean {
  if (g + 1 >= run.groupStarts.length || run.joins[g] !== '.') return false;
  const len = groupStart(run, g + 2) - run.groupStarts[g + 1];
  return len <= 3 && run.joins[g - 1] !== '.' && run.joins[g + 1] !== '.';
}

/**
 * The stretches of a run to consider, as [first group, end group): the run cut around every date in it
 * and after every amount's fraction (a date or an amount is never part of a card number, and a date
 * beside an amount is two values, not one number).
 */
export function segments(run: Run): Array<[number, number]> {
  const groups = run.groupStarts.length;
  if (groups < 2) return [[0, groups]];
  const out: Array<[number, number]> = [];
  let from = 0;
  for (let g = 0; g < groups; g++) {
    if (isDateAt(run, g)) {
      if (g > from) out.push([from, g]);
      from = g + 3;
      g += 2;
    } else if (isFractionAt(run, g)) {
      out.push([from, g + 1]);
      from = g + 2;
      g += 1;
    }
  }
  if (from < groups) out.push([from, groups]);
  return out;
}
