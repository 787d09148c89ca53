// Card numbers in any text that leaves the product. The floor every output passes, whatever the field:
// an id that is a card number is still a card number. A run of digits, possibly split by single spaces,
// dashes or dots (`4111 1111 1111 1111`, `4111-1111-1111-1111`, `4111.1111.1111.1111`), glued to letters
// or not (`card5105105105105100x`), is masked to its first 6 and last 4 digits when 13 to 19 of its
// digits pass the Luhn check. The separators stay where they were, so a table keeps its layout. A decimal
// amount (`4997482253.120`) is no card number, though its digits may pass: only its whole part is checked.
//
// Why Luhn and 13–19: every card scheme's numbers are that long and pass it, while the gateway's own long
// ids (serial numbers, transaction ids) mostly do not; a mistyped card number in a batch is caught by the
// stricter masks of a known card column (see ./mask.ts). Why only cut at separators: a long id glued to
// more digits has a Luhn-valid window almost surely (one in ten per window), so windows are taken only
// between the separators a person writes, never inside a digit run. Why a UUID with a letter is left
// whole: its digit groups joined by dashes are a Luhn-valid stretch about one time in ten (the gateway's
// error ids are UUIDs, and a support desk needs the id exactly), while no card number is written in the
// 8-4-4-4-12 hex shape; a UUID of digits alone is still scanned.

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSeparator = (c: number) => c === 32 || c === 45 || c === 46; // space, dash, dot

/**
 * A card number over `digits[from, to)`: the Luhn check, and a first digit that is not 0 (ISO/IEC 7812
 * reserves major industry identifier 0, so no card starts with it; zero-padded ids such as
 * `00000000-0000-0000-0000-000000000001` pass Luhn but are not cards).
 */
function luhn(digits: readonly number[], from: number, to: number): boolean {
  if (digits[from] === 0) return false;
  let sum = 0;
  let double = false;
  for (let i = to - 1; i >= from; i--) {
    let d = digits[i];
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** One run: digits joined by single separators. Positions of its digits in the text, and its groups. */
interface Run {
  positions: number[];
  digits: number[];
  /** Index into `digits` where each group (the digits between two separators) starts. */
  groupStarts: number[];
}

/** The end (exclusive) of the run starting at a digit at `start`, filling `run`. */
function readRun(text: string, start: number, run: Run): number {
  let i = start;
  run.groupStarts.push(0);
  for (;;) {
    while (i < text.length && isDigit(text.charCodeAt(i))) {
      run.positions.push(i);
      run.digits.push(text.charCodeAt(i) - 48);
      i++;
    }
    if (i + 1 < text.length && isSeparator(text.charCodeAt(i)) && isDigit(text.charCodeAt(i + 1))) {
      run.groupStarts.push(run.digits.length);
      i++;
      continue;
    }
    return i;
  }
}

/**
 * The digit ranges of a run to mask: the whole run when it is a card number; otherwise the longest
 * stretches of whole groups that are, left to right and not overlapping.
 */
function cardRanges(run: Run, text: string): Array<[number, number]> {
  const n = run.digits.length;
  if (isDecimal(run, text)) {
    // An amount (a sum of a billion has 13 digits, and one in ten passes Luhn): only its whole part can be a card.
    const whole = run.groupStarts[1];
    return whole >= MIN_DIGITS && whole <= MAX_DIGITS && luhn(run.digits, 0, whole) ? [[0, whole]] : [];
  }
  if (n >= MIN_DIGITS && n <= MAX_DIGITS && luhn(run.digits, 0, n)) return [[0, n]];
  if (run.groupStarts.length < 2 || n < MIN_DIGITS) return [];
  const bounds = [...run.groupStarts, n];
  const out: Array<[number, number]> = [];
  let g = 0;
  while (g < bounds.length - 1) {
    // The longest card-length stretch from group g: at most 19 digits ahead, so linear in the run.
    let found = -1;
    for (let h = g + 1; h < bounds.length && bounds[h] - bounds[g] <= MAX_DIGITS; h++) {
      const len = bounds[h] - bounds[g];
      if (len >= MIN_DIGITS && luhn(run.digits, bounds[g], bounds[h])) found = h;
    }
    if (found < 0) g++;
    else {
      out.push([bounds[g], bounds[found]]);
      g = found;
    }
  }
  return out;
}

/**
 * A decimal amount: two groups joined by one dot. No card number is written so (they are grouped by
 * fours, or in the 4-6-5 of some schemes), while a sum, an average or an amount of many decimals is.
 */
function isDecimal(run: Run, text: string): boolean {
  return run.groupStarts.length === 2 && text.charCodeAt(run.positions[run.groupStarts[1]] - 1) === 46;
}

/** A UUID (8-4-4-4-12 hex digits) holding at least one letter, standing on its own. */
const UUID = /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi;
const HEX_LETTER = /[a-f]/i;

/** Where each UUID with a letter ends, by the index it starts at; undefined when the text has none. */
function uuidSpans(text: string): Map<number, number> | undefined {
  if (!text.includes('-')) return undefined;
  let spans: Map<number, number> | undefined;
  UUID.lastIndex = 0;
  for (let m = UUID.exec(text); m !== null; m = UUID.exec(text)) {
    if (HEX_LETTER.test(m[0])) (spans ??= new Map()).set(m.index, m.index + m[0].length);
  }
  return spans;
}

/** The end of the UUID span holding `at`, or -1. */
function insideUuid(spans: Map<number, number> | undefined, at: number): number {
  if (spans === undefined) return -1;
  for (const [from, to] of spans) if (at >= from && at < to) return to;
  return -1;
}

/** A run with at least 13 digits: the only place a card number can be. Found by the regex engine, fast. */
const CANDIDATE = /\d(?:[ .-]?\d){12,}/g;

/** Every card number in `text` masked to its first 6 and last 4 digits, separators kept in place. */
export function maskCardNumbers(text: string): string {
  CANDIDATE.lastIndex = 0;
  let out: string[] | undefined;
  let copied = 0;
  let uuids: Map<number, number> | undefined | null = null;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    if (uuids === null) uuids = uuidSpans(text);
    const uuidEnd = insideUuid(uuids, m.index);
    if (uuidEnd >= 0) {
      CANDIDATE.lastIndex = uuidEnd;
      continue;
    }
    const run: Run = { positions: [], digits: [], groupStarts: [] };
    readRun(text, m.index, run);
    for (const [from, to] of cardRanges(run, text)) {
      out ??= [];
      for (let d = from + 6; d < to - 4; d++) {
        const at = run.positions[d];
        out.push(text.slice(copied, at), '*');
        copied = at + 1;
      }
    }
  }
  if (out === undefined) return text;
  out.push(text.slice(copied));
  return out.join('');
}
