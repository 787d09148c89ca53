// What a character is to the card-number detection (./cardNumbers.ts): a digit of any script, counted by its
// value, a separator a person writes between digit groups, or anything else.
//
// - A digit is any Unicode decimal digit (\p{Nd}: ASCII, fullwidth `４`, Arabic-Indic `٤`, Devanagari `४`…).
// - A separator is every Unicode space (no-break, thin, ideographic…), a tab, the invisible format characters
//   (zero-width space, joiners, word joiner, BOM, soft hyphen, bidi marks), dashes of every kind (\p{Pd}, the
//   minus sign), dots, slashes and underscores. Letters, line breaks and other punctuation are neither.

/** What a character is: a digit's value (0–9), a separator, or anything else. */
export const SEPARATOR = -2;
export const OTHER = -1;

/** ASCII by table: digits, then space, tab, `-`, `.`, `/`, `_`. */
const ASCII_KIND = new Int8Array(128).fill(OTHER);
for (let c = 48; c <= 57; c++) ASCII_KIND[c] = c - 48;
for (const c of ' \t-./_') ASCII_KIND[c.charCodeAt(0)] = SEPARATOR;

// The Unicode classes are made on first use: building them cost every `paygate` start about a
// millisecond, and only text beyond ASCII needs them (issue 40).
let nd: RegExp | undefined;
const isDigit = (s: string) => (nd ??= /^\p{Nd}$/u).test(s);
/**
 * Separators beyond ASCII: spaces, dashes, the invisible format characters (\p{Cf}: zero-width space, ZWNJ,
 * ZWJ, word joiner, BOM, soft hyphen, bidi marks…), the minus sign, dots (middle dot, bullet, one-dot leader,
 * fullwidth and katakana dots), slashes (fraction, division, fullwidth), fullwidth underscore, the invisible
 * fillers and joiners that are not \p{Cf} (combining grapheme joiner, Mongolian vowel separator, Hangul fillers).
 */
const SEPARATOR_CLASS =
  '[\\t ./_\\p{Zs}\\p{Pd}\\p{Cf}\\u2212\\u00b7\\u2022\\u2024\\u2027\\u2219\\u22c5\\u30fb\\uff0e\\uff65\\u2044\\u2215\\uff0f\\uff3f\\u180e\\u115f\\u1160\\u3164\\uffa0]|\\u034f';
let wideSeparator: RegExp | undefined;
const isWideSeparator = (s: string) => (wideSeparator ??= new RegExp(`^(?:${SEPARATOR_CLASS})$`, 'u')).test(s);
const candidates = new Map<number, RegExp>();
/**
 * Where a run of at least 13 (or 12) digits of any script joined by separators starts: found by the regex
 * engine, fast. Made on first use (one per length, kept), as the classes above.
 */
export function candidateRuns(min: 12 | 13): RegExp {
  let finder = candidates.get(min);
  if (finder === undefined) candidates.set(min, (finder = new RegExp(`\\p{Nd}(?:(?:${SEPARATOR_CLASS})*\\p{Nd}){${min - 1},}`, 'gu')));
  return finder;
}

/** Kinds of the characters beyond ASCII met so far (few distinct ones in practice), bounded. */
const WIDE_KIND = new Map<number, number>();

/**
 * A digit's value: every block of decimal digits runs from its 0 to its 9 (some, like the mathematical
 * digits, hold several sets in a row), so the value is the distance from the block's start, modulo 10.
 */
function digitValue(cp: number): number {
  let start = cp;
  while (isDigit(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

function wideKind(cp: number): number {
  let kind = WIDE_KIND.get(cp);
  if (kind !== undefined) return kind;
  const s = String.fromCodePoint(cp);
  if (isDigit(s)) kind = digitValue(cp);
  else kind = isWideSeparator(s) ? SEPARATOR : OTHER;
  if (WIDE_KIND.size >= 4096) WIDE_KIND.clear();
  WIDE_KIND.set(cp, kind);
  return kind;
}

/** The code point at `i` (a surrogate pair read whole). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? (text.codePointAt(i) as number) : c;
}

/** The kind of the character at `i`; its width in UTF-16 units is `width(text, i)`. */
export function kindAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_KIND[c];
  if (c < 0xa0) return OTHER; // C1 controls
  return wideKind(codePointAt(text, i));
}

export const width = (text: string, i: number) => {
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
