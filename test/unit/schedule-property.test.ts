import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareDates, daysInMonth, formatGatewayDate, isRealDate, type CalendarDate } from '../../src/core/dates';
import { computeSchedule, type ScheduleInput } from '../../src/core/schedule/schedule';

const calendarDate = fc
  .record({ year: fc.integer({ min: 1900, max: 2200 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .map((d): CalendarDate => ({ ...d, day: Math.min(d.day, daysInMonth(d.year, d.month)) }));

const input: fc.Arbitrary<ScheduleInput> = fc.record(
  {
    period: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
    interval: fc.integer({ min: 1, max: 40 }),
    startDate: calendarDate,
    finishDate: calendarDate,
    maxRepeats: fc.integer({ min: 1, max: 500 }),
    amountSequence: fc.array(fc.constantFrom('1', '2.5', '10.00'), { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: [] },
);

describe('computeSchedule properties', () => {
  it('dates are real and strictly increase; count ≤ limit and ≤ max-repeats; every date ≤ finish-date', () => {
    fc.assert(
      fc.property(input, calendarDate, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 30 }), (inp, today, limit, fromIndex) => {
        const charges = computeSchedule(inp, { today, limit, fromIndex });
        assert.ok(charges.length <= limit);
        if (inp.maxRepeats !== undefined) assert.ok(charges.length <= inp.maxRepeats);
        const start = inp.startDate ?? today;
        charges.forEach((c, i) => {
          assert.ok(isRealDate(c.date), formatGatewayDate(c.date));
          assert.equal(c.index, fromIndex + i);
          if (inp.maxRepeats !== undefined) assert.ok(c.index < inp.maxRepeats);
          if (inp.finishDate) assert.ok(compareDates(c.date, inp.finishDate) <= 0);
          assert.ok(compareDates(c.date, start) >= 0);
          if (i > 0) assert.ok(compareDates(charges[i - 1].date, c.date) < 0);
        });
      }),
    );
  });

  it('a monthly charge falls on the start day, or on the last day of a shorter month', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: 1, max: 24 }), (start, interval) => {
        const charges = computeSchedule({ period: 'month', interval, startDate: start }, { today: start, limit: 30 });
        for (const c of charges) {
          assert.equal(c.date.day, Math.min(start.day, daysInMonth(c.date.year, c.date.month)));
          const months = (c.date.year - start.year) * 12 + (c.date.month - start.month);
          assert.equal(months, c.index * interval);
        }
      }),
    );
  });
});
