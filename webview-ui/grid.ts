// The virtualised grid: a sticky header (column names, sort, resize) and filter row, then only the rows
// in view, positioned absolutely. Pinned columns come first and stay in place when scrolling sideways.
// Every value is written as text nodes (cellRender.ts), never parsed as HTML.
// Focus stays on the grid element and aria-activedescendant names the active cell, which survives the
// recycling of row elements as the user scrolls. `active.col` is a position on screen; `display` maps
// positions to data columns.
import { columnId, columnIndex, type ResultsTable } from './table';
import { el } from './dom';
import { quoteField } from '../src/shared/csv';
import { renderCell, setTooltip } from './cellRender';
import { ColumnMenu } from './gridMenu';
import { RowWindow } from './rowWindow';
import { headerCells } from './gridHeader';

/** A row as tab-separated text, quoted where needed, which spreadsheets split into cells on paste. */
export const rowAsTsv = (row: readonly string[]) => row.map((v) => quoteField(v, '\t')).join('\t');

export const ROW_HEIGHT = 24;
const HEADER_ROWS = 2; // column names + filters
const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;
const SORT_INDICATOR = { asc: '▲', desc: '▼' } as const;

export interface GridCallbacks {
  rowAt(viewIndex: number): string[] | undefined;
  onCopy(text: string, what: 'cell' | 'row'): void;
  onActiveChange(): void;
  /** A data column whose value colours its cells (a reconciliation's status), via data-status. */
  statusColumn?: number;
  /** Lower-case needles to highlight in a data column (the search, and that column's filter). */
  needlesFor(column: number): string[];
  /** The text a cell shows when it differs from its value (report amounts in their currency's minor units). */
  cellText?(row: readonly string[], column: number): string;
}

export class Grid {
  readonly element: HTMLDivElement;
  private readonly head: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly empty: HTMLDivElement;
  private headerCells: HTMLDivElement[] = []; // by data column
  private filterInputs: HTMLInputElement[] = []; // by data column
  private pool: HTMLDivElement[] = [];
  private count = 0;
  private display: number[] = [];
  private pinnedCount = 0;
  private layoutKey = '';
  private readonly menu: ColumnMenu;
  private readonly rows: RowWindow;
  private headHeight = 0;
  private readonly headObserver: ResizeObserver;
  /** Active cell: row is a view index, -1 is the header row; col is a position on screen. */
  active = { row: 0, col: 0 };

