import { luhnValidIn } from '../luhn';

// Card numbers in any text that leaves the product. The floor every output passes, whatever the field:
// an id that is a card number is still a card number. What a person reads as a card number is found:
//
// - A digit is any Unicode decimal digit (\p{Nd}: ASCII, fullwidth `４`, Arabic-Indic `٤`, Devanagari `४`…),
//   counted as its value: a person reads them as the number, and many systems fold them to ASCII.
// - Digit groups are joined by any run of separators: every Unicode space (no-break, thin, ideographic…),
//   tabs, the invisible format characters (zero-width space, joiners, word joiner, BOM, soft hyphen, bidi
//   marks: the number looks whole on screen), dashes of every kind (\p{Pd}, the minus sign), dots, slashes
//   and underscores. Letters, line breaks and other punctuation end a run.
// - A run whose digits (13 to 19 of them) pass the Luhn check and do not start with 0 is masked to its first
//   6 and last 4 digits, each other digit replaced by `*` in place: separators and scripts stay as they
//   were, so a table keeps its layout. Glued to letters or not (`card5105105105105100x`).
// - Percent-encoding is seen through: the text is also read decoded (twice, for `%25`-encoded text, and `+`
//   as a space), so `%284453331478932885` (an encoded `(` before a card number) or `4111%E2%80%8B1111…`
//   is found, and the encoded characters of each hidden digit are replaced by one `*`.
//
// What is not a card number though its digits may pass: a decimal amount (`4997482253.120`: only its whole
// part is checked), a date (`28.12.2025`, `2025-12-28`, `12/28/2025`), which ends a run so a date beside an
// amount is never one number, and an id of known form standing on its own: a hex UUID and a 24-, 32-, 40- or
// 64-hex key or hash with at least one letter (a row key, a content hash, a checksum: a merchant quotes them
// to support exactly, and no card number is written so).
//
// Why Luhn and 13–19: every card scheme's numbers are that long and pass it, while the gateway's own long
// ids (serial numbers, transaction ids) mostly do not; a mistyped card number in a batch is caught by the
// stricter masks of a known card column (see ./mask.ts). Why only cut at separators: a long id glued to
// more digits has a Luhn-valid window almost surely (one in ten per window), so windows are taken only
// between the separators a person writes, never inside a digit run.

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/** What a character is to the detection: a digit's value (0–9), a separator, or anything else. */
const SEPARATOR = -2;
const OTHER = -1;

/** ASCII by table: digits, then space, tab, `-`, `.`, `/`, `_`. */
const ASCII_KIND = new Int8Array(128).fill(OTHER);
for (let c = 48; c <= 57; c++) ASCII_KIND[c] = c - 48;
for (const c of ' \t-./_') ASCII_KIND[c.charCodeAt(0)] = SEPARATOR;

const ND = /^\p{Nd}$/u;
/**
 * Separators beyond ASCII: spaces, dashes, the invisible format characters (\p{Cf}: zero-width space, ZWNJ,
 * ZWJ, word joiner, BOM, soft hyphen, bidi marks…), the minus sign, dots (middle dot, bullet, one-dot leader,
 * fullwidth and katakana dots), slashes (fraction, division, fullwidth), fullwidth underscore, the invisible
 * fillers and joiners that are not \p{Cf} (combining grapheme joiner, Mongolian vowel separator, Hangul fillers).
 */
const SEPARATOR_CLASS =
  '[\\t ./_\\p{Zs}\\p{Pd}\\p{Cf}\\u2212\\u00b7\\u2022\\u2024\\u2027\\u2219\\u22c5\\u30fb\\uff0e\\uff65\\u2044\\u2215\\uff0f\\uff3f\\u180e\\u115f\\u1160\\u3164\\uffa0]|\\u034f';
const WIDE_SEPARATOR = new RegExp(`^(?:${SEPARATOR_CLASS})$`, 'u');
/** Where a run of at least 13 (or 12) digits of any script joined by separators starts: found by the regex engine, fast. */
const candidate = (min: number) => new RegExp(`\\p{Nd}(?:(?:${SEPARATOR_CLASS})*\\p{Nd}){${min - 1},}`, 'gu');
const CANDIDATE_13 = candidate(13);
const CANDIDATE_12 = candidate(12);

/** Kinds of the characters beyond ASCII met so far (few distinct ones in practice), bounded. */
const WIDE_KIND = new Map<number, number>();

