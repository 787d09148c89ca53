// The forecast page: the day/week/month switch, the exports, the totals, the chart with its tooltip, the
// rows of a clicked period and the rows that were skipped. Every value from the batch is set as text.

import type uPlot from 'uplot';
import type { BucketRow, ForecastBy, ForecastHostToPage, ForecastPageToHost } from '../../src/shared/forecastProtocol';
import { PERIODS } from '../../src/shared/periods';
import { said, saidText, typed } from '../../src/shared/said';
import { chartPng, createChart, readTheme } from './chart';
import { countText, rangeText, toSeries, type ChartSeries } from './series';
import { chartSvg } from './svg';
import type { VsCodeApi } from '../dom';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]) {
  const e = Object.assign(document.createElement(tag), props);
  for (const c of children) e.append(c);
  return e;
}

export class ForecastView {
  private chart: uPlot | undefined;
  private series: ChartSeries = { periods: [], currencies: [] };
  private file = '';
  private by: ForecastBy = 'month';
  private selected = -1;
  private readonly byButtons = new Map<ForecastBy, HTMLButtonElement>();
  private readonly status = el('span', { className: 'status' });
  private readonly totals = el('div', { className: 'totals' });
  private readonly plot = el('div', { className: 'plot', tabIndex: 0 });
  private readonly tooltip = el('div', { className: 'tooltip', role: 'tooltip' });
  private readonly rows = el('section', { className: 'rows' });
  private readonly skipped = el('section', { className: 'skipped' });

