// The virtualised grid: a sticky header (column names, sort, resize) and filter row, then only the rows
// in view, positioned absolutely. Every value is written with textContent, never parsed as HTML.
// Focus stays on the grid element and aria-activedescendant names the active cell, which survives the
// recycling of row elements as the user scrolls.
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { columnId, columnIndex, type ResultsTable } from './table';
import { el } from './dom';
import { quoteField } from '../src/shared/csv';

/** A row as tab-separated text, quoted where needed, which spreadsheets split into cells on paste. */
export const rowAsTsv = (row: readonly string[]) => row.map((v) => quoteField(v, '\t')).join('\t');

export const ROW_HEIGHT = 24;
const HEADER_ROWS = 2; // column names + filters

export interface GridCallbacks {
  rowAt(viewIndex: number): string[] | undefined;
  onCopy(text: string, what: 'cell' | 'row'): void;
  onActiveChange(): void;
}

export class Grid {
  readonly element: HTMLDivElement;
  private readonly head: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private headerCells: HTMLDivElement[] = [];
  private filterInputs: HTMLInputElement[] = [];
  private pool: HTMLDivElement[] = [];
  private count = 0;
  private virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement>;
  private cleanup: () => void = () => undefined;
  /** Active cell: row is a view index, -1 is the header row. */
  active = { row: 0, col: 0 };

  constructor(
    parent: HTMLElement,
    private readonly table: ResultsTable,
    label: string,
    private readonly cb: GridCallbacks,
  ) {
    const n = table.getAllLeafColumns().length;
    this.element = el('div', { class: 'grid', role: 'grid', tabindex: '0', 'aria-label': label, 'aria-colcount': String(n), 'aria-multiselectable': 'false' });
    this.head = el('div', { class: 'head', role: 'rowgroup' });
    this.body = el('div', { class: 'body', role: 'rowgroup' });
    this.element.append(this.head, this.body);
    parent.append(this.element);
    this.buildHeader();
    this.applyWidths();
    this.virtualizer = new Virtualizer<HTMLDivElement, HTMLDivElement>({
      count: 0,
      getScrollElement: () => this.element,
      estimateSize: () => ROW_HEIGHT,
      overscan: 8,
      scrollMargin: this.head.offsetHeight,
      scrollToFn: elementScroll,
      observeElementRect,
      observeElementOffset,
      onChange: () => this.renderRows(),
    });
    this.cleanup = this.virtualizer._didMount();
    this.virtualizer._willUpdate();
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('click', (e) => this.onClick(e));
  }

  dispose(): void {
    this.cleanup();
    this.element.remove();
  }

