// The query bar under the toolbar: the filter box (an expression, with completion of column names and a
// clear error that selects its place), Group by (up to three columns and a period for dates), the
// aggregates of an amount column, and the report's saved views. It only says what the user asked; the
// controller runs it.
import type { QueryState, SavedView } from '../../src/shared/resultsProtocol';
import { PERIODS } from '../../src/shared/periods';
import { el } from '../dom';
import { completionsAt, type Completions } from './complete';

export interface QueryBarActions {
  /** The query changed (the expression on Enter or after a pause in typing; a control at once). */
  onQuery(state: QueryState): void;
}

const GROUP_LEVELS = 3;
const WHERE_PAUSE_MS = 400;
const AGGREGATES = ['sum', 'min', 'max', 'avg'] as const;
const AGGREGATE_LABELS = { sum: 'Sum', min: 'Min', max: 'Max', avg: 'Avg' } as const;

export class QueryBar {
  readonly element = el('div', { class: 'query-bar', role: 'group', 'aria-label': 'Query' });
  readonly where = el('input', {
    type: 'text',
    class: 'query-where',
    placeholder: 'Filter: Currency = "EUR" and Amount >= 100',
    'aria-label': 'Filter expression',
    'aria-autocomplete': 'list',
    'aria-controls': 'query-completions',
    spellcheck: 'false',
    autocomplete: 'off',
  });
  readonly error = el('div', { class: 'query-error', role: 'alert', hidden: '' });
  private readonly list = el('ul', { class: 'query-completions', id: 'query-completions', role: 'listbox', hidden: '' });
  private readonly groups: HTMLSelectElement[] = [];
  private readonly period = el('select', { class: 'group-period', 'aria-label': 'Group dates by' });
  private readonly amount = el('select', { class: 'amount-column', 'aria-label': 'Amount column' });
  private readonly checks = new Map<(typeof AGGREGATES)[number], HTMLInputElement>();
  private readonly aggregateBox = el('span', { class: 'aggregates', role: 'group', 'aria-label': 'Aggregates' });
  private readonly views = el('select', { class: 'views', 'aria-label': 'Saved views', hidden: '' });
  private savedViews: SavedView[] = [];
  private columns: string[] = [];
  private completions: Completions | undefined;
  private selected = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The expression was last applied by a pause in typing, not by Enter, a view or a choice. */
  private paused = false;
  private applied = '';

  constructor(private readonly actions: QueryBarActions) {
    const whereWrap = el('div', { class: 'where-wrap' });
    whereWrap.append(this.where, this.list);
    const groupLabel = el('label', { class: 'group-label' }, 'Group by');
    for (let level = 0; level < GROUP_LEVELS; level++) {
      const s = el('select', { class: 'group-by', 'aria-label': level === 0 ? 'Group by' : `Then by (${level + 1})` });
      s.dataset.level = String(level);
      s.addEventListener('change', () => this.changed());
      this.groups.push(s);
    }
    this.period.append(el('option', { value: '' }, 'dates as written'));
    for (const period of PERIODS) this.period.append(el('option', { value: period }, `dates by ${period}`));
    this.period.addEventListener('change', () => this.changed());
    this.amount.addEventListener('change', () => this.changed());
    this.aggregateBox.append(this.amount);
    for (const kind of AGGREGATES) {
      const box = el('input', { type: 'checkbox', class: `aggregate-${kind}` });
      box.addEventListener('change', () => this.changed());
      this.checks.set(kind, box);
      const label = el('label', { class: 'aggregate' });
      label.append(box, ` ${AGGREGATE_LABELS[kind]}`);
      this.aggregateBox.append(label);
    }
    this.checks.get('sum')!.checked = true;
    this.views.addEventListener('change', () => this.pickView());
    // eslint-disable-next-line no-restricted-syntax -- bounded: GROUP_LEVELS selects
    this.element.append(whereWrap, groupLabel, ...this.groups, this.period, this.aggregateBox, this.views);
    this.where.addEventListener('input', () => this.typed());
    this.where.addEventListener('keydown', (e) => this.onKey(e));
    this.where.addEventListener('blur', () => setTimeout(() => this.closeList(), 150));
  }