function wideKind(cp: number): number {
  let kind = WIDE_KIND.get(cp);
  if (kind !== undefined) return kind;
  const s = String.fromCodePoint(cp);
  if (ND.test(s)) {
    // Every block of decimal digits runs from its 0 to its 9 (some, like the mathematical digits, hold
    // several sets in a row): the value is the distance from the block's start, modulo 10.
    let start = cp;
    while (ND.test(String.fromCodePoint(start - 1))) start--;
    kind = (cp - start) % 10;
  } else kind = WIDE_SEPARATOR.test(s) ? SEPARATOR : OTHER;
  if (WIDE_KIND.size >= 4096) WIDE_KIND.clear();
  WIDE_KIND.set(cp, kind);
  return kind;
}

/** The code point at `i` (a surrogate pair read whole). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? (text.codePointAt(i) as number) : c;
}

/** The kind of the character at `i`; its width in UTF-16 units is `width(cp)`. */
function kindAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_KIND[c];
  if (c < 0xa0) return OTHER; // C1 controls
  return wideKind(codePointAt(text, i));
}

const width = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
};

/**
 * True when `text` holds at least `n` digits of any script: the cheap pre-scan that lets most text (a cell,
 * a field, a line without a long number) through untouched. Counts the digits of a percent-encoded
 * character's hex too, so an encoded number is never skipped.
 */
export function hasDigits(text: string, n: number): boolean {
  if (text.length < n) return false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c >= 48 && c <= 57 && ++count >= n) return true;
    } else if (c >= 0x660 && (c < 0xdc00 || c > 0xdfff)) {
      if (wideKind(codePointAt(text, i)) >= 0 && ++count >= n) return true;
    }
  }
  return false;
}

/** `text` with its separators (as the detection knows them) left out and its digits folded to ASCII. */
export function withoutSeparators(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += width(text, i)) {
    const k = kindAt(text, i);
    if (k >= 0) out += String.fromCharCode(48 + k);
    else if (k !== SEPARATOR) out += text.slice(i, i + width(text, i));
  }
  return out;
}