  private buildHeader(): void {
    const headRow = el('div', { class: 'row header', role: 'row', 'aria-rowindex': '1' });
    const filterRow = el('div', { class: 'row filters', role: 'row', 'aria-rowindex': '2' });
    for (const header of this.table.getHeaderGroups()[0].headers) {
      const i = columnIndex(header.id);
      const cell = el('div', { class: 'cell colhead', role: 'columnheader', 'aria-colindex': String(i + 1), id: `h-${i}`, 'aria-sort': 'none' });
      const name = String(header.column.columnDef.header ?? '');
      const label = el('span', { class: 'label', title: name }, name);
      const ind = el('span', { class: 'sort-indicator', 'aria-hidden': 'true' });
      const resizer = el('div', { class: 'resizer', 'aria-hidden': 'true', title: 'Drag to resize; double-click to reset' });
      const handler = header.getResizeHandler();
      resizer.addEventListener('mousedown', (e) => {
        e.stopPropagation();
        handler(e);
      });
      resizer.addEventListener('touchstart', (e) => {
        e.stopPropagation();
        handler(e);
      });
      resizer.addEventListener('click', (e) => e.stopPropagation());
      resizer.addEventListener('dblclick', (e) => {
        e.stopPropagation();
        header.column.resetSize();
      });
      cell.append(label, ind, resizer);
      headRow.append(cell);
      this.headerCells.push(cell);

      const fcell = el('div', { class: 'cell filtercell', role: 'gridcell', 'aria-colindex': String(i + 1) });
      const input = el('input', { type: 'search', class: 'filter', placeholder: 'Filter', 'aria-label': `Filter ${name}`, spellcheck: 'false' });
      let timer: ReturnType<typeof setTimeout> | undefined;
      input.addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(() => header.column.setFilterValue(input.value === '' ? undefined : input.value), 150);
      });
      fcell.append(input);
      filterRow.append(fcell);
      this.filterInputs.push(input);
    }
    this.head.append(headRow, filterRow);
  }

  /** Called when table state changes: sort indicators, widths, filter boxes restored from state. */
  syncHeader(): void {
    for (const header of this.table.getHeaderGroups()[0].headers) {
      const i = columnIndex(header.id);
      const sorted = header.column.getIsSorted();
      const cell = this.headerCells[i];
      cell.setAttribute('aria-sort', sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none');
      cell.querySelector('.sort-indicator')!.textContent = sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '';
      cell.classList.toggle('resizing', header.column.getIsResizing());
      const fv = header.column.getFilterValue();
      const input = this.filterInputs[i];
      if (document.activeElement !== input && (fv ?? '') !== input.value) input.value = String(fv ?? '');
    }
    this.applyWidths();
  }

  private applyWidths(): void {
    const sizes = this.table.getHeaderGroups()[0].headers.map((h) => `${h.getSize()}px`);
    // CSSOM writes are not inline-style markup, so the CSP without 'unsafe-inline' allows them.
    this.element.style.setProperty('--cols', sizes.join(' '));
    this.element.style.setProperty('--total-width', `${this.table.getTotalSize()}px`);
  }

  setCount(count: number, keepScroll = false): void {
    this.count = count;
    this.element.setAttribute('aria-rowcount', String(count + HEADER_ROWS));
    if (!keepScroll) this.element.scrollTop = 0;
    this.active.row = Math.min(this.active.row, Math.max(0, count - 1));
    this.virtualizer.setOptions({ ...this.virtualizer.options, count, scrollMargin: this.head.offsetHeight });
    this.virtualizer._willUpdate();
    this.body.style.height = `${this.virtualizer.getTotalSize()}px`;
    this.renderRows();
  }

  /** Rows already shown changed in place (more rows parsed): redraw without moving. */
  refresh(): void {
    this.renderRows();
  }

  private renderRows(): void {
    const items = this.virtualizer.getVirtualItems();
    const ncols = this.table.getAllLeafColumns().length;
    const margin = this.virtualizer.options.scrollMargin;
    while (this.pool.length < items.length) {
      const row = el('div', { class: 'row data', role: 'row' });
      for (let c = 0; c < ncols; c++) row.append(el('div', { class: 'cell', role: 'gridcell', 'aria-colindex': String(c + 1) }));
      this.body.append(row);
      this.pool.push(row);
    }
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
      for (let c = 0; c < ncols; c++) {
        const cell = rowEl.children[c] as HTMLElement;
        const value = values[c] ?? '';
        // Line breaks inside a value would be invisible in a one-line cell; show a marker instead.
        const shown = value.includes('\n') || value.includes('\r') ? value.replace(/\r\n|\r|\n/g, ' ↵ ') : value;
        if (cell.textContent !== shown) cell.textContent = shown;
        if (cell.title !== value) cell.title = value.length > 20 ? value : '';
        const isActive = this.active.row === item.index && this.active.col === c;
        cell.classList.toggle('active', isActive);
        if (isActive) cell.id = 'active-cell';
        else if (cell.id) cell.removeAttribute('id');
      }
    }
    this.headerCells.forEach((h, c) => h.classList.toggle('active', this.active.row === -1 && this.active.col === c));
    this.element.setAttribute('aria-activedescendant', this.active.row === -1 ? `h-${this.active.col}` : 'active-cell');
  }

  private get pageRows(): number {
    return Math.max(1, Math.floor((this.element.clientHeight - this.head.offsetHeight) / ROW_HEIGHT) - 1);
  }

  moveTo(row: number, col: number): void {
    const ncols = this.table.getAllLeafColumns().length;
    this.active = { row: Math.max(-1, Math.min(row, this.count - 1)), col: Math.max(0, Math.min(col, ncols - 1)) };
    if (this.active.row >= 0) this.virtualizer.scrollToIndex(this.active.row, { align: 'auto' });
    this.scrollColumnIntoView(this.active.col);
    this.renderRows();
    this.cb.onActiveChange();
  }

  private scrollColumnIntoView(col: number): void {
    const header = this.table.getHeaderGroups()[0].headers[col];
    const left = header.getStart();
    const right = left + header.getSize();
    if (left < this.element.scrollLeft) this.element.scrollLeft = left;
    else if (right > this.element.scrollLeft + this.element.clientWidth) this.element.scrollLeft = right - this.element.clientWidth;
  }

  activeValue(): string | undefined {
    if (this.active.row < 0) return undefined;
    return this.cb.rowAt(this.active.row)?.[this.active.col] ?? '';
  }

  activeRow(): string[] | undefined {
    return this.active.row < 0 ? undefined : this.cb.rowAt(this.active.row);
  }

  toggleSort(col: number): void {
    this.table.getColumn(columnId(col))?.toggleSorting();
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    if (target.closest('input')) return;
    const head = target.closest('.colhead');
    if (head) {
      const col = Number(head.getAttribute('aria-colindex')) - 1;
      this.toggleSort(col);
      this.active = { row: -1, col };
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
    const ncols = this.table.getAllLeafColumns().length;
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
        if (row === -1 && e.shiftKey) this.resizeBy(col, dir * 16);
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
        if (row === -1) this.toggleSort(col);
        else handled = false;
        break;
      case 'c':
      case 'C':
        if (ctrl && row >= 0) {
          if (e.shiftKey) this.cb.onCopy(rowAsTsv(this.activeRow() ?? []), 'row');
          else this.cb.onCopy(this.activeValue() ?? '', 'cell');
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
