import type * as Net from 'node:net';
import { isRuleBookDecimalIn } from '../amounts';
import { gatewayDateKeyIn, isRealDate, formatGatewayDate } from '../dates';
import { PERIODS } from '../periods';
import type { ColumnSpec, ValueKind } from './columns';

// Value checks by kind. They run for every cell of every row, so they avoid regular expressions and
// allocation on the common paths: each reads the characters `s[from, to)` in place (a cell of the
// document, see RowCells); only the rare kinds (URL, IP) cut the cell into a string.

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * node:net's isIP, loaded at the first IP cell: node:net (and the streams under it) would be most of what a
 * lint of a small file loads before it starts, for a column few batches have.
 */
let netIsIP: typeof Net.isIP | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const isIP = (s: string) => (netIsIP ??= (require('node:net') as typeof Net).isIP)(s);

function allDigitsIn(s: string, from: number, to: number): boolean {
  if (to === from) return false;
  for (let i = from; i < to; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

function allUpperLetters(s: string, from: number, to: number, length: number): boolean {
  if (to - from !== length) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/** The value of a run of digits (already checked to be digits). */
export function digitsValue(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
}

const isWord = (s: string, from: number, to: number, word: string) => to - from === word.length && s.startsWith(word, from);

/** Decimals joined by `,`, each valid. */
function isDecimalList(s: string, from: number, to: number): boolean {
  let element = from;
  for (let i = from; i <= to; i++) {
    if (i < to && s.charCodeAt(i) !== 44 /* , */) continue;
    if (!isRuleBookDecimalIn(s, element, i)) return false;
    element = i + 1;
  }
  return true;
}

/**
 * One of the periods, by a loop rather than `PERIODS.some(closure)`: a closure over `s`, `from` and `to`
 * made isValidIn allocate a context on every call, for every cell of every row (most of a lint's garbage).
 */
function isPeriodIn(s: string, from: number, to: number): boolean {
  for (let k = 0; k < PERIODS.length; k++) if (isWord(s, from, to, PERIODS[k])) return true;
  return false;
}

function isPositiveIntIn(s: string, from: number, to: number): boolean {
  if (!allDigitsIn(s, from, to)) return false;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) !== 48) return true;
  return false;
}

/**
 * local@domain.tld in one pass: one `@`, not first; the last `.` after the `@` with a character between,
 * not last; the domain's labels not empty (john@.example.com, john@example..com); no space or control
 * character.
 */
function isEmail(s: string, from: number, to: number): boolean {
  let at = -1;
  let dot = -1;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c === 127) return false;
    if (c === 64 /* @ */) {
      if (at !== -1) return false;
      at = i;
    } else if (c === 46 /* . */) {
      if (at !== -1 && (i === at + 1 || s.charCodeAt(i - 1) === 46)) return false;
      dot = i;
    }
  }
  return at > from && dot > at + 1 && dot !== to - 1;
}

function isHttpUrl(v: string): boolean {
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

function isLetters(s: string, from: number, to: number, min: number, max: number): boolean {
  if (to - from < min || to - from > max) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** Are the characters `s[from, to)` well-formed for their kind? (Length is checked before, separately.) */
export function isValidIn(kind: ValueKind, s: string, from: number, to: number): boolean {
  const length = to - from;
  switch (kind) {
    case 'text':
      return true;
    case 'card-type':
      return isWord(s, from, to, 'SRC') || isWord(s, from, to, 'DST');
    case 'card-number':
      return length >= 12 && length <= 19 && allDigitsIn(s, from, to);
    case 'cvv':
      return (length === 3 || length === 4) && allDigitsIn(s, from, to);
    case 'year':
      return length === 4 && allDigitsIn(s, from, to);
    case 'month': {
      if (length !== 2 || !allDigitsIn(s, from, to)) return false;
      const month = digitsValue(s, from, to);
      return month >= 1 && month <= 12;
    }
    case 'decimal':
      return isRuleBookDecimalIn(s, from, to);
    case 'decimal-list':
      return isDecimalList(s, from, to);
    case 'currency':
      return allUpperLetters(s, from, to, 3);
    case 'country':
      return allUpperLetters(s, from, to, 2);
    case 'email':
      return isEmail(s, from, to);
    case 'period':
      return isPeriodIn(s, from, to);
    case 'positive-int':
      return isPositiveIntIn(s, from, to);
    case 'ip':
      return isIP(s.slice(from, to)) !== 0;
    case 'date':
      return !Number.isNaN(gatewayDateKeyIn(s, from, to));
    case 'url':
      return isHttpUrl(s.slice(from, to));
    case 'state':
      return isLetters(s, from, to, 2, 3);
  }
}

/** What a valid value looks like, for messages. */
export const EXPECTED: Record<ValueKind, string> = {
  text: 'text',
  'card-type': 'SRC or DST (upper case)',
  'card-number': '12 to 19 digits',
  cvv: '3 or 4 digits',
  year: '4 digits',
  month: '2 digits from 01 to 12',
  decimal: 'a decimal greater than 0 with at most 3 fractional digits (e.g. 10.50)',
  'decimal-list': 'decimals greater than 0 joined by "," (e.g. 10.00,12.50)',
  currency: '3 upper-case letters (e.g. EUR)',
  country: '2 upper-case letters (e.g. DE)',
  email: 'an e-mail address local@domain.tld',
  period: 'day, week or month',
  'positive-int': 'a whole number of at least 1',
  ip: 'an IPv4 or IPv6 address',
  date: 'a real date written DD.MM.YYYY',
  url: 'an absolute http(s) URL',
  state: '2 or 3 letters',
};

/** The rule book's value fixes: a corrected value when one is certain, else undefined. */
export function suggestValue(kind: ValueKind, v: string): string | undefined {
  switch (kind) {
    case 'card-type': {
      const up = v.toUpperCase();
      return up === 'SRC' || up === 'DST' ? up : undefined;
    }
    case 'month':
      return v.length === 1 && v >= '1' && v <= '9' ? `0${v}` : undefined;
    case 'date':
      return rewriteDate(v);
    default:
      return undefined;
  }
}

/** D/M/YYYY, D-M-YYYY, D.M.YYYY (day first) and YYYY-MM-DD rewritten as DD.MM.YYYY when the date is real. */
export function rewriteDate(v: string): string | undefined {
  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(v);
  let d = m && { day: Number(m[1]), month: Number(m[2]), year: Number(m[3]) };
  if (m && !/^\d{1,2}([/.-])\d{1,2}\1\d{4}$/.test(v)) d = null; // mixed separators: not a known form
  if (!d) {
    m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    d = m && { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  }
  if (!d || !isRealDate(d)) return undefined;
  const out = formatGatewayDate(d);
  return out === v ? undefined : out;
}

/** Length in characters (code points), counted only when the UTF-16 length could exceed the limit. */
export function exceedsLength(v: string, max: number): boolean {
  if (v.length <= max) return false;
  let n = 0;
  for (const _ of v) if (++n > max) return true;
  return false;
}

/** Is the value longer than its column allows? A list's elements each on its own. */
export function tooLong(spec: ColumnSpec, v: string): boolean {
  const max = spec.maxLength!;
  if (spec.kind !== 'decimal-list') return exceedsLength(v, max);
  // Per element, without splitting: this runs for every amount-sequence cell.
  for (let from = 0; from <= v.length;) {
    let to = v.indexOf(',', from);
    if (to === -1) to = v.length;
    if (to - from > max && exceedsLength(v.slice(from, to), max)) return true;
    from = to + 1;
  }
  return false;
}
