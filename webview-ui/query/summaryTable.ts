// The grouped summary's table, windowed: only the groups' rows in sight (and a few either side) are on the
// page, between two spacer rows as tall as the rows they stand for, as the results grid does. A thousand
// groups' rows laid out at once were the longest task of a grouping (issue 40: 1,008 rows × 5 cells, about
// 100 ms of layout); now the layout is of the rows in sight whatever the count.
// Every group stays reachable: scrolling, the keys (arrows, Page Up/Down, Home/End, Enter or Space opens a
// group, Ctrl+C copies its row), a copy of a selection that runs past the rows on the page (it copies the
// groups it would cover in a whole table), and aria-rowcount/aria-rowindex say the whole table's rows.
import { el } from '../dom';
import { rowAsTsv } from '../grid';

export interface SummaryRows {
  /** The header's cells: the key columns, then the aggregates. */
  heads: string[];
  /** Each listed group's cells as shown. */
  groups: string[][];
  totals: string[][];
  /** Columns right-aligned (the aggregates): from this one on. */
  firstNumeric: number;
}

export interface SummaryTableActions {
  open(index: number): void;
  copy(text: string, what: 'row' | 'rows'): void;
}

/** Rows laid out above and below those in sight. */
const OVERSCAN = 8;
/** A group's row height before one is measured (the theme's font decides it). */
const GUESS_HEIGHT = 22;

