// `paygate forecast --format text`: one bar per bucket in Unicode blocks, scaled to the largest amount of
// its series and fitted to the terminal's width, then the series' totals and the skipped rows. Each
// currency's charges are one series and its payouts (DST rows: money paid out) another, never summed.

import { sumAmountTexts } from '../../core/amounts';
import type { Forecast, ForecastBucket } from '../../core/forecast';
import { terminalField } from '../../core/output';
import { bar } from './bar';

const MIN_BAR = 10;

// Row text is the merchant's: one value, one line, no control character steering the terminal.
const printable = terminalField;

const amount = (b: Pick<ForecastBucket, 'min' | 'max'>) => (b.min === b.max ? b.max : `${b.min}..${b.max}`);
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** One series (a currency's charges or its payouts) as bars, then its total. */
interface Series {
  title: string;
  /** 'charge' or 'payout'. */
  word: string;
  buckets: (Pick<ForecastBucket, 'period' | 'min' | 'max'> & { count: number })[];
}

function seriesOf(forecast: Forecast): Series[] {
  const charges = Object.entries(forecast.currencies).map(([currency, buckets]) => ({
    title: currency,
    word: 'charge',
    buckets: buckets.map((b) => ({ ...b, count: b.charges })),
  }));
  const payouts = Object.entries(forecast.payouts).map(([currency, buckets]) => ({
    title: `${currency} payouts`,
    word: 'payout',
    buckets: buckets.map((b) => ({ ...b, count: b.payouts })),
  }));
  return [...charges, ...payouts];
}

export function forecastTextOutput(file: string, forecast: Forecast, columns: number): string {
  const dst = forecast.rows.payouts > 0 ? `, ${plural(forecast.rows.payouts, 'DST row')} as payouts` : '';
  const lines: string[] = [
    `${printable(file)}: charges by ${forecast.by} from ${forecast.window.from} to ${forecast.window.to} (${plural(forecast.rows.counted, 'row')} counted${dst}, ${forecast.rows.skipped.length} skipped)`,
  ];
  const series = seriesOf(forecast);
  if (series.length === 0) lines.push('', 'no charges in the window');
  for (const { title, word, buckets } of series) {
    const counts = buckets.map((b) => plural(b.count, word));
    const countWidth = counts.reduce((w, c) => Math.max(w, c.length), -Infinity);
    const labels = buckets.map((b, i) => `${counts[i].padStart(countWidth)}  ${amount(b)}`);
    const periodWidth = buckets.reduce((w, b) => Math.max(w, b.period.length), -Infinity);
    const labelWidth = labels.reduce((w, l) => Math.max(w, l.length), -Infinity);
    const width = Math.max(MIN_BAR, columns - periodWidth - labelWidth - 4);
    const peak = buckets.reduce((m, b) => Math.max(m, Number(b.max)), -Infinity);
    lines.push('', printable(title));
    buckets.forEach((b, i) => {
      const drawn = bar(peak > 0 ? Number(b.max) / peak : 0, width);
      lines.push(`${b.period.padEnd(periodWidth)} ${drawn.padEnd(width)}  ${labels[i]}`);
    });
    const total = { min: sumAmountTexts(buckets.map((b) => b.min)) ?? '', max: sumAmountTexts(buckets.map((b) => b.max)) ?? '' };
    const count = buckets.reduce((s, b) => s + b.count, 0);
    lines.push(`total ${printable(title)}: ${plural(count, word)}, ${amount(total)}`);
  }
  if (forecast.rows.skipped.length > 0) {
    lines.push('', 'skipped (not counted):');
    for (const s of forecast.rows.skipped) lines.push(`  line ${s.line}: ${printable(s.reason)}`);
  }
  return `${lines.join('\n')}\n`;
}
