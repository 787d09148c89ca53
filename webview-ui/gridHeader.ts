// One column's header cell (name, pin mark, sort arrow, resize handle) and its filter box, wired to the
// column's state in TanStack Table. The grid places them (grid.ts), in display order.
import type { ResultsTable } from './table';
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