  constructor(
    parent: HTMLElement,
    private readonly table: ResultsTable,
    label: string,
    private readonly cb: GridCallbacks,
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

  /** Pinned columns first (in pinning order), then the others in file order. */
  private displayOrder(pinnedIds = this.table.store.state.columnPinning?.start ?? []): number[] {
    const pinned = pinnedIds.map(columnIndex).filter((i) => this.headerCells[i]);
    const rest = this.headerCells.map((_, i) => i).filter((i) => !pinned.includes(i));
    this.pinnedCount = pinned.length;
    return [...pinned, ...rest];
  }

  /** Places header and filter cells in display order and sets widths and pinned offsets. */
  private layout(): void {
    const display = this.displayOrder();
    const widths = display.map((c) => this.table.getColumn(columnId(c))!.getSize());
    const key = `${display.join(',')}|${this.pinnedCount}|${widths.join(',')}`;
    if (key === this.layoutKey) return;
    const orderChanged = display.join(',') !== this.display.join(',') || this.layoutKey.split('|')[1] !== String(this.pinnedCount);
    this.layoutKey = key;
    this.display = display;
    // CSSOM writes are not inline-style markup, so the CSP without 'unsafe-inline' allows them.
    this.element.style.setProperty('--cols', widths.map((w) => `${w}px`).join(' '));
    this.element.style.setProperty('--total-width', `${widths.reduce((a, b) => a + b, 0)}px`);
    if (orderChanged) {
      const headRow = el('div', { class: 'row header', role: 'row', 'aria-rowindex': '1' });
      const filterRow = el('div', { class: 'row filters', role: 'row', 'aria-rowindex': '2' });
      display.forEach((c, k) => {
        const cell = this.headerCells[c];
        cell.setAttribute('aria-colindex', String(k + 1));
        cell.classList.toggle('is-pinned', k < this.pinnedCount);
        headRow.append(cell);
        const fcell = el('div', { class: 'cell filtercell', role: 'gridcell', 'aria-colindex': String(k + 1) });
        fcell.append(this.filterInputs[c]);
        filterRow.append(fcell);
      });
      this.head.replaceChildren(headRow, filterRow);
      // Pooled rows were built for the old order: build them again.
      for (const row of this.pool) row.remove();
      this.pool = [];
    }
    let left = 0;
    const offsets = widths.map((w) => ((left += w), left - w));
    const pinCells = (cells: HTMLElement[]) =>
      cells.forEach((cell, k) => {
        const pinned = k < this.pinnedCount;
        cell.classList.toggle('pinned', pinned);
        cell.classList.toggle('pinned-last', pinned && k === this.pinnedCount - 1);
        cell.style.left = pinned ? `${offsets[k]}px` : '';
      });
    for (const row of this.head.children) pinCells([...row.children] as HTMLElement[]);
    for (const row of this.pool) pinCells([...row.children] as HTMLElement[]);
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
      if (document.activeElement !== input && (fv ?? '') !== input.value) input.value = String(fv ?? '');
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
    if (message === null) {
      this.empty.hidden = true;
      this.empty.replaceChildren();
      return;
    }
    const children: Node[] = [el('span', { class: 'empty-text' }, message)];
    if (action) {
      const b = el('button', { type: 'button', class: 'empty-action' }, action.label);
      b.addEventListener('click', () => action.run());
      children.push(b);
    }
    // eslint-disable-next-line no-restricted-syntax -- bounded: a message and at most one button
    this.empty.replaceChildren(...children);
    this.empty.hidden = false;
  }

  /** Rows already shown changed in place (highlights): redraw without moving. */
  refresh(): void {
    this.renderRows();
  }

  private renderRows(): void {
    const items = this.rows.items();
    const ncols = this.display.length;
    const margin = this.headHeight;
    while (this.pool.length < items.length) {
      const row = el('div', { class: 'row data', role: 'row' });
      for (let k = 0; k < ncols; k++) {
        const cell = el('div', { class: 'cell', role: 'gridcell', 'aria-colindex': String(k + 1) });
        if (k < this.pinnedCount) {
          cell.classList.add('pinned');
          if (k === this.pinnedCount - 1) cell.classList.add('pinned-last');
        }
        row.append(cell);
      }
      this.body.append(row);
      this.pool.push(row);
    }
    if (this.pool.length > 0 && this.pinnedCount > 0) {
      // New pooled cells take their sticky offsets from the header cells above them.
      const headCells = this.head.firstElementChild!.children;
      for (const row of this.pool) {
        for (let k = 0; k < this.pinnedCount; k++) {
          const cell = row.children[k] as HTMLElement;
          const left = (headCells[k] as HTMLElement).style.left;
          if (cell.style.left !== left) cell.style.left = left;
        }
      }
    }
    const needles = this.display.map((c) => this.cb.needlesFor(c));
    for (let k = 0; k < this.pool.length; k++) {
      const rowEl = this.pool[k];
      const item = items[k];
      if (!item) {
        rowEl.hidden = true;
        continue;
      }
      rowEl.hidden = false;
      const values = this.cb.rowAt(item.index) ?? [];
      rowEl.setAttribute('aria-rowindex', String(item.index + HEADER_ROWS + 1));
      rowEl.dataset.index = String(item.index);
      rowEl.style.transform = `translateY(${item.start - margin}px)`;
      rowEl.classList.toggle('odd', item.index % 2 === 1);
      for (let p = 0; p < ncols; p++) {
        const cell = rowEl.children[p] as HTMLElement;
        const c = this.display[p];
        renderCell(cell, this.cb.cellText ? this.cb.cellText(values, c) : (values[c] ?? ''), needles[p]);
        if (c === this.cb.statusColumn) cell.dataset.status = values[c] ?? '';
        else if (cell.dataset.status !== undefined) delete cell.dataset.status;
        const isActive = this.active.row === item.index && this.active.col === p;
        cell.classList.toggle('active', isActive);
        if (isActive) cell.id = 'active-cell';
        else if (cell.id) cell.removeAttribute('id');
      }
    }
    this.display.forEach((c, p) => this.headerCells[c].classList.toggle('active', this.active.row === -1 && this.active.col === p));
    this.element.setAttribute('aria-activedescendant', this.active.row === -1 ? `h-${this.display[this.active.col] ?? 0}` : 'active-cell');
  }

  private get pageRows(): number {
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
    const pos = this.displayOrder(after).indexOf(col);
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
    const { row, col } = this.active;
    const ncols = this.display.length;
    const ctrl = e.ctrlKey || e.metaKey;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        this.moveTo(row + 1, col);
        break;
      case 'ArrowUp':
        this.moveTo(row - 1, col);
        break;
      case 'ArrowLeft':
      case 'ArrowRight': {
        const dir = e.key === 'ArrowLeft' ? -1 : 1;
        if (row === -1 && e.shiftKey) this.resizeBy(this.activeColumn, dir * 16);
        else this.moveTo(row, col + dir);
        break;
      }
      case 'Home':
        this.moveTo(ctrl ? 0 : row, 0);
        break;
      case 'End':
        this.moveTo(ctrl ? this.count - 1 : row, ncols - 1);
        break;
      case 'PageDown':
        this.moveTo(Math.max(0, row) + this.pageRows, col);
        break;
      case 'PageUp':
        this.moveTo(Math.max(0, row - this.pageRows), col);
        break;
      case 'Enter':
      case ' ':
        if (row === -1) this.toggleSort(this.activeColumn);
        else handled = false;
        break;
      case 'ContextMenu':
        this.openMenu(this.activeColumn);
        break;
      case 'F10':
        if (e.shiftKey) this.openMenu(this.activeColumn);
        else handled = false;
        break;
      case 'c':
      case 'C':
        if (ctrl && row >= 0) {
          this.copy(e.shiftKey ? 'row' : 'cell');
        } else handled = false;
        break;
      default:
        handled = false;
    }
    if (handled) {
      // VS Code's webview script forwards keydowns that reach the window to the workbench's keybindings
      // (Ctrl+Shift+C would also open an external terminal); a key the grid used stops here.
      e.preventDefault();
      e.stopPropagation();
    }
  }

  private resizeBy(col: number, delta: number): void {
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
