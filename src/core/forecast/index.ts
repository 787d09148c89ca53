// The forecast's public face for the CLI, the editor and the bench.
export {
  defaultWindow,
  forecastBatch,
  forecastText,
  rowsInBucket,
  type BucketRow,
  type Forecast,
  type ForecastBucket,
  type ForecastOptions,
  type ForecastRun,
  type ForecastWindow,
} from './forecast';
export { FORECAST_BY, periodLabel, type ForecastBy } from './periods';
export type { SkippedRow } from './rows';
