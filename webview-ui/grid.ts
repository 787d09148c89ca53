// The virtualised grid: a sticky header (column names, sort, resize) and filter row, then only the rows
// in view, positioned absolutely. Pinned columns come first and stay in place when scrolling sideways.
// Every value is written as text nodes (cellRender.ts), never parsed as HTML.
// Focus stays on the grid element and aria-activedescendant names the active cell, which survives the
// recycling of row elements as the user scrolls. `active.col` is a position on screen; `display` maps
// positions to data columns.
import { columnId, columnIndex, type ResultsTable } from './table';
import { el } from './dom';
import { quoteField } from '../src/shared/csv';
import { setTooltip } from './cellRender';
import { ColumnMenu } from './gridMenu';
import { RowWindow } from './rowWindow';
import { displayOrder, headerCells, layoutHeader, type HeaderTarget } from './gridHeader';
import { HEADER_ROWS, renderRows, showEmpty, type GridCallbacks, type RowsTarget } from './gridRows';
import { onGridKey, type KeyTarget } from './gridKeys';

/** A row as tab-separated text, quoted where needed, which spreadsheets split into cells on paste. */
export const rowAsTsv = (row: readonly string[]) => row.map((v) => quoteField(v, '\t')).join('\t');

export const ROW_HEIGHT = 24;
const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;
const SORT_INDICATOR = { asc: '▲', desc: '▼' } as const;

export type { GridCallbacks } from './gridRows';

export class Grid implements KeyTarget, RowsTarget, HeaderTarget {
  readonly element: HTMLDivElement;
  readonly head: HTMLDivElement;
  readonly body: HTMLDivElement;
  private readonly empty: HTMLDivElement;
  readonly headerCells: HTMLDivElement[] = []; // by data column
  readonly filterInputs: HTMLInputElement[] = []; // by data column
  pool: HTMLDivElement[] = [];
  private count = 0;
  display: number[] = [];
  pinnedCount = 0;
  layoutKey = '';
  private readonly menu: ColumnMenu;
  readonly rows: RowWindow;
  headHeight = 0;
  private readonly headObserver: ResizeObserver;
  /** Active cell: row is a view index, -1 is the header row; col is a position on screen. */
  active = { row: 0, col: 0 };

  constructor(
    parent: HTMLElement,
    readonly table: ResultsTable,
    label: string,
    readonly cb: GridCallbacks,
  ) {
    const n = table.getAllLeafColumns().length;
    this.element = el('div', {
      class: 'grid',
      role: 'grid',
      tabindex: '0',
      'aria-label': label,
      'aria-colcount': String(n),
      'aria-multiselectable': 'false',
    });
    this.head = el('div', { class: 'head', role: 'rowgroup' });
    this.body = el('div', { class: 'body', role: 'rowgroup' });
    this.empty = el('div', { class: 'empty', role: 'status', hidden: '' });
    this.element.append(this.head, this.empty, this.body);
    parent.append(this.element);
    this.menu = new ColumnMenu(parent);
    this.buildHeader();
    this.layout();
    this.headHeight = this.head.offsetHeight;
    this.rows = new RowWindow(
      this.element,
      ROW_HEIGHT,
      8,
      () => this.headHeight,
      () => this.renderRows(),
    );
    // The header's height changes only with the layout (font, filter row); read it then, not per frame.
    this.headObserver = new ResizeObserver(() => {
      this.headHeight = this.head.offsetHeight;
      this.renderRows();
    });
    this.headObserver.observe(this.head);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('click', (e) => this.onClick(e));
    this.element.addEventListener('contextmenu', (e) => this.onContextMenu(e));
    // The full value on hover, for any value cut short, spread over lines or holding special characters.
    this.element.addEventListener('mouseover', (e) => {
      const cell = (e.target as HTMLElement).closest('.row.data > .cell') as HTMLElement | null;
      if (cell) setTooltip(cell);
    });
  }

