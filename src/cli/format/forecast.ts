// `paygate forecast --format text`: one bar per bucket in Unicode blocks, scaled to the largest amount of
// its series and fitted to the terminal's width, then the series' totals and the skipped rows. Each
// currency's charges are one series and its payouts (DST rows: money paid out) another, never summed.

import { sumAmountTexts } from '../../core/amounts';
import type { Forecast, ForecastBucket } from '../../core/forecast';
import { joinLaid, laid, padLaid, vet, words, type Laid } from '../../core/output';
import { bar } from './bar';

const MIN_BAR = 10;

// Row text is the merchant's: one value, one line, no control character steering the terminal. The text is
// laid out from values checked by their type (core/output/laid.ts): `1234567.00..7654321.00` is two amounts,
// never read whole as one number.
const printable = vet.text;

const amount = (b: Pick<ForecastBucket, 'min' | 'max'>): Laid =>
  b.min === b.max ? laid`${vet.amount(b.max)}` : laid`${vet.amount(b.min)}..${vet.amount(b.max)}`;
const plural = (n: number, word: string) => laid`${vet.count(n.toLocaleString('en-US'))} ${words(word)}${words(n === 1 ? '' : 's')}`;

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

export function forecastTextOutput(file: string, forecast: Forecast, columns: number): Laid {
  const dst = forecast.rows.payouts > 0 ? laid`, ${plural(forecast.rows.payouts, 'DST row')} as payouts` : words('');
  const { from, to } = forecast.window;
  const counted = laid`${plural(forecast.rows.counted, 'row')} counted${dst}, ${vet.count(forecast.rows.skipped.length)} skipped`;
  const lines: Laid[] = [laid`${printable(file)}: charges by ${words(forecast.by)} from ${vet.date(from)} to ${vet.date(to)} (${counted})`];
  const series = seriesOf(forecast);
  if (series.length === 0) lines.push(words(''), words('no charges in the window'));
  for (const { title, word, buckets } of series) {
    const counts = buckets.map((b) => plural(b.count, word));
    const countWidth = counts.reduce((w, c) => Math.max(w, c.length), -Infinity);
    const labels = buckets.map((b, i) => laid`${padLaid(counts[i], countWidth, 'start')}  ${amount(b)}`);
    const periodWidth = buckets.reduce((w, b) => Math.max(w, b.period.length), -Infinity);
    const labelWidth = labels.reduce((w, l) => Math.max(w, l.length), -Infinity);
    const width = Math.max(MIN_BAR, columns - periodWidth - labelWidth - 4);
    const peak = buckets.reduce((m, b) => Math.max(m, Number(b.max)), -Infinity);
    lines.push(words(''), laid`${printable(title)}`);
    buckets.forEach((b, i) => {
      const drawn = bar(peak > 0 ? Number(b.max) / peak : 0, width);
      lines.push(laid`${padLaid(vet.date(b.period), periodWidth)} ${padLaid(words(drawn), width)}  ${labels[i]}`);
    });
    const total = { min: sumAmountTexts(buckets.map((b) => b.min)) ?? '', max: sumAmountTexts(buckets.map((b) => b.max)) ?? '' };
    const count = buckets.reduce((s, b) => s + b.count, 0);
    lines.push(laid`total ${printable(title)}: ${plural(count, word)}, ${amount(total)}`);
  }
  if (forecast.rows.skipped.length > 0) {
    lines.push(words(''), words('skipped (not counted):'));
    for (const s of forecast.rows.skipped) lines.push(laid`  line ${vet.count(s.line)}: ${printable(s.reason)}`);
  }
  return laid`${joinLaid(lines, '\n')}\n`;
}
