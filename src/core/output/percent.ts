// Percent-encoding seen through (./cardNumbers.ts): the text is also read decoded (twice, for `%25`-encoded
// text, and `+` as a space), so `%284453331478932885` (an encoded `(` before a card number) or
// `4111%E2%80%8B1111…` is found, and the encoded characters of each hidden digit are replaced by one `*`.

/** Percent-decoded text, and for each of its UTF-16 units the range of the input it came from. */
interface Decoded {
  text: string;
  from: number[];
  to: number[];
}

/** The ranges of a text to replace by one `*` each (flat: start, end, start, end…), in order. */
export type RangesOf = (text: string) => number[];

export const ENCODED = /%[0-9a-f]{2}|\+/i;

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

/**
 * The character a UTF-8 sequence of `%XX` escapes at `i` encodes, and the index past it; undefined when
 * there is none (its lead byte says how many continuation bytes follow, each its own `%XX`).
 */
function escapedCharAt(s: string, i: number): { char: string; end: number } | undefined {
  const b = byteAt(s, i);
  const lead = b < 0 ? undefined : utf8Lead(b);
  if (!lead) return undefined;
  let cp = lead[1];
  let j = i + 3;
  for (let k = 0; k < lead[0] && cp >= 0; k++, j += 3) {
    const c = byteAt(s, j);
    cp = c >= 0x80 && c <= 0xbf ? (cp << 6) | (c & 0x3f) : -1;
  }
  if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return { char: String.fromCodePoint(cp), end: j };
}

/** A character that is no escape, `+` read as a space. */
const plainChar = (s: string, i: number) => (s.charCodeAt(i) === 43 ? ' ' : s[i]);

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
    const escaped = s.charCodeAt(i) === 37 ? escapedCharAt(s, i) : undefined;
    const end = escaped ? escaped.end : i + 1;
    push(escaped?.char ?? plainChar(s, i), i, end);
    i = end;
  }
  out.text = parts.join('');
  return out;
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
 * The ranges of `text` to mask found (by `rangesOf`) in its percent-decoded form (once, and again for
 * `%25`-encoded text), mapped back to the characters they came from; empty when the text holds no escape.
 */
export function decodedRanges(text: string, rangesOf: RangesOf): number[] {
  if (!ENCODED.test(text)) return [];
  const once = percentDecoded(text);
  const ranges = rangesOf(once.text).map((r, k) => (k % 2 === 0 ? once.from[r] : once.to[r - 1]));
  if (!ENCODED.test(once.text)) return ranges;
  const twice = percentDecoded(once.text);
  const more = rangesOf(twice.text).map((r, k) => (k % 2 === 0 ? once.from[twice.from[r]] : once.to[twice.to[r - 1] - 1]));
  return merged(ranges, more);
}
