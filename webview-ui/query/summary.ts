// The grouped summary that replaces the table under Group by: a chart of one aggregate per group (the
// forecast's uPlot chart, a bar per currency side by side), one row per group with the aggregates as
// columns, a total row per currency and kind of money (charges apart from payouts), and the amounts that could not be read. A group's row opens its
// rows in the table. Every value is set as text; amounts are the core's exact decimal strings (the
// chart's bar heights are the only numbers, and only for drawing).
import type uPlot from 'uplot';
import { aggregateText, groupHeading, reportedAggregates, totalOf, type GroupView, type QueryOutcome } from '../../src/shared/query';
import { el } from '../dom';
import { chartPng, createChart, readTheme } from '../forecast/chart';
import { yieldToPage } from '../dataset';
import { summaryNotes } from './summaryNotes';
import { SummaryTable } from './summaryTable';
import { thousands as count } from '../../src/shared/thousands';
import type { ChartSeries, CurrencySeries } from '../forecast/series';

export interface SummaryActions {
  openGroup(id: number, label: string): void;
  exportCsv(columns: string[], rows: string[][]): void;
  exportPng(dataUrl: string): void;
  /** A group's row, or the rows a selection takes in, as tab-separated text. */
  copy(text: string, what: 'row' | 'rows'): void;
  /** The table's title, for the exported chart's caption. */
  title(): string;
}

/** Groups listed one per row; more are in the CSV export. */
export const MAX_GROUP_ROWS = 2000;
/** Groups drawn in the chart (bars thinner than a pixel tell nothing). */
export const MAX_CHART_GROUPS = 400;

/** `total EUR charges`, `total EUR payouts`, `total` (the core's words for what a total is of). */
const totalLabel = (t: QueryOutcome['totals'][number]) => `total${totalOf(t) === '' ? '' : ` ${totalOf(t)}`}`;

interface Column {
  head: string;
  /** A group's or total's cell. */
  cell(g: Pick<GroupView, 'count' | 'amounts'>): string;
  /** The bar height it gives, for the chart. */
  numeric: boolean;
}

export class Summary {
  readonly element = el('section', { class: 'query-summary', 'aria-label': 'Grouped summary', hidden: '' });
  private readonly heading = el('div', { class: 'summary-heading' });
  private readonly chartPick = el('select', { class: 'chart-aggregate', 'aria-label': 'Chart' });
  private readonly plot = el('div', { class: 'summary-chart', role: 'img' });
  private readonly tooltip = el('div', { class: 'tooltip', role: 'tooltip', hidden: '' });
  private readonly tableHost = el('div', { class: 'summary-table-host' });
  private readonly notes = el('div', { class: 'summary-notes' });
  private chart: uPlot | undefined;
  private outcome: QueryOutcome | undefined;
  private columns: Column[] = [];
  private series: ChartSeries = { periods: [], currencies: [] };
  private labels: string[] = [];
  private readonly table: SummaryTable;
  /** The summary being shown; a newer one (or hiding it) makes an older one stop before its chart. */
  private generation = 0;
  /** The groups the table lists, by its row index. */
  private shownGroups: GroupView[] = [];

