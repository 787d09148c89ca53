// The forecast's buckets as chart series: one shared axis of periods (every period any series has money
// in, in order), and per series the amount (max), the count and min..max per period plus a running
// total. A currency's charges are one series and its payouts (DST rows: money paid out) another, drawn
// and totalled apart. Pure, so the chart, the SVG export and the tests read the same numbers.

import { sumAmountTexts } from '../../src/shared/amounts';
import type { Forecast } from '../../src/shared/forecastProtocol';

export interface CurrencySeries {
  /** "EUR" for charges, "EUR payouts" for payouts: what the legend and the tooltip call it. */
  label: string;
  currency: string;
  kind: 'charges' | 'payouts';
  /** Upper amount per period (0 where the series has nothing), as a number for drawing only. */
  amounts: number[];
  /** Charges (or payouts) per period. */
  counts: number[];
  /** "10.00" or "5.00..20.00" per period; '' where the series has nothing. */
  ranges: string[];
  cumulative: number[];
  total: { count: number; min: string; max: string };
}

export interface ChartSeries {
  periods: string[];
  currencies: CurrencySeries[];
}

export const rangeText = (min: string, max: string) => (min === max ? max : `${min}..${max}`);

interface Bucket {
  period: string;
  count: number;
  min: string;
  max: string;
}

/** Charges first, then payouts, each in the forecast's currency order. */
function seriesBuckets(forecast: Forecast): { currency: string; kind: CurrencySeries['kind']; buckets: Bucket[] }[] {
  return [
    ...Object.entries(forecast.currencies).map(([currency, list]) => ({
      currency,
      kind: 'charges' as const,
      buckets: list.map((b) => ({ period: b.period, count: b.charges, min: b.min, max: b.max })),
    })),
    ...Object.entries(forecast.payouts).map(([currency, list]) => ({
      currency,
      kind: 'payouts' as const,
      buckets: list.map((b) => ({ period: b.period, count: b.payouts, min: b.min, max: b.max })),
    })),
  ];
}

export function toSeries(forecast: Forecast): ChartSeries {
  const all = seriesBuckets(forecast);
  const periods = [...new Set(all.flatMap((s) => s.buckets.map((x) => x.period)))].sort();
  const at = new Map(periods.map((p, i) => [p, i]));
  const currencies = all.map(({ currency, kind, buckets }): CurrencySeries => {
    const amounts = new Array<number>(periods.length).fill(0);
    const counts = new Array<number>(periods.length).fill(0);
    const ranges = new Array<string>(periods.length).fill('');
    for (const b of buckets) {
      const i = at.get(b.period)!;
      amounts[i] = Number(b.max);
      counts[i] = b.count;
      ranges[i] = rangeText(b.min, b.max);
    }
    let running = 0;
    const cumulative = amounts.map((a) => (running += a));
    const total = {
      count: buckets.reduce((s, b) => s + b.count, 0),
      min: sumAmountTexts(buckets.map((b) => b.min)) ?? '',
      max: sumAmountTexts(buckets.map((b) => b.max)) ?? '',
    };
    return { label: kind === 'payouts' ? `${currency} payouts` : currency, currency, kind, amounts, counts, ranges, cumulative, total };
  });
  return { periods, currencies };
}

/** "3 charges" / "1 payout". */
export function countText(n: number, kind: CurrencySeries['kind']): string {
  const word = kind === 'payouts' ? 'payout' : 'charge';
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** A series colour by position: VS Code's chart colours, which every theme (high contrast too) sets. */
export const CHART_COLOURS = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'] as const;
export const FALLBACK_COLOURS = ['#3794ff', '#d18616', '#388a34', '#652d90', '#e51400', '#bf8803'];
