// What a cell shows for a value: the text, with line breaks, tabs, bidirectional controls and other
// invisible format characters turned into visible markers (as VS Code's editor does) instead of being
// rendered or applied, and the search and filter matches highlighted. Pure: the grid turns segments
// into elements. A marker is an element with an aria-label and a CSS-drawn glyph, never a character of
// the cell's text, so it cannot be confused with the same glyph in the data.

export type Segment =
  | { kind: 'text'; text: string; hit: boolean }
  | { kind: 'marker'; marker: 'eol' | 'tab' | 'char'; code: string; label: string; hit: boolean };

/**
 * Characters that are invisible or change how the text around them is laid out: C0/C1 controls, the
 * soft hyphen, the Arabic letter mark, zero-width spaces and joiners, directional marks, embeddings,
 * overrides and isolates, invisible operators, the BOM and the interlinear annotation characters.
 */
// \p{Cc} also holds CR and LF: the alternatives before it take those first, as line breaks. U+17B4 and
// U+17B5 are combining marks listed on their own on purpose: each is a character to show, whatever precedes it.
const SPECIAL =
  // eslint-disable-next-line no-misleading-character-class -- the combining marks are meant singly (see above)
  /\r\n|[\r\n\u2028\u2029]|[\p{Cc}\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/u;
// eslint-disable-next-line no-misleading-character-class -- the same pattern as SPECIAL
const SPECIAL_G = new RegExp(SPECIAL.source, 'gu');

const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

export const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** True when the value needs more than plain text to be shown truthfully. */
export const hasSpecial = (value: string) => SPECIAL.test(value);

function markerOf(s: string): Omit<Extract<Segment, { kind: 'marker' }>, 'hit'> {
  if (s === '\r\n' || s === '\n' || s === '\r' || s === '\u2028' || s === '\u2029') {
    let what = 'line break';
    if (s === '\u2028') what = 'line separator';
    else if (s === '\u2029') what = 'paragraph separator';
    return { kind: 'marker', marker: 'eol', code: s === '\r\n' ? 'CR LF' : codePoint(s.charCodeAt(0)), label: what };
  }
  const c = s.charCodeAt(0);
  if (s === '\t') return { kind: 'marker', marker: 'tab', code: codePoint(c), label: 'tab' };
  const name = NAMES[c] ?? (c < 0x20 || (c >= 0x7f && c <= 0x9f) ? 'control character' : 'invisible character');
  return { kind: 'marker', marker: 'char', code: codePoint(c), label: `${codePoint(c)} ${name}` };
}

/** Ranges [start, end) of the value where any needle (lower-case, non-empty) occurs, merged. */
export function matchRanges(value: string, needles: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  if (needles.length === 0) return ranges;
  const lower = value.toLowerCase();
  // Lower-casing that changes the length (a few letters such as U+0130) would misplace the ranges.
  if (lower.length !== value.length) return ranges;
  for (const needle of needles) {
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** The value as text runs and markers, each flagged when it lies in a match. */
export function segments(value: string, needles: readonly string[] = []): Segment[] {
  const ranges = matchRanges(value, needles);
  // Cut points: every match boundary and every special character.
  const out: Segment[] = [];
  const pushText = (from: number, to: number) => {
    let at = from;
    for (const [s, e] of ranges) {
      if (e <= at || s >= to) continue;
      if (s > at) out.push({ kind: 'text', text: value.slice(at, s), hit: false });
      const end = Math.min(e, to);
      out.push({ kind: 'text', text: value.slice(Math.max(s, at), end), hit: true });
      at = end;
    }
    if (at < to) out.push({ kind: 'text', text: value.slice(at, to), hit: false });
  };
  const inMatch = (i: number) => ranges.some(([s, e]) => i >= s && i < e);
  let last = 0;
  SPECIAL_G.lastIndex = 0;
  for (let m = SPECIAL_G.exec(value); m; m = SPECIAL_G.exec(value)) {
    pushText(last, m.index);
    out.push({ ...markerOf(m[0]), hit: inMatch(m.index) });
    last = m.index + m[0].length;
  }
  pushText(last, value.length);
  return out;
}

/** The value for a tooltip: real line breaks, and every other special character written out, not applied. */
export function tooltipText(value: string): string {
  return value.replace(SPECIAL_G, (s) => {
    if (s === '\r\n' || s === '\n' || s === '\r' || s === '\u2028' || s === '\u2029') return '\n';
    return s === '\t' ? '<tab>' : `<${codePoint(s.charCodeAt(0))}>`;
  });
}