  constructor(private readonly actions: SummaryActions) {
    const tools = el('div', { class: 'summary-tools' });
    const button = (label: string, cls: string, run: () => void) => {
      const b = el('button', { type: 'button', class: cls }, label);
      b.addEventListener('click', run);
      return b;
    };
    tools.append(
      this.heading,
      el('label', { class: 'chart-label' }, 'Chart'),
      this.chartPick,
      button('Export CSV', 'summary-export-csv', () => this.exportCsv()),
      button('Export PNG', 'summary-export-png', () => this.exportPng()),
    );
    this.chartPick.addEventListener('change', () => this.draw());
    this.plot.append(this.tooltip);
    this.table = new SummaryTable(this.element, {
      open: (i) => {
        const g = this.shownGroups[i];
        if (g) this.actions.openGroup(g.id, this.labelOf(g.key, true));
      },
      copy: (text, what) => this.actions.copy(text, what),
    });
    this.tableHost.append(this.table.element);
    this.element.append(tools, this.plot, this.tableHost, this.notes);
    new ResizeObserver(() => this.chart?.setSize(this.size())).observe(this.plot);
    new MutationObserver(() => this.draw()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /**
   * Shows a grouping: the heading, the notes and the table (its rows in sight laid out), then, after a turn
   * for the page, the chart, each in a task of its own (one task for all was a grouping's longest); resolves
   * when the whole summary is on screen.
   */
  async show(outcome: QueryOutcome, shownRows: number, ms: number): Promise<void> {
    const generation = ++this.generation;
    this.outcome = outcome;
    const plan = outcome.plan;
    this.columns = [
      { head: 'count', cell: (g) => count(g.count), numeric: true },
      ...reportedAggregates(plan).map(([kind, a, name]): Column => ({
        head: `${kind} ${name}`,
        cell: (g) => aggregateText(kind, g.amounts[a], outcome.scales[a]) ?? '',
        numeric: true,
      })),
    ];
    const groups = outcome.groups.length;
    this.heading.textContent = `${count(groups)} group${groups === 1 ? '' : 's'} · ${count(outcome.matched)} of ${count(shownRows)} rows matched · ${Math.round(ms)} ms`;
    const previous = this.chartPick.value;
    // eslint-disable-next-line no-restricted-syntax -- bounded: the count and at most four aggregates per amount column
    this.chartPick.replaceChildren(...this.columns.map((c, i) => el('option', { value: String(i) }, c.head)));
    // The first amount asked for is what people chart; else the count.
    this.chartPick.value = this.columns.some((c, i) => String(i) === previous) ? previous : String(Math.min(1, this.columns.length - 1));
    this.renderNotes();
    delete document.body.dataset.grouped;
    // The chart of a grouping before is of other groups: it goes now, and is drawn again at the width the
    // table leaves it (a scroll bar may come with it).
    this.chart?.destroy();
    this.chart = undefined;
    this.element.hidden = false;
    this.renderTable();
    await yieldToPage();
    if (generation !== this.generation) return;
    this.draw();
    // The summary is on screen (the tests and the bench wait for this).
    document.body.dataset.grouped = 'true';
  }

  hide(): void {
    this.generation++;
    this.element.hidden = true;
    this.chart?.destroy();
    this.chart = undefined;
    delete document.body.dataset.grouped;
  }

  /** A group's label: its key without the currency (the chart's axis), or the whole key. */
  private labelOf(key: string[], withCurrency: boolean): string {
    const c = this.outcome!.plan.currencyGroup;
    const parts = key.filter((_, j) => withCurrency || j !== c);
    return parts.length === 0 ? '(all)' : parts.map((p) => (p === '' ? '(empty)' : p)).join(' · ');
  }

  /**
   * The table: every listed group's cells and the totals, handed to the windowed table, which lays out only
   * the rows in sight (a thousand groups' rows laid out at once were the longest task of a grouping).
   */
  private renderTable(): void {
    const o = this.outcome!;
    const shown = o.groups.slice(0, MAX_GROUP_ROWS);
    const keys = o.plan.groups.length;
    this.shownGroups = shown;
    this.table.show({
      heads: [...o.plan.groups.map(groupHeading), ...this.columns.map((c) => c.head)],
      groups: shown.map((g) => [...g.key.map((k) => (k === '' ? '(empty)' : k)), ...this.columns.map((c) => c.cell(g))]),
      totals: o.totals.map((t) => [...o.plan.groups.map((_, j) => (j === 0 ? totalLabel(t) : '')), ...this.columns.map((c) => c.cell(t))]),
      firstNumeric: keys,
    });
  }

  private renderNotes(): void {
    // eslint-disable-next-line no-restricted-syntax -- bounded: at most four notes
    this.notes.replaceChildren(...summaryNotes(this.outcome!, MAX_GROUP_ROWS));
  }

  private size(): { width: number; height: number } {
    return { width: Math.max(200, this.plot.clientWidth), height: Math.max(160, this.plot.clientHeight) };
  }

  /** The chosen aggregate per group, one series per currency on a shared axis of group labels. */
  private toSeries(): ChartSeries {
    const o = this.outcome!;
    const column = this.columns[Number(this.chartPick.value)] ?? this.columns[0];
    const groups = o.groups.slice(0, MAX_CHART_GROUPS);
    const c = o.plan.currencyGroup;
    const labels = [...new Set(groups.map((g) => this.labelOf(g.key, false)))];
    const at = new Map(labels.map((l, i) => [l, i]));
    const byCurrency = new Map<string, CurrencySeries>();
    for (const g of groups) {
      const currency = c < 0 ? '' : g.key[c];
      let s = byCurrency.get(currency);
      if (!s) {
        s = {
          label: currency,
          currency,
          kind: 'charges',
          amounts: labels.map(() => 0),
          counts: labels.map(() => 0),
          ranges: labels.map(() => ''),
          cumulative: [],
          total: { count: 0, min: '', max: '' },
        };
        byCurrency.set(currency, s);
      }
      const i = at.get(this.labelOf(g.key, false))!;
      const text = column.cell(g);
      s.amounts[i] = Number(text.replace(/,/g, '')) || 0;
      s.counts[i] = g.count;
      s.ranges[i] = text;
    }
    this.labels = labels;
    return { periods: labels, currencies: [...byCurrency.values()] };
  }

  private draw(): void {
    this.chart?.destroy();
    this.chart = undefined;
    this.tooltip.hidden = true;
    if (!this.outcome || this.element.hidden || this.outcome.groups.length === 0) return;
    this.series = this.toSeries();
    const column = this.columns[Number(this.chartPick.value)] ?? this.columns[0];
    this.plot.setAttribute('aria-label', `${column.head} per group${this.series.currencies.length > 1 ? ', a bar per currency' : ''}`);
    this.chart = createChart(
      this.plot,
      this.series,
      this.size(),
      { hover: (i, left, top) => this.hover(i, left, top), click: (i) => this.clickBar(i) },
      { bars: column.head },
    );
  }

  private hover(i: number | null, left: number, top: number): void {
    if (i === null || i < 0 || !this.chart) {
      this.tooltip.hidden = true;
      return;
    }
    const lines = this.series.currencies
      .filter((c) => c.ranges[i] !== '')
      .map((c) => `${c.currency ? `${c.currency}: ` : ''}${c.ranges[i]} (${count(c.counts[i])} rows)`);
    this.tooltip.replaceChildren(el('strong', {}, this.labels[i] ?? ''));
    for (const l of lines) this.tooltip.append(el('div', {}, l));
    this.tooltip.hidden = false;
    const over = this.chart.over;
    this.tooltip.style.left = `${Math.min(over.offsetLeft + left + 12, this.plot.clientWidth - 220)}px`;
    this.tooltip.style.top = `${over.offsetTop + Math.max(0, top - 10)}px`;
  }

  /** A bar: the rows of its group (the first currency's, when several share the label). */
  private clickBar(i: number): void {
    const o = this.outcome!;
    const g = o.groups.slice(0, MAX_CHART_GROUPS).find((x) => this.labelOf(x.key, false) === this.labels[i]);
    if (g) this.actions.openGroup(g.id, this.labelOf(g.key, true));
  }

  /** Every group and the totals, as the table shows them, with the key columns first. */
  private exportCsv(): void {
    const o = this.outcome;
    if (!o) return;
    const columns = [...o.plan.groups.map(groupHeading), ...this.columns.map((c) => c.head)];
    const plain = (s: string, c: Column) => (c.head === 'count' ? s.replace(/,/g, '') : s);
    const rows = o.groups.slice().map((g) => [...g.key, ...this.columns.map((c) => plain(c.cell(g), c))]);
    for (const t of o.totals)
      rows.push([...o.plan.groups.map((_, j) => (j === 0 ? totalLabel(t) : '')), ...this.columns.map((c) => plain(c.cell(t), c))]);
    this.actions.exportCsv(columns, rows);
  }

  /** The exported chart says what it shows: the table and the aggregate, the currencies, the filter. */
  private exportPng(): void {
    if (!this.chart || !this.outcome) return;
    const column = this.columns[Number(this.chartPick.value)] ?? this.columns[0];
    const currencies = (this.series?.currencies ?? []).map((c) => c.currency).filter((c) => c !== '');
    const where = this.outcome.plan.spec.where?.trim() ?? '';
    const caption = [
      `${this.actions.title()}: ${column.head} per group`,
      currencies.length > 0 ? `Currency: ${currencies.join(', ')}` : 'Currency: none named (rows counted, not summed)',
      `Filter: ${where === '' ? 'none (every row)' : where}`,
    ];
    const theme = readTheme();
    this.actions.exportPng(chartPng(this.chart, theme.background, caption, theme.foreground));
  }
}
