// What the query bar asks, run on the page: the filter expression narrows the table's rows (with the
// search and column filters), Group by turns the table into the grouped summary, and a group's row
// opens that group's rows in the table again. Each new question makes the one before give up.
import { describeProblem, planQuery, type QuerySpec } from '../../src/shared/query';
import type { PageToHost, QueryState, SavedView } from '../../src/shared/resultsProtocol';
import type { Dataset } from '../dataset';
import { el } from '../dom';
import { thousands } from '../../src/shared/thousands';
import { QueryBar } from './bar';
import { groupMarks, groupRows, WhereMarks, type Grouping } from './runner';
import { Summary } from './summary';

export interface QueryHost {
  data: Dataset;
  /** The table's element (hidden while the summary shows). */
  gridHost: HTMLElement;
  /** Build the table's view again (the rows kept changed). */
  refresh(): void;
  setStatus(text: string): void;
  post(msg: PageToHost): void;
  /** The query changed: save the page's state soon. */
  changed(): void;
  /** The export's file name for `what` (the summary CSV, the chart PNG). */
  exportName(what: string, extension: string): string;
  /** The table's title (the exported chart's caption). */
  title(): string;
}

export const EMPTY_QUERY: QueryState = { where: '', groupBy: [], aggregates: ['sum'] };

export class QueryController {
  readonly bar: QueryBar;
  readonly summary: Summary;
  /** Above the table while it shows one group's rows. */
  readonly groupChip = el('div', { class: 'group-chip', hidden: '' });
  private state: QueryState = EMPTY_QUERY;
  private columns: string[] = [];
  private where: WhereMarks | undefined;
  private grouping: Grouping | undefined;
  private drill: { id: number; marks: Uint8Array; label: string } | undefined;
  private generation = 0;

  constructor(private readonly host: QueryHost) {
    this.bar = new QueryBar({ onQuery: (state) => this.ask(state) });
    this.summary = new Summary({
      openGroup: (id, label) => this.openGroup(id, label),
      exportCsv: (columns, rows) => {
        host.post({ type: 'export', format: 'csv', columns, rows, suggestedName: host.exportName('summary', 'csv') });
        host.setStatus('Choose where to save the summary…');
      },
      exportPng: (dataUrl) => host.post({ type: 'exportImage', dataUrl, suggestedName: host.exportName('chart', 'png') }),
      copy: (text, what) => host.post({ type: 'copy', text, what }),
      title: () => host.title(),
    });
  }

  get current(): QueryState {
    return this.state;
  }

  /** A new table: the bar lists its columns; a saved query is put back and run once the rows are in. */
  reset(columns: string[], saved?: QueryState): void {
    this.generation++;
    this.columns = columns;
    this.state = saved ?? EMPTY_QUERY;
    this.where = undefined;
    this.grouping = undefined;
    this.drill = undefined;
    this.groupChip.hidden = true;
    this.summary.hide();
    this.host.gridHost.hidden = false;
    this.bar.reset(columns, this.state);
    this.planWhere();
  }

  setViews(views: SavedView[]): void {
    this.bar.setViews(views);
  }

  /** Whether the table's rows are narrowed by the expression or a group. */
  hasMarks(): boolean {
    return this.drill !== undefined || this.where !== undefined;
  }

  /** How the rows are narrowed, for the empty table's words: the expression in force, the group shown. */
  narrowing(): { where?: string; group?: string } {
    return { ...(this.where ? { where: this.state.where } : {}), ...(this.drill ? { group: this.drill.label } : {}) };
  }

  /** Empties the filter box and runs the query without it (the empty table's button). */
  clearWhere(): void {
    if (this.state.where !== '') this.bar.clearWhere();
  }

  /** For the table's view: the rows kept, covering the first `rows` rows (see ResultsView). */
  async marks(rows: number, stale: () => boolean): Promise<Uint8Array | null | undefined> {
    if (this.drill) return this.drill.marks.length >= rows ? this.drill.marks : undefined;
    const where = this.where;
    if (!where) return undefined;
    if (!(await where.extend(this.host.data.store, stale))) return null;
    return where.hits.length >= rows ? where.hits : null;
  }

  /** Every row is in: a grouped summary is made (again) over all of them. */
  async loaded(): Promise<void> {
    if (this.state.groupBy.length > 0) await this.group();
  }

