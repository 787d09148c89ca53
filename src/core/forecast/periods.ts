// Bucket labels for the forecast: a day (YYYY-MM-DD), an ISO 8601 week (YYYY-Www, weeks start on Monday
// and belong to the year of their Thursday) or a month (YYYY-MM). Worked out on day numbers, never on
// Date objects: the gateway's dates are calendar days without a zone or DST.

import { formatIsoDate, fromDayNumber, toDayNumber, type CalendarDate } from '../dates';
import type { Period } from '../periods';

/** What a forecast buckets by: one of the gateway's periods. */
export type ForecastBy = Period;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** 0001-01-01 is day number 0 and a Monday, so a day number modulo 7 is its ISO weekday (Monday 0). */
export function isoWeekOf(day: number): { year: number; week: number } {
  const thursday = day - (((day % 7) + 7) % 7) + 3;
  const year = fromDayNumber(thursday).year;
  const week = Math.floor((thursday - toDayNumber({ year, month: 1, day: 1 })) / 7) + 1;
  return { year, week };
}

export function periodLabel(by: ForecastBy, date: CalendarDate): string {
  switch (by) {
    case 'day':
      return formatIsoDate(date);
    case 'month':
      return `${pad(date.year, 4)}-${pad(date.month)}`;
    case 'week': {
      const { year, week } = isoWeekOf(toDayNumber(date));
      return `${pad(year, 4)}-W${pad(week)}`;
    }
  }
}

/** The window's buckets in order, and which bucket each day of the window falls in (by day offset). */
export interface PeriodTable {
  firstDay: number;
  lastDay: number;
  labels: string[];
  /** bucketOfDay[day - firstDay] is the index into labels. */
  bucketOfDay: Int32Array;
}

export function periodTable(by: ForecastBy, from: CalendarDate, to: CalendarDate): PeriodTable {
  const firstDay = toDayNumber(from);
  const lastDay = toDayNumber(to);
  const days = Math.max(0, lastDay - firstDay + 1);
  const bucketOfDay = new Int32Array(days);
  const labels: string[] = [];
  let last = '';
  for (let i = 0; i < days; i++) {
    const label = periodLabel(by, fromDayNumber(firstDay + i));
    if (label !== last) {
      labels.push(label);
      last = label;
    }
    bucketOfDay[i] = labels.length - 1;
  }
  return { firstDay, lastDay, labels, bucketOfDay };
}
