// The bar chart on uPlot: one bar series per currency's charges, and one per currency's payouts (DST rows,
// drawn as outlined bars: money paid out, not drawn), side by side in each period (bars drawn by our own
// path builder, since uPlot's built-in bars do not group), and per series a dashed cumulative line on
// a right-hand axis. Colours come from the theme's variables and are read again when the theme changes.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_COLOURS, FALLBACK_COLOURS, type ChartSeries } from './series';

export interface ChartTheme {
  foreground: string;
  background: string;
  grid: string;
  colours: string[];
  highContrast: boolean;
}

export function readTheme(): ChartTheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const highContrast =
    document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    foreground: v('--vscode-editor-foreground', '#1f1f1f'),
    background: v('--vscode-editor-background', '#ffffff'),
    grid: highContrast ? v('--vscode-contrastBorder', '#6fc3df') : v('--vscode-editorGroup-border', '#8884'),
    colours: CHART_COLOURS.map((c, i) => v(`--vscode-charts-${c}`, FALLBACK_COLOURS[i])),
    highContrast,
  };
}

/** Bars of series slot `slot` of `slots`, side by side inside 80 % of each period's column. */
function groupedBars(slot: number, slots: number): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const path = new Path2D();
    const xs = u.data[0];
    const ys = u.data[seriesIdx];
    const col = Math.abs(u.valToPos(1, 'x', true) - u.valToPos(0, 'x', true));
    const group = col * 0.8;
    const w = group / slots;
    const y0 = u.valToPos(0, 'y', true);
    for (let i = idx0; i <= idx1; i++) {
      const v = ys[i];
      if (v == null || v <= 0) continue;
      const x = u.valToPos(xs[i], 'x', true) - group / 2 + slot * w;
      const y = u.valToPos(v, 'y', true);
      path.rect(x, y, Math.max(1, w - 1), y0 - y);
    }
    return { stroke: path, fill: path };
  };
}

const short = (v: number) =>
  Math.abs(v) >= 1e6 ? `${(v / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })}M` : v.toLocaleString('en-US');

export interface ChartHandlers {
  /** The cursor is over period `index` (null: off the chart). */
  hover(index: number | null, left: number, top: number): void;
  click(index: number): void;
}

/** The axes' labels; without `cumulative`, no running-total lines (the table's grouped summary). */
export interface ChartLabels {
  bars: string;
  cumulative?: string;
}

const FORECAST_LABELS: ChartLabels = { bars: 'amount per period (max)', cumulative: 'running total (dashed)' };

export function createChart(
  host: HTMLElement,
  data: ChartSeries,
  size: { width: number; height: number },
  handlers: ChartHandlers,
  labels: ChartLabels = FORECAST_LABELS,
): uPlot {
  const theme = readTheme();
  const n = data.periods.length;
  const slots = Math.max(1, data.currencies.length);
  const axis = { stroke: theme.foreground, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid, width: 1 } };
  const colour = (k: number) => theme.colours[k % theme.colours.length];
  const opts: uPlot.Options = {
    width: size.width,
    height: size.height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false, setScale: false }, points: { show: false }, y: false },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(0.5, n - 0.5)] },
      y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.08] },
      cumulative: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.04] },
    },
    axes: [
      {
        ...axis,
        splits: () => {
          const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(size.width / 80))));
          return data.periods.map((_, i) => i).filter((i) => i % every === 0);
        },
        values: (_u, splits) => splits.map((i) => data.periods[i] ?? ''),
      },
      { ...axis, scale: 'y', size: 70, label: labels.bars, labelSize: 20, values: (_u, splits) => splits.map(short) },
      ...(labels.cumulative === undefined
        ? []
        : [
            {
              ...axis,
              scale: 'cumulative',
              side: 1,
              size: 70,
              label: labels.cumulative,
              labelSize: 20,
              grid: { show: false },
              values: (_u: uPlot, splits: number[]) => splits.map(short),
            },
          ]),
    ],
    series: [
      {},
      ...data.currencies.map((c, k) => {
        // Payouts are outlined bars: money paid out, not one of the charges.
        const paint =
          c.kind === 'payouts'
            ? { fill: 'transparent', stroke: colour(k), width: 2 }
            : { fill: colour(k), stroke: theme.highContrast ? theme.foreground : colour(k), width: theme.highContrast ? 1 : 0 };
        return { label: c.label, scale: 'y', ...paint, paths: groupedBars(k, slots), points: { show: false } };
      }),
      ...(labels.cumulative === undefined ? [] : data.currencies).map((c, k) => ({
        label: `${c.label} cumulative`,
        scale: 'cumulative',
        stroke: colour(k),
        width: 2,
        dash: [6, 4],
        points: { show: false },
      })),
    ],
    hooks: {
      setCursor: [(u) => handlers.hover(u.cursor.idx ?? null, u.cursor.left ?? 0, u.cursor.top ?? 0)],
    },
  };
  const x = data.periods.map((_, i) => i);
  const lines = labels.cumulative === undefined ? [] : data.currencies.map((c) => c.cumulative);
  const chart = new uPlot(opts, [x, ...data.currencies.map((c) => c.amounts), ...lines], host);
  chart.over.addEventListener('click', () => {
    const i = chart.cursor.idx;
    if (i != null) handlers.click(i);
  });
  return chart;
}

/** The chart as a PNG data URL, on the theme's background (the canvas itself is transparent). */
export function chartPng(chart: uPlot, background: string, caption: readonly string[] = [], color = '#000'): string {
  const source = chart.ctx.canvas;
  // A caption above the chart (what it shows, its currency, its filter), in the canvas's own pixels.
  const scale = chart.width > 0 ? source.width / chart.width : 1;
  const line = Math.round(18 * scale);
  const band = caption.length > 0 ? caption.length * line + Math.round(10 * scale) : 0;
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height + band;
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = color;
  ctx.textBaseline = 'top';
  caption.forEach((text, i) => {
    ctx.font = `${i === 0 ? 'bold ' : ''}${Math.round(13 * scale)}px sans-serif`;
    ctx.fillText(text, Math.round(8 * scale), Math.round(6 * scale) + i * line, out.width - Math.round(16 * scale));
  });
  ctx.drawImage(source, 0, band);
  return out.toDataURL('image/png');
}
