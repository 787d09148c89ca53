// The chart as an SVG file, built from the buckets (uPlot draws on a canvas, which has no vector form):
// the same bars (payouts outlined), cumulative lines, axes and labels, with every text escaped.

import { countText, rangeText, type ChartSeries } from './series';

export interface SvgTheme {
  foreground: string;
  background: string;
  grid: string;
  colours: string[];
}

const W = 960;
const H = 420;
const PAD = { left: 80, right: 80, top: 40, bottom: 60 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Math.round(v * 10) / 10).toString();

/** A round step for about `count` grid lines up to `max`. */
function step(max: number, count: number): number {
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
}

export function chartSvg(series: ChartSeries, title: string, theme: SvgTheme): string {
  const { periods, currencies } = series;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const peak = currencies.reduce((m, c) => c.amounts.reduce((n, a) => Math.max(n, a), m), 1);
  const cumPeak = currencies.reduce((m, c) => Math.max(m, c.cumulative[c.cumulative.length - 1] ?? 0), 1);
  const col = plotW / Math.max(1, periods.length);
  const group = col * 0.8;
  const barW = group / Math.max(1, currencies.length);
  const y = (v: number) => PAD.top + plotH - (v / peak) * plotH;
  const yc = (v: number) => PAD.top + plotH - (v / cumPeak) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="${esc(theme.background)}"/>`,
    `<text x="${PAD.left}" y="22" font-size="14" fill="${esc(theme.foreground)}">${esc(title)}</text>`,
  ];
  const s = step(peak, 5);
  for (let v = 0; v <= peak + 1e-9; v += s) {
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="${esc(theme.grid)}"/>`);
    out.push(
      `<text x="${PAD.left - 6}" y="${n(y(v) + 4)}" text-anchor="end" fill="${esc(theme.foreground)}">${esc(v.toLocaleString('en-US'))}</text>`,
    );
  }
  const sc = step(cumPeak, 5);
  for (let v = 0; v <= cumPeak + 1e-9; v += sc) {
    out.push(`<text x="${W - PAD.right + 6}" y="${n(yc(v) + 4)}" fill="${esc(theme.foreground)}">${esc(v.toLocaleString('en-US'))}</text>`);
  }
  const every = Math.max(1, Math.ceil(periods.length / 16));
  periods.forEach((p, i) => {
    if (i % every !== 0) return;
    const x = PAD.left + col * (i + 0.5);
    out.push(`<text x="${n(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle" fill="${esc(theme.foreground)}">${esc(p)}</text>`);
  });
  currencies.forEach((c, k) => {
    const colour = esc(theme.colours[k % theme.colours.length]);
    const paint = c.kind === 'payouts' ? `fill="none" stroke="${colour}" stroke-width="2"` : `fill="${colour}"`;
    out.push(`<g ${paint}><title>${esc(c.label)}</title>`);
    c.amounts.forEach((a, i) => {
      if (a <= 0) return;
      const x = PAD.left + col * i + (col - group) / 2 + k * barW;
      out.push(
        `<rect x="${n(x)}" y="${n(y(a))}" width="${n(Math.max(1, barW - 1))}" height="${n(PAD.top + plotH - y(a))}"><title>${esc(`${periods[i]} ${c.label}: ${countText(c.counts[i], c.kind)}, ${c.ranges[i]}`)}</title></rect>`,
      );
    });
    out.push('</g>');
    const points = c.cumulative.map((v, i) => `${n(PAD.left + col * (i + 0.5))},${n(yc(v))}`).join(' ');
    out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="6 4"/>`);
    out.push(
      `<text x="${PAD.left + k * 200}" y="${H - 14}" fill="${colour}">${esc(`${c.kind === 'payouts' ? '□' : '■'} ${c.label}: ${countText(c.total.count, c.kind)}, ${rangeText(c.total.min, c.total.max)}`)}</text>`,
    );
  });
  out.push(
    `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" stroke="${esc(theme.foreground)}"/>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
