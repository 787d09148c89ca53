// The message protocol between the extension host (src/extension/forecast) and the forecast page
// (webview-ui/forecast). Both sides import this file, so it stays free of `vscode` and of Node APIs; each
// side checks what it receives with the guards below and ignores anything else.
import { isRec, isStr } from './guards';
import { isSaid, type Said } from '../core/output/said';

import type { BucketRow, Forecast, ForecastBy } from '../core/forecast';
import { isPeriod } from '../core/periods';

export type { BucketRow, Forecast, ForecastBy };

export const FORECAST_PROTOCOL_VERSION = 2;
export const FORECAST_VIEW_TYPE = 'paygate.forecast';

export type ForecastHostToPage =
  /** A fresh forecast of `file` (its name only); `generation` orders the answers to the page's questions. */
  | { type: 'forecast'; file: string; generation: number; forecast: Forecast }
  /** The batch is being read again after an edit. */
  | { type: 'computing' }
  /** The rows charging in `period`: at most a few hundred of them, `total` in all. */
  | { type: 'bucketRows'; period: string; rows: BucketRow[]; total: number }
  /** How an export ended, laid out by the page value by value (the file's path). */
  | { type: 'exportDone'; ok: boolean; message: Said };

export type ForecastExport =
  { format: 'png'; /** data: URL of the canvas, image/png. */ dataUrl: string } | { format: 'svg'; svg: string } | { format: 'csv' };

export type ForecastPageToHost =
  | { type: 'ready'; version: number }
  | { type: 'setBy'; by: ForecastBy }
  | { type: 'bucket'; period: string }
  | { type: 'reveal'; line: number }
  | ({ type: 'export' } & ForecastExport)
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isBy: (v: unknown) => v is ForecastBy = isPeriod;

function isBucket(v: unknown): boolean {
  return isRec(v) && isStr(v.period) && isCount(v.charges) && isStr(v.min) && isStr(v.max);
}

function isPayoutBucket(v: unknown): boolean {
  return isRec(v) && isStr(v.period) && isCount(v.payouts) && isStr(v.min) && isStr(v.max);
}

const everyList = (v: unknown, item: (x: unknown) => boolean) =>
  isRec(v) && Object.values(v).every((b) => Array.isArray(b) && b.every(item));

export function isForecast(v: unknown): v is Forecast {
  return (
    isRec(v) &&
    isBy(v.by) &&
    isRec(v.window) &&
    isStr(v.window.from) &&
    isStr(v.window.to) &&
    everyList(v.currencies, isBucket) &&
    everyList(v.payouts, isPayoutBucket) &&
    isRec(v.rows) &&
    isCount(v.rows.counted) &&
    isCount(v.rows.payouts) &&
    Array.isArray(v.rows.skipped) &&
    v.rows.skipped.every((s) => isRec(s) && isCount(s.line) && isCount(s.row) && isStr(s.reason))
  );
}

function isBucketRow(v: unknown): v is BucketRow {
  return (
    isRec(v) &&
    isCount(v.line) &&
    isCount(v.row) &&
    isStr(v.clientOrderId) &&
    isStr(v.currency) &&
    isCount(v.charges) &&
    typeof v.payout === 'boolean' &&
    isStr(v.min) &&
    isStr(v.max)
  );
}

export function isForecastHostToPage(v: unknown): v is ForecastHostToPage {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'forecast':
      return isStr(v.file) && isCount(v.generation) && isForecast(v.forecast);
    case 'computing':
      return true;
    case 'bucketRows':
      return isStr(v.period) && Array.isArray(v.rows) && v.rows.every(isBucketRow) && isCount(v.total);
    case 'exportDone':
      return typeof v.ok === 'boolean' && isSaid(v.message);
    default:
      return false;
  }
}

export function isForecastPageToHost(v: unknown): v is ForecastPageToHost {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.version === 'number';
    case 'setBy':
      return isBy(v.by);
    case 'bucket':
      return isStr(v.period);
    case 'reveal':
      return isCount(v.line) && v.line >= 1;
    case 'export':
      return (
        (v.format === 'png' && isStr(v.dataUrl) && v.dataUrl.startsWith('data:image/png;base64,')) ||
        (v.format === 'svg' && isStr(v.svg)) ||
        v.format === 'csv'
      );
    case 'log':
      return (v.level === 'info' || v.level === 'warn' || v.level === 'error') && isStr(v.message);
    default:
      return false;
  }
}
