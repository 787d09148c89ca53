// The forecast's public face for the CLI, the editor and the bench.
export {
  defaultWindow,
  forecastBatch,
  forecastText,
  rowsInBucket,
  type BucketRow,
  type Forecast,
  type ForecastBucket,
  type ForecastRun,
} from './forecast';
export { type ForecastBy } from './periods';