export class SummaryTable {
  readonly element = el('table', { class: 'summary-table' });
  private readonly tbody = el('tbody');
  private readonly top = spacer();
  private readonly bottom = spacer();
  private rows: SummaryRows = { heads: [], groups: [], totals: [], firstNumeric: 0 };
  private rowHeight = 0;
  /** The group the keys act on (the one with tabindex 0). */
  private active = 0;
  /** The rows on the page: groups[first..last]. */
  private first = 0;
  private last = -1;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly actions: SummaryTableActions,
  ) {
    this.element.append(el('thead'), this.tbody, el('tfoot'));
    // Focus falls back to the table while the active group's row is scrolled off the page.
    this.element.tabIndex = -1;
    scroller.addEventListener('scroll', () => this.render(), { passive: true });
    new ResizeObserver(() => this.render()).observe(scroller);
    this.tbody.addEventListener('click', (e) => {
      const i = this.indexOf(e.target);
      if (i !== undefined) this.actions.open(i);
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    document.addEventListener('copy', (e) => this.onCopy(e));
  }

  /** The whole table's rows; the window is laid out at once. */
  show(rows: SummaryRows): void {
    this.rows = rows;
    this.active = 0;
    this.first = 0;
    this.last = -1;
    const t = this.element;
    t.setAttribute('aria-rowcount', String(1 + rows.groups.length + rows.totals.length));
    const head = el('tr', { 'aria-rowindex': '1' });
    // The widest text of each column sets its least width, so the columns keep still while rows come and go.
    rows.heads.forEach((h, c) => {
      const th = el('th', { scope: 'col' }, h);
      let widest = h.length;
      for (const g of rows.groups) widest = Math.max(widest, g[c].length);
      th.style.minWidth = `${widest}ch`;
      head.append(th);
    });
    t.tHead!.replaceChildren(head);
    t.tFoot!.replaceChildren();
    rows.totals.forEach((cells, j) => {
      const tr = this.row(cells, 'total');
      tr.setAttribute('aria-rowindex', String(2 + rows.groups.length + j));
      t.tFoot!.append(tr);
    });
    this.tbody.replaceChildren(this.top, this.bottom);
    this.render();
    const sample = this.tbody.querySelector<HTMLElement>('tr.group');
    const measured = sample?.getBoundingClientRect().height ?? 0;
    if (measured > 0 && measured !== this.rowHeight) {
      this.rowHeight = measured;
      this.last = -1;
      this.render();
    }
  }

  private get height(): number {
    return this.rowHeight || GUESS_HEIGHT;
  }

  /** Where the first group's row starts in the scrolled content. */
  private bodyTop(): number {
    return this.tbody.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top + this.scroller.scrollTop;
  }

  /** Lays out the groups' rows in sight; nothing when the same rows are already there. */
  private render(): void {
    const n = this.rows.groups.length;
    if (!this.element.isConnected) return;
    if (n === 0) {
      this.top.hidden = this.bottom.hidden = true;
      this.first = 0;
      this.last = -1;
      return;
    }
    const h = this.height;
    const from = this.scroller.scrollTop - this.bodyTop();
    const first = Math.min(n - 1, Math.max(0, Math.floor(from / h) - OVERSCAN));
    const last = Math.min(n - 1, Math.max(first, Math.ceil((from + this.scroller.clientHeight) / h) + OVERSCAN));
    if (first === this.first && last === this.last) return;
    const hadFocus = this.tbody.contains(document.activeElement) || document.activeElement === this.element;
    // The focused row is about to leave the page: the table holds the focus meanwhile (a focused element
    // taken off the page made Chromium scroll the summary back towards where that row had been).
    if (hadFocus) this.element.focus({ preventScroll: true });
    this.first = first;
    this.last = last;
    const trs: HTMLElement[] = [];
    for (let i = first; i <= last; i++) {
      const tr = this.row(this.rows.groups[i], 'group');
      tr.dataset.index = String(i);
      tr.setAttribute('aria-rowindex', String(i + 2));
      tr.setAttribute('title', 'Show the rows of this group');
      tr.tabIndex = i === this.active ? 0 : -1;
      trs.push(tr);
    }
    this.setSpacer(this.top, first * h);
    this.setSpacer(this.bottom, (n - 1 - last) * h);
    // eslint-disable-next-line no-restricted-syntax -- bounded: the rows in sight and OVERSCAN either side
    this.tbody.replaceChildren(this.top, ...trs, this.bottom);
    if (hadFocus) this.focusActive();
  }

  private row(cells: string[], cls: string): HTMLTableRowElement {
    const tr = el('tr', { class: cls });
    cells.forEach((v, c) => tr.append(el('td', c >= this.rows.firstNumeric ? { class: 'num' } : {}, v)));
    return tr;
  }

  private setSpacer(tr: HTMLElement, px: number): void {
    tr.hidden = px <= 0;
    const td = tr.firstElementChild as HTMLTableCellElement;
    td.colSpan = Math.max(1, this.rows.heads.length);
    td.style.height = `${px}px`;
  }

  private indexOf(target: EventTarget | null): number | undefined {
    const tr = target instanceof Element ? target.closest<HTMLElement>('tr.group') : null;
    return tr?.dataset.index === undefined ? undefined : Number(tr.dataset.index);
  }

  /** Focus on the active group's row, or on the table while that row is out of sight (the keys still work). */
  private focusActive(): void {
    const tr = this.tbody.querySelector<HTMLElement>(`tr.group[data-index="${this.active}"]`);
    (tr ?? this.element).focus({ preventScroll: true });
  }

  /** Makes group `i` the active one, scrolled fully into sight and focused. */
  moveTo(i: number): void {
    const n = this.rows.groups.length;
    if (n === 0) return;
    this.active = Math.max(0, Math.min(n - 1, i));
    const h = this.height;
    const rowTop = this.bodyTop() + this.active * h;
    const s = this.scroller;
    if (rowTop < s.scrollTop) s.scrollTop = rowTop;
    else if (rowTop + h > s.scrollTop + s.clientHeight) s.scrollTop = rowTop + h - s.clientHeight;
    this.last = -1;
    this.render();
    this.focusActive();
  }

  private onKey(e: KeyboardEvent): void {
    const i = e.target === this.element ? this.active : this.indexOf(e.target);
    if (i === undefined || this.rows.groups.length === 0) return;
    this.active = i;
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / this.height) - 1);
    const ctrl = e.ctrlKey || e.metaKey;
    const moves: Record<string, number> = {
      ArrowDown: i + 1,
      ArrowUp: i - 1,
      PageDown: i + page,
      PageUp: i - page,
      Home: 0,
      End: this.rows.groups.length - 1,
    };
    if (e.key in moves) this.moveTo(moves[e.key]);
    else if (e.key === 'Enter' || e.key === ' ') this.actions.open(i);
    else if (ctrl && (e.key === 'c' || e.key === 'C') && (getSelection()?.isCollapsed ?? true))
      this.actions.copy(rowAsTsv(this.rows.groups[i]), 'row');
    else return;
    e.preventDefault();
  }

  /**
   * A copy of a selection that takes in the groups' rows: the groups it would cover in a whole table (from
   * the first group when it starts above them, to the last when it ends below), with the header and totals
   * it takes in, as tab-separated rows. Only the table's rows are copied, through the host as every copy.
   */
  private onCopy(e: ClipboardEvent): void {
    const sel = getSelection();
    // Not while the summary is hidden: a Select All of the table's page takes in the hidden summary too.
    if (!sel || sel.isCollapsed || sel.rangeCount === 0 || this.element.getClientRects().length === 0) return;
    const range = sel.getRangeAt(0);
    if (!range.intersectsNode(this.tbody)) return;
    const n = this.rows.groups.length;
    const startsAbove = range.comparePoint(this.tbody, 0) >= 0;
    const endsBelow = range.comparePoint(this.tbody, this.tbody.childNodes.length) <= 0;
    const at = (node: Node, fallback: number) => {
      const i = this.indexOf(node instanceof Element ? node : node.parentElement);
      return i ?? fallback;
    };
    const from = startsAbove ? 0 : at(range.startContainer, this.first);
    const to = endsBelow ? n - 1 : at(range.endContainer, this.last);
    const lines: string[][] = [];
    if (range.intersectsNode(this.element.tHead!)) lines.push(this.rows.heads);
    for (let i = from; i <= to; i++) lines.push(this.rows.groups[i]);
    this.rows.totals.forEach((t, j) => {
      if (range.intersectsNode(this.element.tFoot!.rows[j])) lines.push(t);
    });
    e.preventDefault();
    this.actions.copy(lines.map(rowAsTsv).join('\n'), lines.length === 1 ? 'row' : 'rows');
  }
}

function spacer(): HTMLTableRowElement {
  const tr = el('tr', { class: 'spacer', 'aria-hidden': 'true', hidden: '' });
  tr.append(el('td'));
  return tr;
}
