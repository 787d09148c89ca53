// One batch's forecast as the panel needs it: computed from the document's text with the core, kept with
// its rows so a clicked period lists them without reading the batch again.
import { todayLocal, type CalendarDate } from '../../core/dates';
import { defaultWindow, forecastBatch, rowsInBucket, type BucketRow, type ForecastBy, type ForecastRun } from '../../core/forecast';
import { readBatch, type Batch } from '../../core/rules/batch';

/** At most this many rows are listed under a clicked period (the total is always given). */
export const LISTED_ROWS = 500;

export class BatchForecast {
  private constructor(
    private readonly batch: Batch,
    readonly run: ForecastRun,
  ) {}

  static compute(text: string, by: ForecastBy, today: CalendarDate = todayLocal()): BatchForecast {
    const batch = readBatch(text);
    const options = { ...defaultWindow(today), by, today };
    return new BatchForecast(batch, forecastBatch(batch, options));
  }

  rowsIn(period: string): { rows: BucketRow[]; total: number } {
    return rowsInBucket(this.batch, this.run, period, LISTED_ROWS);
  }
}
