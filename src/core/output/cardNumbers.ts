import { cardRanges, type CardMode } from './cardRanges';
import { candidateRuns } from './digitKinds';
import { MIN_DIGITS, readRun, segments } from './digitRuns';
import { idSpans, insideSpan } from './idSpans';
import { decodedRanges, ENCODED } from './percent';

export type { CardMode } from './cardRanges';
export { hasDigits, withoutSeparators } from './digitKinds';

// Card numbers in any text that leaves the product. The floor every output passes, whatever the field:
// an id that is a card number is still a card number. What a person reads as a card number is found:
//
// - A digit is any Unicode decimal digit, counted as its value; digit groups are joined by any run of
//   separators (every Unicode space, tabs, the invisible format characters, dashes, dots, slashes,
//   underscores): ./digitKinds.ts.
// - A run whose digits (13 to 19 of them) pass the Luhn check and do not start with 0 is masked to its first
//   6 and last 4 digits, each other digit replaced by `*` in place: separators and scripts stay as they
//   were, so a table keeps its layout. Glued to letters or not (`card5105105105105100x`).
// - Percent-encoding is seen through: ./percent.ts.
//
// What is not a card number though its digits may pass: a decimal amount (`4997482253.120`: only its whole
// part is checked), a date (`28.12.2025`, `2025-12-28`, `12/28/2025`), which ends a run so a date beside an
// amount is never one number (./digitRuns.ts), and an id of known form standing on its own (./idSpans.ts).
//
// Why Luhn and 13–19: every card scheme's numbers are that long and pass it, while the gateway's own long
// ids (serial numbers, transaction ids) mostly do not; a mistyped card number in a batch is caught by the
// stricter masks of a known card column (see ./mask.ts). Why only cut at separators: a long id glued to
// more digits has a Luhn-valid window almost surely (one in ten per window), so windows are taken only
// between the separators a person writes, never inside a digit run.
//
// A value checked by its type (a date, an amount, a hash…) before it is laid out need not come here at all:
// ./values.ts.

/** The ids of known form of a text, looked for once its first candidate is found (most text has none). */
interface Ids {
  spans: Map<number, number> | undefined;
  starts: Set<number> | undefined;
}

function idsOf(text: string): Ids {
  const spans = idSpans(text);
  return { spans, starts: spans && new Set(spans.keys()) };
}

/** The UTF-16 ranges of `text` to replace by one `*` each (flat: start, end, start, end…), in order. */
function maskedRanges(text: string, mode: CardMode): number[] {
  let ids: Ids | undefined; // strictly read, ids of known form are masked like any long run
  const out: number[] = [];
  const finder = candidateRuns(mode === 'cards' ? 13 : 12);
  finder.lastIndex = 0;
  for (let m = finder.exec(text); m !== null; m = finder.exec(text)) {
    if (mode !== 'strict') ids ??= idsOf(text);
    const idEnd = insideSpan(ids?.spans, m.index);
    if (idEnd >= 0) finder.lastIndex = idEnd;
    else finder.lastIndex = runRanges(text, m.index, mode, ids?.starts, out);
  }
  return out;
}

/** Adds the ranges to mask of the run starting at `at` to `out`; returns the index past the run. */
function runRanges(text: string, at: number, mode: CardMode, idStarts: Set<number> | undefined, out: number[]): number {
  const run = readRun(text, at, idStarts);
  if (run.digits.length < (mode === 'cards' ? MIN_DIGITS : 12)) return run.end;
  const ranges: Array<[number, number]> = [];
  for (const [g0, g1] of segments(run)) cardRanges(run, g0, g1, mode, text, ranges);
  if (ranges.length === 0) return run.end;
  // Each range's digits but its first 6 and last 4; ranges may overlap, each digit is hidden once, in order.
  const hidden = new Uint8Array(run.digits.length);
  for (const [from, to] of ranges) hidden.fill(1, from + 6, Math.max(from + 6, to - 4));
  for (let d = 0; d < hidden.length; d++) if (hidden[d]) out.push(run.positions[d], run.positions[d] + run.widths[d]);
  return run.end;
}

/** `text` with each range replaced by one `*`. */
function starred(text: string, ranges: readonly number[]): string {
  if (ranges.length === 0) return text;
  const out: string[] = [];
  let copied = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    out.push(text.slice(copied, ranges[r]), '*');
    copied = ranges[r + 1];
  }
  out.push(text.slice(copied));
  return out.join('');
}

/**
 * Every card number in `text` masked to its first 6 and last 4 digits, in place (each hidden digit, or the
 * escape that encoded it, becomes one `*`). `mode` widens what counts for free text and quoted values.
 */
export function maskCardNumbers(text: string, mode: CardMode = 'cards'): string {
  // The pre-scan: a text too short for a card number, or (the regex engine's candidate search, fast) with
  // no run of 13 digits of any script, is let through untouched unless it holds a percent escape.
  if (text.length < 12) return text;
  const direct = maskedRanges(text, mode);
  if (direct.length === 0 && !ENCODED.test(text)) return text;
  const masked = starred(text, direct);
  // The decoded reading runs on what the direct one left, so a `*` already in place is not found again.
  return starred(
    masked,
    decodedRanges(masked, (t) => maskedRanges(t, mode)),
  );
}
