// The forecast's buckets as chart series: one shared axis of periods (every period any currency charges
// in, in order), and per currency the amount (max), the count and min..max per period plus a running
// total. Pure, so the chart, the SVG export and the tests read the same numbers.

import type { Forecast } from '../../src/shared/forecastProtocol';

export interface CurrencySeries {
  currency: string;
  /** Upper amount per period (0 where the currency has no charge), as a number for drawing only. */
  amounts: number[];
  charges: number[];
  /** "10.00" or "5.00..20.00" per period; '' where the currency has no charge. */
  ranges: string[];
  cumulative: number[];
  total: { charges: number; min: string; max: string };
}

export interface ChartSeries {
  periods: string[];
  currencies: CurrencySeries[];
}

/** Sums decimal strings with the same number of decimals exactly, as BigInt. */
export function sumDecimals(values: string[]): string {
  if (values.length === 0) return '0.00';
  const decimals = values[0].split('.')[1]?.length ?? 0;
  const total = values.reduce((s, v) => s + BigInt(v.replace('.', '')), 0n);
  if (decimals === 0) return total.toString();
  const text = total.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

export const rangeText = (min: string, max: string) => (min === max ? max : `${min}..${max}`);

export function toSeries(forecast: Forecast): ChartSeries {
  const periods = [...new Set(Object.values(forecast.currencies).flatMap((b) => b.map((x) => x.period)))].sort();
  const at = new Map(periods.map((p, i) => [p, i]));
  const currencies = Object.entries(forecast.currencies).map(([currency, buckets]): CurrencySeries => {
    const amounts = new Array<number>(periods.length).fill(0);
    const charges = new Array<number>(periods.length).fill(0);
    const ranges = new Array<string>(periods.length).fill('');
    for (const b of buckets) {
      const i = at.get(b.period)!;
      amounts[i] = Number(b.max);
      charges[i] = b.charges;
      ranges[i] = rangeText(b.min, b.max);
    }
    let running = 0;
    const cumulative = amounts.map((a) => (running += a));
    const total = {
      charges: buckets.reduce((s, b) => s + b.charges, 0),
      min: sumDecimals(buckets.map((b) => b.min)),
      max: sumDecimals(buckets.map((b) => b.max)),
    };
    return { currency, amounts, charges, ranges, cumulative, total };
  });
  return { periods, currencies };
}

/** A series colour by position: VS Code's chart colours, which every theme (high contrast too) sets. */
export const CHART_COLOURS = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'] as const;
export const FALLBACK_COLOURS = ['#3794ff', '#d18616', '#388a34', '#652d90', '#e51400', '#bf8803'];
