import { isIP } from 'node:net';
import { gatewayDateKey, isRealDate, formatGatewayDate } from '../dates';
import type { ValueKind } from './columns';

// Value checks by kind. They run for every cell of every row, so they avoid regular expressions and
// allocation on the common paths.

const isDigit = (c: number) => c >= 48 && c <= 57;

export function allDigits(v: string): boolean {
  if (v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!isDigit(v.charCodeAt(i))) return false;
  return true;
}

function allUpperLetters(v: string, length: number): boolean {
  if (v.length !== length) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/** Digits with an optional `.` and 1–3 fractional digits, value > 0. */
export function isDecimal(v: string): boolean {
  return isDecimalIn(v, 0, v.length);
}

/** isDecimal of v.slice(from, to), without making the slice. */
function isDecimalIn(v: string, from: number, to: number): boolean {
  let dot = -1;
  let nonZero = false;
  for (let i = from; i < to; i++) {
    const c = v.charCodeAt(i);
    if (c === 46 /* . */) {
      if (dot !== -1 || i === from) return false;
      dot = i;
    } else if (!isDigit(c)) {
      return false;
    } else if (c !== 48) {
      nonZero = true;
    }
  }
  if (to === from) return false;
  if (dot !== -1 && (to - dot - 1 < 1 || to - dot - 1 > 3)) return false;
  return nonZero;
}

/** Decimals joined by `,`, each valid. */
function isDecimalList(v: string): boolean {
  for (let from = 0; from <= v.length;) {
    let to = v.indexOf(',', from);
    if (to === -1) to = v.length;
    if (!isDecimalIn(v, from, to)) return false;
    from = to + 1;
  }
  return true;
}

export function isPositiveInt(v: string): boolean {
  if (!allDigits(v)) return false;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) !== 48) return true;
  return false;
}

function isEmail(v: string): boolean {
  const at = v.indexOf('@');
  if (at <= 0 || at !== v.lastIndexOf('@')) return false;
  const dot = v.lastIndexOf('.');
  if (dot <= at + 1 || dot === v.length - 1) return false;
  // The domain is dot-separated labels: none may be empty (john@.example.com, john@example..com).
  if (v.charCodeAt(at + 1) === 46 || v.indexOf('..', at) !== -1) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c <= 32 || c === 127) return false;
  }
  return true;
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

function isLetters(v: string, min: number, max: number): boolean {
  if (v.length < min || v.length > max) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** Is the value well-formed for its kind? (Length is checked before, separately.) */
export function isValid(kind: ValueKind, v: string): boolean {
  switch (kind) {
    case 'text':
      return true;
    case 'card-type':
      return v === 'SRC' || v === 'DST';
    case 'card-number':
      return v.length >= 12 && v.length <= 19 && allDigits(v);
    case 'cvv':
      return (v.length === 3 || v.length === 4) && allDigits(v);
    case 'year':
      return v.length === 4 && allDigits(v);
    case 'month':
      return v.length === 2 && allDigits(v) && v !== '00' && Number(v) <= 12;
    case 'decimal':
      return isDecimal(v);
    case 'decimal-list':
      return isDecimalList(v);
    case 'currency':
      return allUpperLetters(v, 3);
    case 'country':
      return allUpperLetters(v, 2);
    case 'email':
      return isEmail(v);
    case 'period':
      return v === 'day' || v === 'week' || v === 'month';
    case 'positive-int':
      return isPositiveInt(v);
    case 'ip':
      return isIP(v) !== 0;
    case 'date':
      return !Number.isNaN(gatewayDateKey(v));
    case 'url':
      return isHttpUrl(v);
    case 'state':
      return isLetters(v, 2, 3);
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

/** Luhn check of a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