  constructor(
    private readonly root: HTMLElement,
    private readonly vscode: VsCodeApi<ForecastPageToHost>,
  ) {
    const switcher = el('div', { className: 'switch', role: 'group' });
    switcher.setAttribute('aria-label', 'Bucket size');
    for (const by of PERIODS) {
      const b = el('button', { type: 'button', textContent: by[0].toUpperCase() + by.slice(1) });
      b.dataset.by = by;
      b.addEventListener('click', () => this.setBy(by));
      this.byButtons.set(by, b);
      switcher.append(b);
    }
    const exportButton = (format: 'png' | 'svg' | 'csv') => {
      const b = el('button', { type: 'button', textContent: `Export ${format.toUpperCase()}` });
      b.dataset.export = format;
      b.addEventListener('click', () => this.export(format));
      return b;
    };
    this.status.setAttribute('aria-live', 'polite');
    this.plot.setAttribute('role', 'img');
    this.plot.setAttribute(
      'aria-label',
      'Charges per period. Left and right arrows move between periods; Enter lists the rows charging in one.',
    );
    this.plot.addEventListener('keydown', (e) => this.onKey(e));
    this.plot.append(this.tooltip);
    this.tooltip.hidden = true;
    root.append(
      el('div', { className: 'toolbar' }, switcher, exportButton('png'), exportButton('svg'), exportButton('csv'), this.status),
      this.totals,
      this.plot,
      el('div', { className: 'lists' }, this.rows, this.skipped),
    );
    new ResizeObserver(() => this.chart?.setSize(this.size())).observe(this.plot);
    // VS Code switches themes by changing the body's class: the canvas colours are read again then.
    new MutationObserver(() => {
      this.draw();
      this.showTotals();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  handle(msg: ForecastHostToPage): void {
    switch (msg.type) {
      case 'computing':
        this.status.textContent = 'Reading the batch…';
        break;
      case 'forecast': {
        const start = performance.now();
        this.file = msg.file;
        this.by = msg.forecast.by;
        for (const [by, b] of this.byButtons) b.setAttribute('aria-pressed', String(by === this.by));
        this.series = toSeries(msg.forecast);
        this.selected = -1;
        this.draw();
        this.showTotals();
        this.showSkipped(msg.forecast.rows.skipped, msg.forecast.rows.counted);
        this.rows.replaceChildren(
          el('p', {
            className: 'hint',
            textContent: 'Click a bar (or press Enter on the chart) to list the rows charging in that period.',
          }),
        );
        const { from, to } = msg.forecast.window;
        // The file's name is free text, the window's ends are dates: each checked alone where it is shown.
        this.status.textContent = saidText(said`${typed.text(this.file)}: ${typed.date(from)} to ${typed.date(to)}`);
        // Drawn means on screen: the time runs to the next frame, after uPlot's own deferred work.
        requestAnimationFrame(() => {
          performance.measure('forecast-draw', { start });
          document.body.dataset.drawMs = String(Math.round((performance.now() - start) * 10) / 10);
          document.body.dataset.state = 'ready';
        });
        break;
      }
      case 'bucketRows':
        this.showRows(msg.period, msg.rows, msg.total);
        break;
      case 'exportDone':
        this.status.textContent = saidText(msg.message);
        break;
    }
  }

  private size(): { width: number; height: number } {
    return { width: Math.max(200, this.plot.clientWidth), height: Math.max(160, this.plot.clientHeight) };
  }

  private draw(): void {
    this.chart?.destroy();
    this.chart = undefined;
    this.tooltip.hidden = true;
    if (this.series.periods.length === 0) {
      this.plot.replaceChildren(this.tooltip, el('p', { className: 'hint', textContent: 'No charges in the window.' }));
      return;
    }
    this.plot.replaceChildren(this.tooltip);
    this.chart = createChart(this.plot, this.series, this.size(), {
      hover: (i, left, top) => this.showTooltip(i, left, top),
      click: (i) => this.select(i),
    });
  }

  private showTooltip(i: number | null, left: number, top: number): void {
    if (i === null || i < 0 || !this.chart) {
      this.tooltip.hidden = true;
      return;
    }
    const lines = this.series.currencies
      .filter((c) => c.counts[i] > 0)
      .map((c) => `${c.label}: ${countText(c.counts[i], c.kind)}, ${c.ranges[i]}`);
    // eslint-disable-next-line no-restricted-syntax -- bounded: one line per currency
    this.tooltip.replaceChildren(el('strong', { textContent: this.series.periods[i] }), ...lines.map((l) => el('div', { textContent: l })));
    this.tooltip.hidden = false;
    const over = this.chart.over;
    // Positioned through the CSSOM (element.style), which the page's CSP allows.
    this.tooltip.style.left = `${Math.min(over.offsetLeft + left + 12, this.plot.clientWidth - 220)}px`;
    this.tooltip.style.top = `${over.offsetTop + Math.max(0, top - 10)}px`;
  }

  private select(i: number): void {
    if (i < 0 || i >= this.series.periods.length) return;
    this.selected = i;
    this.rows.replaceChildren(el('p', { className: 'hint', textContent: `Listing the rows charging in ${this.series.periods[i]}…` }));
    this.vscode.postMessage({ type: 'bucket', period: this.series.periods[i] });
  }

  private onKey(e: KeyboardEvent): void {
    const n = this.series.periods.length;
    if (n === 0 || !this.chart) return;
    let i = this.selected < 0 ? 0 : this.selected;
    if (e.key === 'ArrowRight') i = Math.min(n - 1, this.selected < 0 ? 0 : i + 1);
    else if (e.key === 'ArrowLeft') i = Math.max(0, i - 1);
    else if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = n - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      this.select(i);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    this.selected = i;
    const left = this.chart.valToPos(i, 'x');
    this.chart.setCursor({ left, top: this.chart.over.clientHeight / 3 });
  }

  private setBy(by: ForecastBy): void {
    if (by === this.by) return;
    this.status.textContent = `Bucketing by ${by}…`;
    this.vscode.postMessage({ type: 'setBy', by });
  }

  private export(format: 'png' | 'svg' | 'csv'): void {
    const theme = readTheme();
    if (format === 'csv') this.vscode.postMessage({ type: 'export', format });
    else if (format === 'svg') {
      const title = `${this.file}: charges by ${this.by}`;
      this.vscode.postMessage({ type: 'export', format, svg: chartSvg(this.series, title, theme) });
    } else if (this.chart) this.vscode.postMessage({ type: 'export', format, dataUrl: chartPng(this.chart, theme.background) });
  }

  private showTotals(): void {
    const theme = readTheme();
    this.totals.replaceChildren(
      // eslint-disable-next-line no-restricted-syntax -- bounded: one total per currency
      ...this.series.currencies.map((c, k) => {
        const swatch = el('span', { className: c.kind === 'payouts' ? 'swatch payouts' : 'swatch' });
        const colour = theme.colours[k % theme.colours.length];
        // Payouts are outlined, as in the chart: money paid out, never part of the charges' total.
        if (c.kind === 'payouts') swatch.style.borderColor = colour;
        else swatch.style.background = colour;
        const t = c.total;
        return el('span', { className: 'total' }, swatch, `${c.label}: ${countText(t.count, c.kind)}, ${rangeText(t.min, t.max)}`);
      }),
    );
    if (this.series.currencies.length === 0) this.totals.textContent = 'No charges in the window.';
  }

  private lineButton(line: number, text: string): HTMLLIElement {
    const b = el('button', { type: 'button', className: 'link', textContent: text });
    b.dataset.line = String(line);
    b.addEventListener('click', () => this.vscode.postMessage({ type: 'reveal', line }));
    return el('li', {}, b);
  }

  private showRows(period: string, rows: BucketRow[], total: number): void {
    const list = el('ul');
    for (const r of rows) {
      const id = r.clientOrderId === '' ? '(no client-orderid)' : r.clientOrderId;
      list.append(
        this.lineButton(
          r.line,
          `line ${r.line} · ${id} · ${r.currency} · ${countText(r.charges, r.payout ? 'payouts' : 'charges')}, ${rangeText(r.min, r.max)}`,
        ),
      );
    }
    const more =
      total > rows.length
        ? [el('p', { className: 'hint', textContent: `… and ${(total - rows.length).toLocaleString('en-US')} more rows` })]
        : [];
    const head = el('h2', { textContent: `Rows charging or paying out in ${period} (${total.toLocaleString('en-US')})` });
    // eslint-disable-next-line no-restricted-syntax -- bounded: at most one hint
    this.rows.replaceChildren(head, list, ...more);
  }

  private showSkipped(skipped: { line: number; reason: string }[], counted: number): void {
    const head = el('h2', {
      textContent: `Skipped rows (${skipped.length.toLocaleString('en-US')}; ${counted.toLocaleString('en-US')} counted)`,
    });
    const list = el('ul');
    // A batch broken on every line would make a list no one reads: the first ones, and the count.
    for (const s of skipped.slice(0, 500)) list.append(this.lineButton(s.line, `line ${s.line}: ${s.reason}`));
    this.skipped.replaceChildren(
      head,
      skipped.length === 0 ? el('p', { className: 'hint', textContent: 'None: every row was counted.' }) : list,
    );
  }
}