  dispose(): void {
    this.menu.close(false);
    this.rows.dispose();
    this.headObserver.disconnect();
    this.element.remove();
  }

  private buildHeader(): void {
    for (const header of this.table.getHeaderGroups()[0].headers) {
      const i = columnIndex(header.id);
      const { cell, filter } = headerCells(header);
      this.headerCells[i] = cell;
      this.filterInputs[i] = filter;
    }
  }

  /** Places header and filter cells in display order and sets widths and pinned offsets. */
  private layout(): void {
    layoutHeader(this);
  }

  /** Called when table state changes: sort indicators, widths, pinning, filter boxes restored from state. */
  syncHeader(): void {
    this.layout();
    for (const header of this.table.getHeaderGroups()[0].headers) {
      const i = columnIndex(header.id);
      const sorted = header.column.getIsSorted();
      const cell = this.headerCells[i];
      cell.setAttribute('aria-sort', sorted ? ARIA_SORT[sorted] : 'none');
      cell.querySelector('.sort-indicator')!.textContent = sorted ? SORT_INDICATOR[sorted] : '';
      cell.classList.toggle('resizing', header.column.getIsResizing());
      const fv = header.column.getFilterValue();
      const input = this.filterInputs[i];
      // A column's filter is the text typed in its box (a string, or none).
      const text = typeof fv === 'string' ? fv : '';
      if (document.activeElement !== input && text !== input.value) input.value = text;
    }
    this.renderRows();
  }

  setCount(count: number, keepScroll = false): void {
    this.count = count;
    this.element.setAttribute('aria-rowcount', String(count + HEADER_ROWS));
    if (!keepScroll) this.element.scrollTop = 0;
    this.active.row = Math.min(this.active.row, Math.max(0, count - 1));
    this.rows.count = count;
    this.body.style.height = `${this.rows.totalSize}px`;
    this.renderRows();
  }

  /** What to say when no row is shown: a message and, optionally, one action (e.g. clear the search). */
  setEmpty(message: string | null, action?: { label: string; run(): void }): void {
    showEmpty(this.empty, message, action);
  }

  /** Rows already shown changed in place (highlights): redraw without moving. */
  refresh(): void {
    this.renderRows();
  }

  private renderRows(): void {
    renderRows(this);
  }

  get pageRows(): number {
    return Math.max(1, Math.floor((this.element.clientHeight - this.headHeight) / ROW_HEIGHT) - 1);
  }

  moveTo(row: number, col: number): void {
    const ncols = this.display.length;
    this.active = { row: Math.max(-1, Math.min(row, this.count - 1)), col: Math.max(0, Math.min(col, ncols - 1)) };
    if (this.active.row >= 0) this.rows.scrollToIndex(this.active.row);
    this.scrollColumnIntoView(this.active.col);
    this.renderRows();
    this.cb.onActiveChange();
  }

  private scrollColumnIntoView(pos: number): void {
    if (pos < this.pinnedCount) return; // always in view
    const widths = this.display.map((c) => this.table.getColumn(columnId(c))!.getSize());
    const pinnedWidth = widths.slice(0, this.pinnedCount).reduce((a, b) => a + b, 0);
    const left = widths.slice(0, pos).reduce((a, b) => a + b, 0);
    const right = left + widths[pos];
    // The pinned columns cover the left of the scrolled area.
    if (left - pinnedWidth < this.element.scrollLeft) this.element.scrollLeft = left - pinnedWidth;
    else if (right > this.element.scrollLeft + this.element.clientWidth) this.element.scrollLeft = right - this.element.clientWidth;
  }

  get columns(): number {
    return this.display.length;
  }

  get rowCount(): number {
    return this.count;
  }

  /** The data column at the active position. */
  get activeColumn(): number {
    return this.display[this.active.col] ?? 0;
  }

  /** The active cell's value, or its row as tab-separated values, to the clipboard (through the host). */
  copy(what: 'cell' | 'row'): void {
    const row = this.activeRow();
    const text = what === 'cell' ? this.activeValue() : row && rowAsTsv(row);
    if (text !== undefined) this.cb.onCopy(text, what);
  }

