// Writes a value into a grid cell: plain text when it is plain, otherwise text nodes, <mark> for search
// and filter matches, and marker elements for line breaks and invisible characters (cellText.ts). The
// marker's glyph is drawn by CSS from a data attribute, so the cell's text holds only the data.
import { hasSpecial, segments, tooltipText } from './cellText';
import { el } from './dom';

interface CellState {
  value: string;
  needles: string;
}

const state = new WeakMap<HTMLElement, CellState>();

const GLYPH: Record<'eol' | 'tab', string> = { eol: '⏎', tab: '⇥' };

export function renderCell(cell: HTMLElement, value: string, needles: readonly string[]): void {
  const key = needles.join('\u0000');
  const old = state.get(cell);
  if (old && old.value === value && old.needles === key) return;
  state.set(cell, { value, needles: key });
  if (cell.title) cell.removeAttribute('title');
  const special = hasSpecial(value);
  if (!special && (needles.length === 0 || !needles.some((n) => value.toLowerCase().includes(n)))) {
    cell.textContent = value;
    cell.classList.remove('has-markers');
    return;
  }
  // One fragment, one DOM change; never spread the pieces into a call (a long cell has many).
  const parts = document.createDocumentFragment();
  for (const s of segments(value, needles)) {
    let node: HTMLElement | Text;
    if (s.kind === 'text') node = document.createTextNode(s.text);
    else {
      node = el('span', {
        class: `ctl ctl-${s.marker}`,
        role: 'img',
        'aria-label': s.label,
        'data-glyph': s.marker === 'char' ? s.code : GLYPH[s.marker],
      });
    }
    if (s.hit) {
      const mark = el('mark', { class: 'hit' });
      mark.append(node);
      node = mark;
    }
    parts.append(node);
  }
  cell.replaceChildren(parts);
  cell.classList.toggle('has-markers', special);
}

/** The value a cell shows (kept with the cell when it was rendered). */
export function cellValue(cell: HTMLElement): string | undefined {
  return state.get(cell)?.value;
}

/** Sets the full value as the tooltip when the cell cuts it short, spreads it over lines or marks characters. */
export function setTooltip(cell: HTMLElement): void {
  const value = cellValue(cell);
  if (value === undefined) return;
  const needed = cell.classList.contains('has-markers') || cell.scrollWidth > cell.clientWidth;
  const text = needed ? tooltipText(value) : '';
  if (text) {
    if (cell.title !== text) cell.title = text;
  } else if (cell.title) cell.removeAttribute('title');
}
