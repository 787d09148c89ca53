// Reading a cell of a report where it lies (text, from, to), without cutting a string for it: a query
// over five million rows reads an amount, a currency and a date per row, and a string per cell was most
// of the time. Each reader answers by the product's one rule for its kind and falls back to that rule's
// own code (core/amounts.ts, core/dates.ts) for anything unusual, so the fast path can never disagree.

import { parseAmount, type Amount } from '../amounts';
import { daysInMonth, toDayNumber } from '../dates';

/** Exact powers of ten up to 10^22 (a table: `10 ** n` on every cell costs more than the reading). */
export const POW10 = Array.from({ length: 23 }, (_, n) => 10 ** n);

/** Digits the fast path keeps in a double: below 2^53, and a sum of two stays exact too. */
const FAST_DIGITS = 15;

/**
 * The last decimal read by readDecimal: `units` × 10^-`scale` as a double when it has at most 15 digits
 * (`big` null), else `big` holds it exactly. One object, reused: the hot loop allocates nothing.
 */
export const decimal = { units: 0, scale: 0, big: null as Amount | null };

/**
 * Whether s[from, to) is an amount by the one amount rule (core/amounts.ts: optional sign, digits,
 * optionally a dot and digits, spaces around ignored); when it is, `decimal` holds it.
 */
export function readDecimal(s: string, from: number, to: number): boolean {
  let i = from;
  let negative = false;
  const c0 = s.charCodeAt(i);
  if (c0 === 45 || c0 === 43) {
    negative = c0 === 45;
    i++;
  }
  const first = i;
  let units = 0;
  let digits = 0;
  let dot = -1;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      units = units * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0) dot = i;
    else return readDecimalSlow(s, from, to);
  }
  // "5.", ".5", a sign alone and long numbers: the rule's own code decides.
  if (digits === 0 || digits > FAST_DIGITS || dot === first || dot === to - 1) return readDecimalSlow(s, from, to);
  decimal.units = negative ? -units : units;
  decimal.scale = dot < 0 ? 0 : to - dot - 1;
  decimal.big = null;
  return true;
}

function readDecimalSlow(s: string, from: number, to: number): boolean {
  const amount = parseAmount(s.slice(from, to));
  if (!amount) return false;
  const digits = amount.units < 0n ? -amount.units : amount.units;
  if (digits < 10n ** BigInt(FAST_DIGITS) && amount.scale < POW10.length) {
    decimal.units = Number(amount.units);
    decimal.scale = amount.scale;
    decimal.big = null;
  } else {
    decimal.big = amount;
    decimal.units = 0;
    decimal.scale = amount.scale;
  }
  return true;
}

/** The decimal readDecimal left, as an exact Amount. */
export function decimalAmount(): Amount {
  return decimal.big ?? { units: BigInt(decimal.units), scale: decimal.scale };
}

/**
 * The last date read by readDate: its day number (days since 0001-01-01) and the second of that day, or
 * -1 when the text had no time.
 */
export const moment = { day: 0, second: -1 };

/** Two digits at s[i], or -1000 when either is no digit (so any sum with it stays out of range). */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1000;
}

/** Four digits at s[i], or -1. */
function four(s: string, i: number): number {
  const hi = two(s, i);
  const lo = two(s, i + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}

/**
 * Whether s[from, to) is a date in one of the report's two shapes, `YYYY-MM-DD` (optionally followed by
 * ` hh:mm` or ` hh:mm:ss`, as Created_date is) or `DD.MM.YYYY` (as Date_of_report is), and a real one;
 * when it is, `moment` holds it.
 */
export function readDate(s: string, from: number, to: number): boolean {
  const n = to - from;
  let year: number, month: number, day: number;
  let second = -1;
  if (n >= 10 && s.charCodeAt(from + 4) === 45 && s.charCodeAt(from + 7) === 45) {
    year = four(s, from);
    month = two(s, from + 5);
    day = two(s, from + 8);
    if (n > 10) {
      second = readTime(s, from + 10, to);
      if (second < 0) return false;
    }
  } else if (n === 10 && s.charCodeAt(from + 2) === 46 && s.charCodeAt(from + 5) === 46) {
    day = two(s, from);
    month = two(s, from + 3);
    year = four(s, from + 6);
  } else return false;
  if (year < 1 || month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month))) return false;
  moment.day = dayNumber(year, month, day);
  moment.second = second;
  return true;
}

/** ` hh:mm` or ` hh:mm:ss` at s[from, to): the second of the day, or -1. */
function readTime(s: string, from: number, to: number): number {
  const n = to - from;
  if ((n !== 6 && n !== 9) || s.charCodeAt(from) !== 32 || s.charCodeAt(from + 3) !== 58) return -1;
  const h = two(s, from + 1);
  const m = two(s, from + 4);
  let sec = 0;
  if (n === 9) {
    if (s.charCodeAt(from + 6) !== 58) return -1;
    sec = two(s, from + 7);
  }
  return h >= 0 && h <= 23 && m >= 0 && m <= 59 && sec >= 0 && sec <= 59 ? h * 3600 + m * 60 + sec : -1;
}

/** Day numbers of the first of each month, by year × 12 + month, filled as months are met (toDayNumber per row cost a tenth of a grouping). */
const monthStarts = new Int32Array(10000 * 12 + 13).fill(-1);

function dayNumber(year: number, month: number, day: number): number {
  const key = year * 12 + month;
  let first = monthStarts[key];
  if (first < 0) first = monthStarts[key] = toDayNumber({ year, month, day: 1 });
  return first + day - 1;
}