  activeValue(): string | undefined {
    if (this.active.row < 0) return undefined;
    return this.cb.rowAt(this.active.row)?.[this.activeColumn] ?? '';
  }

  activeRow(): string[] | undefined {
    return this.active.row < 0 ? undefined : this.cb.rowAt(this.active.row);
  }

  toggleSort(col: number): void {
    this.table.getColumn(columnId(col))?.toggleSorting();
  }

  isPinned(col: number): boolean {
    return (this.table.store.state.columnPinning?.start ?? []).includes(columnId(col));
  }

  setPinned(col: number, pinned: boolean): void {
    const id = columnId(col);
    const before = (this.table.store.state.columnPinning?.start ?? []).filter((c) => c !== id);
    const after = pinned ? [...before, id] : before;
    // The column keeps the keyboard focus at its new place (set before the state change redraws).
    const pos = displayOrder(this, after).indexOf(col);
    if (pos >= 0) this.active.col = pos;
    this.table.setColumnPinning((old) => ({ ...old, start: after }));
  }

  /** Opens the column menu for a data column, at a point or under its header. */
  openMenu(col: number, at?: { x: number; y: number }): void {
    const header = this.headerCells[col];
    const box = header.getBoundingClientRect();
    const name = header.querySelector('.label')?.textContent ?? '';
    const column = this.table.getColumn(columnId(col))!;
    const pinned = this.isPinned(col);
    this.menu.open(
      [
        { id: 'pin', label: pinned ? 'Unpin column' : 'Pin column', run: () => this.setPinned(col, !pinned) },
        { id: 'sort-asc', label: 'Sort ascending', run: () => column.toggleSorting(false) },
        { id: 'sort-desc', label: 'Sort descending', run: () => column.toggleSorting(true) },
        ...(column.getIsSorted() ? [{ id: 'sort-clear', label: 'Remove sort', run: () => column.clearSorting() }] : []),
      ],
      at ?? { x: box.left, y: box.bottom },
      `Column ${name}`,
      this.element,
    );
  }

  private onContextMenu(e: MouseEvent): void {
    const head = (e.target as HTMLElement).closest('.colhead') as HTMLElement | null;
    if (!head) return;
    e.preventDefault();
    const col = Number(head.dataset.col);
    this.active = { row: -1, col: this.display.indexOf(col) };
    this.renderRows();
    this.openMenu(col, { x: e.clientX, y: e.clientY });
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    if (target.closest('input') || target.closest('.empty')) return;
    const head = target.closest('.colhead') as HTMLElement | null;
    if (head) {
      const col = Number(head.dataset.col);
      this.toggleSort(col);
      this.active = { row: -1, col: this.display.indexOf(col) };
    } else {
      const cell = target.closest('.row.data > .cell');
      if (!cell) return;
      const rowEl = cell.parentElement as HTMLElement;
      this.active = { row: Number(rowEl.dataset.index), col: Number(cell.getAttribute('aria-colindex')) - 1 };
    }
    this.element.focus({ preventScroll: true });
    this.renderRows();
    this.cb.onActiveChange();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.element) return; // typing in a filter box
    if (!onGridKey(this, e)) return;
    // VS Code's webview script forwards keydowns that reach the window to the workbench's keybindings
    // (Ctrl+Shift+C would also open an external terminal); a key the grid used stops here.
    e.preventDefault();
    e.stopPropagation();
  }

  resizeBy(col: number, delta: number): void {
    const column = this.table.getColumn(columnId(col));
    if (!column) return;
    const size = Math.max(48, column.getSize() + delta);
    this.table.setColumnSizing((old) => ({ ...old, [columnId(col)]: size }));
  }

  get scrollTop(): number {
    return this.element.scrollTop;
  }

  restoreScroll(top: number): void {
    this.element.scrollTop = top;
  }
}
