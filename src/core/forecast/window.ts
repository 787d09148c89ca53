// The forecast's window and a row's charges inside it, asked of the schedule engine from a computed first
// index, so a daily row started ten years ago costs the window's days only.

import { addDays, addMonthsClamped, toDayNumber, type CalendarDate } from '../dates';
import type { ForecastBy } from './periods';
import { computeSchedule, type Charge, type ScheduleInput } from '../schedule/schedule';

export interface ForecastWindow {
  from: CalendarDate;
  /** Inclusive. */
  to: CalendarDate;
}

/** The default window: `today` and the 12 months after it (to the day before the same date a year on). */
export function defaultWindow(today: CalendarDate): ForecastWindow {
  return { from: today, to: addDays(addMonthsClamped(today, 12), -1) };
}

/** The first charge index that can fall on or after `from`: exact for days and weeks, a bound for months. */
function firstIndexNear(start: CalendarDate, input: ScheduleInput, from: CalendarDate): number {
  const { period, interval } = input;
  if (period === undefined || interval === undefined) return 0;
  if (period === 'month') {
    const months = from.year * 12 + from.month - (start.year * 12 + start.month);
    return Math.max(0, Math.floor(months / interval) - 1);
  }
  const step = interval * (period === 'week' ? 7 : 1);
  const days = toDayNumber(from) - toDayNumber(start);
  return days <= 0 ? 0 : Math.ceil(days / step);
}

const CHUNK = 4096;

/**
 * Calls `visit` with each charge of `row` inside the window and its day number. Asks the schedule engine
 * in chunks from a computed first index, so a daily row started ten years ago costs the window's days only.
 */
export function chargesInWindow(
  input: ScheduleInput,
  window: ForecastWindow & { today: CalendarDate },
  visit: (charge: Charge, day: number) => void,
): void {
  const firstDay = toDayNumber(window.from);
  const lastDay = toDayNumber(window.to);
  const start = input.startDate ?? window.today;
  let fromIndex = firstIndexNear(start, input, window.from);
  for (;;) {
    const charges = computeSchedule(input, { today: window.today, limit: CHUNK, fromIndex });
    for (const charge of charges) {
      const day = toDayNumber(charge.date);
      if (day > lastDay) return;
      if (day >= firstDay) visit(charge, day);
    }
    if (charges.length < CHUNK) return;
    fromIndex = charges[charges.length - 1].index + 1;
  }
}

export interface ForecastOptions extends ForecastWindow {
  by: ForecastBy;
  /** The first charge's date of a row without start-date. */
  today: CalendarDate;
}