  private ask(state: QueryState): void {
    const whereChanged = state.where !== this.state.where;
    this.state = state;
    this.host.changed();
    this.bar.clearError();
    if (whereChanged || !this.where) this.planWhere();
    if (state.groupBy.length > 0) {
      // The table's rows and their count are one: leaving a group's rows (a saved view chosen after a
      // chart's bar) refreshes them, or the header kept saying "79 of 80 rows" beside a summary of 80.
      const left = this.drill !== undefined;
      this.drill = undefined;
      this.groupChip.hidden = true;
      if (left || whereChanged) this.host.refresh();
      if (this.host.data.complete) void this.group();
      else this.host.setStatus('Grouping when every row is in…');
      return;
    }
    const left = this.drill !== undefined;
    this.ungroup();
    if (whereChanged || left) this.host.refresh();
  }

  /** The expression alone, for the table's rows; a problem is shown at its place and keeps every row. */
  private planWhere(): void {
    this.where = undefined;
    if (this.state.where.trim() === '' || this.columns.length === 0) return;
    const plan = planQuery(this.columns, { where: this.state.where });
    if (plan.ok) this.where = new WhereMarks(plan.plan);
    else if (plan.problem.place)
      this.bar.showError(describeProblem(this.state.where, plan.problem.place).split('\n')[0], plan.problem.place);
  }

  private spec(state: QueryState, amounts: boolean): QuerySpec {
    const amount = amounts && state.amount !== undefined ? [state.amount] : [];
    const pick = (k: 'sum' | 'min' | 'max' | 'avg') => (state.aggregates.includes(k) ? amount : []);
    return {
      where: state.where,
      groupBy: state.groupBy,
      by: state.by,
      count: true,
      sum: pick('sum'),
      min: pick('min'),
      max: pick('max'),
      avg: pick('avg'),
    };
  }

  private async group(): Promise<void> {
    const generation = ++this.generation;
    let plan = planQuery(this.columns, this.spec(this.state, true));
    let note = '';
    if (!plan.ok && plan.problem.option === 'currency') {
      // No currency column: the amounts could be of any currency, so only rows are counted.
      plan = planQuery(this.columns, this.spec(this.state, false));
      note = ' Sums need a currency column, and this table has none: only rows are counted.';
    }
    if (!plan.ok) {
      const p = plan.problem;
      const message = p.place ? describeProblem(this.state.where, p.place).split('\n')[0] : p.message;
      this.bar.showError(p.option === 'where' ? message : `Group by: ${message}`, p.place);
      return;
    }
    this.host.setStatus('Grouping…');
    const started = performance.now();
    const grouping = await groupRows(this.host.data.store, plan.plan, () => generation !== this.generation);
    if (!grouping || generation !== this.generation) return;
    this.grouping = grouping;
    this.host.gridHost.hidden = true;
    this.host.setStatus(note.trim());
    await this.summary.show(grouping.outcome, this.host.data.rowCount, grouping.ms);
    // From the question to the whole summary on screen (the bench reads it).
    if (generation === this.generation) performance.measure('paygate:group', { start: started });
  }

  private ungroup(): void {
    this.generation++;
    this.grouping = undefined;
    this.drill = undefined;
    this.groupChip.hidden = true;
    this.summary.hide();
    this.host.gridHost.hidden = false;
  }

  /** A group's rows in the table, with a way back to the groups. */
  private openGroup(id: number, label: string): void {
    const grouping = this.grouping;
    if (!grouping) return;
    this.drill = { id, marks: groupMarks(grouping.groupOf, id), label };
    const back = el('button', { type: 'button', class: 'back-to-groups' }, 'Back to groups');
    back.addEventListener('click', () => this.backToGroups());
    const n = grouping.outcome.groups.countOfId(id);
    this.groupChip.replaceChildren(el('span', { class: 'chip-label' }, `Group ${label}: ${thousands(n)} rows`), back);
    this.groupChip.hidden = false;
    this.summary.hide();
    this.host.gridHost.hidden = false;
    this.host.refresh();
  }

  private backToGroups(): void {
    if (!this.grouping) return;
    this.drill = undefined;
    this.groupChip.hidden = true;
    this.host.gridHost.hidden = true;
    void this.summary.show(this.grouping.outcome, this.host.data.rowCount, this.grouping.ms);
    this.host.refresh();
  }
}