  /** New columns (a new table): the controls list them, and the state is put back (or cleared). */
  reset(columns: string[], state: QueryState): void {
    this.columns = columns;
    for (const s of this.groups) {
      s.replaceChildren(el('option', { value: '' }, s.dataset.level === '0' ? '(none)' : '(then by)'));
      columns.forEach((c, i) => s.append(el('option', { value: String(i) }, c || `Column ${i + 1}`)));
    }
    this.amount.replaceChildren();
    columns.forEach((c, i) => this.amount.append(el('option', { value: String(i) }, c || `Column ${i + 1}`)));
    this.set(state);
  }

  /** Shows a state without applying it. */
  set(state: QueryState): void {
    this.where.value = state.where;
    this.applied = state.where;
    this.groups.forEach((s, level) => {
      const name = state.groupBy[level];
      const index = name === undefined ? -1 : this.columns.indexOf(name);
      s.value = index < 0 ? '' : String(index);
    });
    this.period.value = state.by ?? '';
    const amount = state.amount !== undefined ? this.columns.indexOf(state.amount) : defaultAmount(this.columns);
    this.amount.value = String(Math.max(0, amount));
    for (const [kind, box] of this.checks) box.checked = state.aggregates.includes(kind);
    this.showGroupLevels();
    this.clearError();
  }

  /** Empties the filter box and applies that, as Escape in it does. */
  clearWhere(): void {
    this.where.value = '';
    this.applyWhere();
  }

  state(): QueryState {
    const groupBy: string[] = [];
    for (const s of this.groups) {
      if (s.value === '') break;
      const name = this.columns[Number(s.value)];
      if (name !== undefined && !groupBy.includes(name)) groupBy.push(name);
    }
    const by = this.period.value as QueryState['by'] | '';
    return {
      where: this.where.value,
      groupBy,
      ...(by ? { by } : {}),
      amount: this.columns[Number(this.amount.value)],
      aggregates: AGGREGATES.filter((k) => this.checks.get(k)!.checked),
    };
  }

  setViews(views: SavedView[]): void {
    this.savedViews = views;
    this.views.replaceChildren(el('option', { value: '' }, `Saved views (${views.length})`));
    views.forEach((v, i) => {
      const option = el('option', { value: String(i) }, v.description ? `${v.name}: ${v.description}` : v.name);
      option.title = `${v.template}${v.where ? `\n${v.where}` : ''}`;
      this.views.append(option);
    });
    this.views.hidden = views.length === 0;
  }

  /** The problem, with the expression's place selected when it has one. */
  showError(message: string, place?: { at: number; end: number }): void {
    this.error.textContent = message;
    this.error.hidden = false;
    this.where.setAttribute('aria-invalid', place ? 'true' : 'false');
    // After a pause in typing the person may still be typing: selecting the place then would let the next
    // key replace it ("Curr", a pause, "ency" gave "ency"). The place is selected when they press Enter.
    if (place && !this.paused) {
      this.where.focus();
      this.where.setSelectionRange(place.at, Math.min(place.end, this.where.value.length));
    }
  }

  clearError(): void {
    this.error.hidden = true;
    this.error.textContent = '';
    this.where.removeAttribute('aria-invalid');
  }

  private changed(): void {
    this.showGroupLevels();
    this.actions.onQuery(this.state());
  }

  /** A level is offered once the one before it is chosen. */
  private showGroupLevels(): void {
    let shown = true;
    for (const s of this.groups) {
      s.hidden = !shown;
      if (!shown) s.value = '';
      shown = shown && s.value !== '';
    }
    const grouped = this.groups[0].value !== '';
    this.period.hidden = !grouped;
    this.aggregateBox.hidden = !grouped;
  }

