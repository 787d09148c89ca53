// Draws the rows in view into a pool of row elements that is reused as the user scrolls: values as text
// (cellRender.ts), highlights, the reconciliation status colour, the active cell and the positions the
// row window (rowWindow.ts) gives. Pinned cells take their sticky offsets from the header cells.
import { el } from './dom';
import { renderCell } from './cellRender';
import type { RowWindow } from './rowWindow';

export const HEADER_ROWS = 2; // column names + filters

export interface GridCallbacks {
  rowAt(viewIndex: number): string[] | undefined;
  onCopy(text: string, what: 'cell' | 'row'): void;
  onActiveChange(): void;
  /** A data column whose value colours its cells (a reconciliation's status), via data-status. */
  statusColumn?: number;
  /** Lower-case needles to highlight in a data column (the search, and that column's filter). */
  needlesFor(column: number): string[];
  /** The text a cell shows when it differs from its value (report amounts in their currency's digits). */
  cellText?(row: readonly string[], column: number): string;
}

/** What drawing the rows reads and keeps: the grid's parts, seen through this job. */
export interface RowsTarget {
  readonly element: HTMLElement;
  readonly head: HTMLElement;
  readonly body: HTMLElement;
  pool: HTMLDivElement[];
  readonly display: number[];
  readonly pinnedCount: number;
  readonly headerCells: HTMLDivElement[];
  readonly rows: RowWindow;
  readonly headHeight: number;
  readonly active: { row: number; col: number };
  readonly cb: GridCallbacks;
}

export function renderRows(g: RowsTarget): void {
  const items = g.rows.items();
  const ncols = g.display.length;
  const margin = g.headHeight;
  while (g.pool.length < items.length) {
    const row = el('div', { class: 'row data', role: 'row' });
    for (let k = 0; k < ncols; k++) {
      const cell = el('div', { class: 'cell', role: 'gridcell', 'aria-colindex': String(k + 1) });
      if (k < g.pinnedCount) {
        cell.classList.add('pinned');
        if (k === g.pinnedCount - 1) cell.classList.add('pinned-last');
      }
      row.append(cell);
    }
    g.body.append(row);
    g.pool.push(row);
  }
  if (g.pool.length > 0 && g.pinnedCount > 0) {
    // New pooled cells take their sticky offsets from the header cells above them.
    const headCells = g.head.firstElementChild!.children;
    for (const row of g.pool) {
      for (let k = 0; k < g.pinnedCount; k++) {
        const cell = row.children[k] as HTMLElement;
        const left = (headCells[k] as HTMLElement).style.left;
        if (cell.style.left !== left) cell.style.left = left;
      }
    }
  }
  const needles = g.display.map((c) => g.cb.needlesFor(c));
  for (let k = 0; k < g.pool.length; k++) {
    const rowEl = g.pool[k];
    const item = items[k];
    if (!item) {
      rowEl.hidden = true;
      continue;
    }
    rowEl.hidden = false;
    const values = g.cb.rowAt(item.index) ?? [];
    rowEl.setAttribute('aria-rowindex', String(item.index + HEADER_ROWS + 1));
    rowEl.dataset.index = String(item.index);
    rowEl.style.transform = `translateY(${item.start - margin}px)`;
    rowEl.classList.toggle('odd', item.index % 2 === 1);
    for (let p = 0; p < ncols; p++) {
      const cell = rowEl.children[p] as HTMLElement;
      const c = g.display[p];
      renderCell(cell, g.cb.cellText ? g.cb.cellText(values, c) : (values[c] ?? ''), needles[p]);
      if (c === g.cb.statusColumn) cell.dataset.status = values[c] ?? '';
      else if (cell.dataset.status !== undefined) delete cell.dataset.status;
      const isActive = g.active.row === item.index && g.active.col === p;
      cell.classList.toggle('active', isActive);
      if (isActive) cell.id = 'active-cell';
      else if (cell.id) cell.removeAttribute('id');
    }
  }
  g.display.forEach((c, p) => g.headerCells[c].classList.toggle('active', g.active.row === -1 && g.active.col === p));
  g.element.setAttribute('aria-activedescendant', g.active.row === -1 ? `h-${g.display[g.active.col] ?? 0}` : 'active-cell');
}

/** The empty table's message and, optionally, one action (e.g. clear the search); null hides it. */
export function showEmpty(box: HTMLElement, message: string | null, action?: { label: string; run(): void }): void {
  if (message === null) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const children: Node[] = [el('span', { class: 'empty-text' }, message)];
  if (action) {
    const b = el('button', { type: 'button', class: 'empty-action' }, action.label);
    b.addEventListener('click', () => action.run());
    children.push(b);
  }
  // eslint-disable-next-line no-restricted-syntax -- bounded: a message and at most one button
  box.replaceChildren(...children);
  box.hidden = false;
}
