// Calendar dates without time zones: the gateway's dates are DD.MM.YYYY days, and the schedule counts
// days and months, so using Date objects (with their zone and DST shifts) would only add bugs.

export interface CalendarDate {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** One table, not an array per call: the linter asks for every date cell. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

export function isRealDate(d: CalendarDate): boolean {
  return d.year >= 1 && d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= daysInMonth(d.year, d.month);
}

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
};

/**
 * DD.MM.YYYY as one number YYYYMMDD (ordered like the dates), or NaN unless it is a real date. The
 * linter calls this for every date cell, so it reads characters instead of matching a pattern.
 */
export function gatewayDateKey(text: string): number {
  return gatewayDateKeyIn(text, 0, text.length);
}

/** gatewayDateKey of the characters `s[from, to)`, read in place (a cell of the document). */
export function gatewayDateKeyIn(s: string, from: number, to: number): number {
  if (to - from !== 10 || s.charCodeAt(from + 2) !== 46 || s.charCodeAt(from + 5) !== 46) return NaN;
  const day = digit(s, from) * 10 + digit(s, from + 1);
  const month = digit(s, from + 3) * 10 + digit(s, from + 4);
  const year = digit(s, from + 6) * 1000 + digit(s, from + 7) * 100 + digit(s, from + 8) * 10 + digit(s, from + 9);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return NaN;
  return year * 10000 + month * 100 + day;
}

export function dateKey(d: CalendarDate): number {
  return d.year * 10000 + d.month * 100 + d.day;
}

/** Parses the only accepted form, DD.MM.YYYY, into a real calendar date; anything else is undefined. */
export function parseGatewayDate(text: string): CalendarDate | undefined {
  const key = gatewayDateKey(text);
  if (Number.isNaN(key)) return undefined;
  return { year: Math.floor(key / 10000), month: Math.floor(key / 100) % 100, day: key % 100 };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatGatewayDate(d: CalendarDate): string {
  return `${pad(d.day)}.${pad(d.month)}.${pad(d.year, 4)}`;
}

export function formatIsoDate(d: CalendarDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** Days since 0001-01-01 (proleptic Gregorian), for day arithmetic without Date objects. */
export function toDayNumber(d: CalendarDate): number {
  const y = d.month <= 2 ? d.year - 1 : d.year;
  const m = d.month <= 2 ? d.month + 12 : d.month;
  return 365 * y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + Math.floor((153 * (m - 3) + 2) / 5) + d.day - 307;
}

export function fromDayNumber(n: number): CalendarDate {
  // Inverse of toDayNumber (civil-from-days, shifted so that March is the first month of the year).
  const z = n + 306;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = era * 400 + yoe + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

export function addDays(d: CalendarDate, days: number): CalendarDate {
  return fromDayNumber(toDayNumber(d) + days);
}

/** The same day of the month `months` later; a shorter month clamps to its last day. */
export function addMonthsClamped(d: CalendarDate, months: number): CalendarDate {
  const total = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
}

/** Today's date in the local time zone of the machine (what a user means by "today"). */
export function todayLocal(now: Date = new Date()): CalendarDate {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}