  private pickView(): void {
    const view = this.savedViews[Number(this.views.value)];
    this.views.value = '';
    if (!view) return;
    const amount = view.sum?.[0] ?? view.avg?.[0] ?? view.min?.[0] ?? view.max?.[0];
    const aggregates = AGGREGATES.filter((k) => (view[k]?.length ?? 0) > 0);
    this.set({ where: view.where ?? '', groupBy: view.groupBy ?? [], by: view.by, amount, aggregates });
    this.actions.onQuery(this.state());
  }

  private typed(): void {
    this.complete();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.applyWhere(true), WHERE_PAUSE_MS);
  }

  private applyWhere(paused = false): void {
    clearTimeout(this.timer);
    if (this.where.value === this.applied) return;
    this.applied = this.where.value;
    this.paused = paused;
    this.actions.onQuery(this.state());
    this.paused = false;
  }

  private onKey(e: KeyboardEvent): void {
    const open = this.completions !== undefined && !this.list.hidden;
    if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      const n = this.completions!.items.length;
      this.selected = (this.selected + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.renderList();
      e.preventDefault();
    } else if (open && (e.key === 'Tab' || e.key === 'Enter')) {
      this.accept(this.selected);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      if (open) this.closeList();
      else if (this.where.value !== '') {
        this.where.value = '';
        this.applyWhere();
      }
      e.stopPropagation();
    } else if (e.key === 'Enter') {
      this.applied = '\u0000'; // Enter runs it again, even unchanged
      this.applyWhere();
    } else if (e.key === ' ' && e.ctrlKey) {
      this.complete(true);
      e.preventDefault();
    }
  }

  private complete(always = false): void {
    const cursor = this.where.selectionStart ?? this.where.value.length;
    const found = completionsAt(this.where.value, cursor, this.columns, always);
    const exact = found?.items.length === 1 && found.items[0].insert.trim() === this.where.value.slice(found.from, found.to).trim();
    if (!found || (exact && !always)) return this.closeList();
    this.completions = found;
    this.selected = 0;
    this.renderList();
  }

  private renderList(): void {
    const items = this.completions?.items ?? [];
    this.list.replaceChildren(
      // eslint-disable-next-line no-restricted-syntax -- bounded: completionsAt offers at most a dozen
      ...items.map((item, i) => {
        const li = el(
          'li',
          { role: 'option', class: `completion ${item.kind}`, id: `completion-${i}`, 'aria-selected': String(i === this.selected) },
          item.label,
        );
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.accept(i);
        });
        return li;
      }),
    );
    this.list.hidden = items.length === 0;
    this.where.setAttribute('aria-expanded', String(!this.list.hidden));
    this.where.setAttribute('aria-activedescendant', `completion-${this.selected}`);
  }

  private accept(i: number): void {
    const c = this.completions;
    const item = c?.items[i];
    if (!c || !item) return;
    const v = this.where.value;
    const insert = item.kind === 'column' && v[c.to] !== ' ' ? `${item.insert} ` : item.insert;
    this.where.value = v.slice(0, c.from) + insert + v.slice(c.to);
    const at = c.from + insert.length;
    this.where.setSelectionRange(at, at);
    this.closeList();
  }

  private closeList(): void {
    this.completions = undefined;
    this.list.hidden = true;
    this.where.setAttribute('aria-expanded', 'false');
    this.where.removeAttribute('aria-activedescendant');
  }
}

/** The column called Amount (in any case), else the first whose name holds "amount", else the first. */
export function defaultAmount(columns: readonly string[]): number {
  const exact = columns.findIndex((c) => c.trim().toLowerCase() === 'amount');
  if (exact >= 0) return exact;
  return Math.max(
    0,
    columns.findIndex((c) => /amount/i.test(c)),
  );
}
