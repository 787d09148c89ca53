// One column's header cell (name, pin mark, sort arrow, resize handle) and its filter box, wired to the
// column's state in TanStack Table. The grid places them (grid.ts), in display order.
import { columnId, columnIndex, type ResultsTable } from './table';
import { el } from './dom';

type Header = ReturnType<ResultsTable['getHeaderGroups']>[number]['headers'][number];

export function headerCells(header: Header): { cell: HTMLDivElement; filter: HTMLInputElement } {
  const i = Number(header.id.slice(1));
  const cell = el('div', {
    class: 'cell colhead',
    role: 'columnheader',
    id: `h-${i}`,
    'aria-sort': 'none',
    'aria-haspopup': 'menu',
    'data-col': String(i),
  });
  const name = String(header.column.columnDef.header ?? '');
  const pin = el('span', {
    class: 'pin-indicator',
    role: 'img',
    'aria-label': 'pinned',
    title: 'Pinned: stays in view when scrolling sideways',
  });
  const label = el('span', { class: 'label', title: `${name}\nClick to sort; right-click, Shift+F10 or the Menu key to pin` }, name);
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
  cell.append(pin, label, ind, resizer);

  const filter = el('input', {
    type: 'search',
    class: 'filter',
    placeholder: 'Filter',
    'aria-label': `Filter ${name}`,
    spellcheck: 'false',
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  filter.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => header.column.setFilterValue(filter.value === '' ? undefined : filter.value), 150);
  });
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && filter.value !== '') {
      e.stopPropagation();
      filter.value = '';
      clearTimeout(timer);
      header.column.setFilterValue(undefined);
    }
  });
  return { cell, filter };
}

/** What laying out the header reads and keeps: the grid's parts, seen through this job. */
export interface HeaderTarget {
  readonly table: ResultsTable;
  readonly element: HTMLElement;
  readonly head: HTMLElement;
  readonly headerCells: HTMLDivElement[];
  readonly filterInputs: HTMLInputElement[];
  display: number[];
  pinnedCount: number;
  layoutKey: string;
  pool: HTMLDivElement[];
}

/** Pinned columns first (in pinning order), then the others in file order. */
export function displayOrder(g: HeaderTarget, pinnedIds = g.table.store.state.columnPinning?.start ?? []): number[] {
  const pinned = pinnedIds.map(columnIndex).filter((i) => g.headerCells[i]);
  const rest = g.headerCells.map((_, i) => i).filter((i) => !pinned.includes(i));
  g.pinnedCount = pinned.length;
  return [...pinned, ...rest];
}

/** Places header and filter cells in display order and sets widths and pinned offsets. */
export function layoutHeader(g: HeaderTarget): void {
  const display = displayOrder(g);
  const widths = display.map((c) => g.table.getColumn(columnId(c))!.getSize());
  const key = `${display.join(',')}|${g.pinnedCount}|${widths.join(',')}`;
  if (key === g.layoutKey) return;
  const orderChanged = display.join(',') !== g.display.join(',') || g.layoutKey.split('|')[1] !== String(g.pinnedCount);
  g.layoutKey = key;
  g.display = display;
  // CSSOM writes are not inline-style markup, so the CSP without 'unsafe-inline' allows them.
  g.element.style.setProperty('--cols', widths.map((w) => `${w}px`).join(' '));
  g.element.style.setProperty('--total-width', `${widths.reduce((a, b) => a + b, 0)}px`);
  if (orderChanged) {
    const headRow = el('div', { class: 'row header', role: 'row', 'aria-rowindex': '1' });
    const filterRow = el('div', { class: 'row filters', role: 'row', 'aria-rowindex': '2' });
    display.forEach((c, k) => {
      const cell = g.headerCells[c];
      cell.setAttribute('aria-colindex', String(k + 1));
      cell.classList.toggle('is-pinned', k < g.pinnedCount);
      headRow.append(cell);
      const fcell = el('div', { class: 'cell filtercell', role: 'gridcell', 'aria-colindex': String(k + 1) });
      fcell.append(g.filterInputs[c]);
      filterRow.append(fcell);
    });
    g.head.replaceChildren(headRow, filterRow);
    // Pooled rows were built for the old order: build them again.
    for (const row of g.pool) row.remove();
    g.pool = [];
  }
  let left = 0;
  const offsets = widths.map((w) => ((left += w), left - w));
  const pinCells = (cells: HTMLElement[]) =>
    cells.forEach((cell, k) => {
      const pinned = k < g.pinnedCount;
      cell.classList.toggle('pinned', pinned);
      cell.classList.toggle('pinned-last', pinned && k === g.pinnedCount - 1);
      cell.style.left = pinned ? `${offsets[k]}px` : '';
    });
  for (const row of g.head.children) pinCells([...row.children] as HTMLElement[]);
  for (const row of g.pool) pinCells([...row.children] as HTMLElement[]);
}