/** One run: digits joined by separator runs. Positions and widths of its digits, its groups and their joins. */
interface Run {
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

/** The run starting at a digit at `start`, stopping before any id span (a UUID, a hash) it would enter. */
function readRun(text: string, start: number, spanStarts: ReadonlySet<number> | undefined): Run {
  const run: Run = { positions: [], widths: [], digits: '', groupStarts: [0], joins: [], end: start };
  let i = start;
  for (;;) {
    let k: number;
    while (i < text.length && (k = kindAt(text, i)) >= 0) {
      const w = width(text, i);
      run.positions.push(i);
      run.widths.push(w);
      run.digits += String.fromCharCode(48 + k);
      i += w;
    }
    run.end = i;
    let j = i;
    while (j < text.length && kindAt(text, j) === SEPARATOR) j += width(text, j);
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
function isCard(digits: string, from: number, to: number): boolean {
  return to - from >= MIN_DIGITS && to - from <= MAX_DIGITS && digits.charCodeAt(from) !== 48 && luhnValidIn(digits, from, to);
}

const DATE_JOIN = /^[./-]$/;

/** The digits of group `h` of a run. */
function groupDigits(run: Run, h: number): string {
  return run.digits.slice(run.groupStarts[h], h + 1 < run.groupStarts.length ? run.groupStarts[h + 1] : run.digits.length);
}

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
  const len = (g + 2 < run.groupStarts.length ? run.groupStarts[g + 2] : run.digits.length) - run.groupStarts[g + 1];
  return len <= 3 && run.joins[g - 1] !== '.' && run.joins[g + 1] !== '.';
}

/**
 * The stretches of a run to consider, as [first group, end group): the run cut around every date in it
 * and after every amount's fraction (a date or an amount is never part of a card number, and a date
 * beside an amount is two values, not one number).
 */
function segments(run: Run): Array<[number, number]> {
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

/** How a run is masked: card numbers only, or any long run too (see ./mask.ts). */
export type CardMode =
  /** Luhn-valid 13–19 digits (the floor). */
  | 'cards'
  /** Also a run of 12–19 digits standing on its own, Luhn or not (free text: a mistyped card is a card). */
  | 'loose'
  /** Also any run of 12 or more digits, glued to letters or not (a cell quoted into a message, text at rest). */
  | 'strict';

/** Where group `g` of a run starts in its digits (its length past the last group). */
function groupStart(run: Run, g: number): number {
  return g < run.groupStarts.length ? run.groupStarts[g] : run.digits.length;
}

/**
 * The digit ranges (into `run.digits`) of groups [g0, g1) to mask: the whole stretch when it is a card
 * number (or, by `mode`, long enough); otherwise the longest stretches of whole groups that are, left to
 * right and not overlapping.
 */
function cardRanges(run: Run, g0: number, g1: number, mode: CardMode, text: string, out: Array<[number, number]>): void {
  const start = (g: number) => groupStart(run, g);
  const from = start(g0);
  const to = start(g1);
  const n = to - from;
  if (g1 - g0 === 2 && run.joins[g0] === '.' && to - start(g0 + 1) < 12) {
    // An amount (a sum of a billion has 13 digits, and one in ten passes Luhn): only its whole part can be a card.
    // A "fraction" of 12 digits or more is no amount's: the run is read as any other (`01.05555555555554444`).
    const whole = start(g0 + 1);
    if (isCard(run.digits, from, whole) || (mode === 'strict' && whole - from >= 12)) out.push([from, whole]);
    return;
  }
  if (isCard(run.digits, from, to)) return void out.push([from, to]);
  if (mode === 'strict' && n >= 12) return void out.push([from, to]);
  if (mode === 'loose' && n >= 12 && n <= MAX_DIGITS && cardGrouping(run, g0, g1) && standsAlone(run, from, to, text))
    return void out.push([from, to]);
  if (g1 - g0 < 2 || n < MIN_DIGITS) return;
  let g = g0;
  while (g < g1) {
    // The longest card-length stretch from group g: at most 19 digits ahead, so linear in the run.
    let found = -1;
    for (let h = g + 1; h <= g1 && start(h) - start(g) <= MAX_DIGITS; h++) if (isCard(run.digits, start(g), start(h))) found = h;
    if (found < 0) g++;
    else {
      out.push([start(g), start(found)]);
      g = found;
    }
  }
}

/**
 * Groups [g0, g1) as card numbers are grouped when printed: one group, fours (the last 1 to 4 digits), or
 * the 4-6-5 and 4-6-4 of American Express and Diners. A Luhn-failing run is taken for a mistyped card only
 * so (free text), never a count beside an amount.
 */
function cardGrouping(run: Run, g0: number, g1: number): boolean {
  const sizes: number[] = [];
  for (let g = g0; g < g1; g++)
    sizes.push((g + 1 < run.groupStarts.length ? run.groupStarts[g + 1] : run.digits.length) - run.groupStarts[g]);
  if (sizes.length === 1) return true;
  if (sizes.length === 3 && sizes[0] === 4 && sizes[1] === 6 && (sizes[2] === 4 || sizes[2] === 5)) return true;
  return sizes.length >= 3 && sizes.slice(0, -1).every((x) => x === 4) && sizes[sizes.length - 1] <= 4;
}

const WORD = /[\p{L}\p{N}_-]/u;

/** No letter, digit, underscore or dash right before or after the digits `[from, to)` of a run. */
function standsAlone(run: Run, from: number, to: number, text: string): boolean {
  const before = run.positions[from] - 1;
  const after = run.positions[to - 1] + run.widths[to - 1];
  return (before < 0 || !WORD.test(text[before])) && (after >= text.length || !WORD.test(text[after]));
}

/**
 * Ids of known form standing on their own, never card numbers: a UUID (8-4-4-4-12 hex) and a 24-, 32-, 40-
 * or 64-hex key or hash, each with at least one letter (a UUID or hash of digits alone is still scanned).
 */
const ID_OF_KNOWN_FORM =
  /(?<![0-9A-Za-z])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32}|[0-9a-f]{24})(?![0-9A-Za-z])/gi;
const HEX_LETTER = /[a-f]/i;

/** Where each id of known form ends, by the index it starts at; undefined when the text has none. */
function idSpans(text: string): Map<number, number> | undefined {
  if (!HEX_LETTER.test(text)) return undefined;
  let spans: Map<number, number> | undefined;
  ID_OF_KNOWN_FORM.lastIndex = 0;
  for (let m = ID_OF_KNOWN_FORM.exec(text); m !== null; m = ID_OF_KNOWN_FORM.exec(text)) {
    if (HEX_LETTER.test(m[0])) (spans ??= new Map()).set(m.index, m.index + m[0].length);
  }
  return spans;
}

/** The UTF-16 ranges of `text` to replace by one `*` each (flat: start, end, start, end…), in order. */
function maskedRanges(text: string, mode: CardMode): number[] {
  // The ids of known form are looked for once a candidate is found (most text has none).
  let spans: Map<number, number> | undefined | null = mode === 'strict' ? undefined : null;
  let spanStarts: Set<number> | undefined;
  const out: number[] = [];
  const ranges: Array<[number, number]> = [];
  const min = mode === 'cards' ? MIN_DIGITS : 12;
  const finder = mode === 'cards' ? CANDIDATE_13 : CANDIDATE_12;
  finder.lastIndex = 0;
  for (let m = finder.exec(text); m !== null; m = finder.exec(text)) {
    if (spans === null) {
      spans = idSpans(text);
      spanStarts = spans && new Set(spans.keys());
    }
    const spanEnd = insideSpan(spans, m.index);
    if (spanEnd >= 0) {
      finder.lastIndex = spanEnd;
      continue;
    }
    const run = readRun(text, m.index, spanStarts);
    finder.lastIndex = run.end;
    if (run.digits.length < min) continue;
    ranges.length = 0;
    for (const [g0, g1] of segments(run)) cardRanges(run, g0, g1, mode, text, ranges);
    for (const [from, to] of ranges) {
      for (let d = from + 6; d < to - 4; d++) out.push(run.positions[d], run.positions[d] + run.widths[d]);
    }
  }
  return out;
}

/** The end of the id span holding `at`, or -1. */
function insideSpan(spans: Map<number, number> | undefined, at: number): number {
  if (spans === undefined) return -1;
  for (const [from, to] of spans) if (at >= from && at < to) return to;
  return -1;
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

/** Percent-decoded text, and for each of its UTF-16 units the range of the input it came from. */
interface Decoded {
  text: string;
  from: number[];
  to: number[];
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** A UTF-8 lead byte: how many continuation bytes follow it and the bits it holds; undefined if it leads nothing. */
function utf8Lead(b: number): [more: number, bits: number] | undefined {
  if (b < 0x80) return [0, b];
  if (b >= 0xc2 && b <= 0xdf) return [1, b & 0x1f];
  if (b >= 0xe0 && b <= 0xef) return [2, b & 0x0f];
  if (b >= 0xf0 && b <= 0xf4) return [3, b & 0x07];
  return undefined;
}

/** The byte of a `%XX` at `i`, or -1. */
function byteAt(s: string, i: number): number {
  if (s.charCodeAt(i) !== 37 || i + 2 >= s.length) return -1;
  const hi = hexValue(s.charCodeAt(i + 1));
  const lo = hexValue(s.charCodeAt(i + 2));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

/** One level of percent-decoding, tolerant (what is not a valid escape or UTF-8 stays), `+` read as a space. */
function percentDecoded(s: string): Decoded {
  const out: Decoded = { text: '', from: [], to: [] };
  const parts: string[] = [];
  const push = (piece: string, from: number, to: number) => {
    parts.push(piece);
    for (let k = 0; k < piece.length; k++) {
      out.from.push(from);
      out.to.push(to);
    }
  };
  for (let i = 0; i < s.length;) {
    const b = byteAt(s, i);
    if (b < 0) {
      push(s.charCodeAt(i) === 43 ? ' ' : s[i], i, i + 1);
      i++;
      continue;
    }
    // A UTF-8 sequence: its lead byte says how many continuation bytes follow, each its own `%XX`.
    const lead = utf8Lead(b);
    const more = lead ? lead[0] : -1;
    let cp = lead ? lead[1] : -1;
    let j = i + 3;
    for (let k = 0; k < more && cp >= 0; k++, j += 3) {
      const c = byteAt(s, j);
      cp = c >= 0x80 && c <= 0xbf ? (cp << 6) | (c & 0x3f) : -1;
    }
    if (more < 0 || cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      push(s[i], i, i + 1);
      i++;
      continue;
    }
    push(String.fromCodePoint(cp), i, j);
    i = j;
  }
  out.text = parts.join('');
  return out;
}

const ENCODED = /%[0-9a-f]{2}|\+/i;

/**
 * The ranges of `text` to mask found in its percent-decoded form (once, and again for `%25`-encoded text),
 * mapped back to the characters they came from; empty when the text holds no escape.
 */
function decodedRanges(text: string, mode: CardMode): number[] {
  if (!ENCODED.test(text)) return [];
  const once = percentDecoded(text);
  let ranges = maskedRanges(once.text, mode).map((r, k) => (k % 2 === 0 ? once.from[r] : once.to[r - 1]));
  if (ENCODED.test(once.text)) {
    const twice = percentDecoded(once.text);
    const more = maskedRanges(twice.text, mode).map((r, k) => (k % 2 === 0 ? once.from[twice.from[r]] : once.to[twice.to[r - 1] - 1]));
    ranges = merged(ranges, more);
  }
  return ranges;
}

/** Two lists of ranges as one, in order, without overlaps. */
function merged(a: readonly number[], b: readonly number[]): number[] {
  const all: Array<[number, number]> = [];
  for (const list of [a, b]) for (let r = 0; r < list.length; r += 2) all.push([list[r], list[r + 1]]);
  all.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [s, e] of all) {
    if (out.length > 0 && s < out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], e);
    else out.push(s, e);
  }
  return out;
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
  return starred(masked, decodedRanges(masked, mode));
}
