// The row of controls above the table: the search everywhere (applied after a short pause in typing,
// cleared by Escape), the row count, and the copy, export and reconcile buttons.
import { el } from './dom';

export interface ToolbarActions {
  /** The search text to apply (after typing pauses, or at once when cleared). */
  onSearch(text: string): void;
  onCopy(what: 'cell' | 'row'): void;
  onExport(format: 'csv' | 'json'): void;
  onReconcile(): void;
}

const SEARCH_PAUSE_MS = 150;

export class Toolbar {
  readonly element = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Table actions' });
  readonly search = el('input', {
    type: 'search',
    class: 'search',
    placeholder: 'Search all columns',
    'aria-label': 'Search all columns',
    spellcheck: 'false',
  });
  private readonly count = el('span', { class: 'count', role: 'status', 'aria-live': 'polite' });
  private readonly reconcile: HTMLButtonElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(actions: ToolbarActions) {
    const button = (label: string, action: () => void, id: string) => {
      const b = el('button', { type: 'button', id }, label);
      b.addEventListener('click', action);
      return b;
    };
    this.reconcile = button('Reconcile…', () => actions.onReconcile(), 'reconcile');
    this.element.append(
      this.search,
      this.count,
      button('Copy cell', () => actions.onCopy('cell'), 'copy-cell'),
      button('Copy row', () => actions.onCopy('row'), 'copy-row'),
      button('Export CSV', () => actions.onExport('csv'), 'export-csv'),
      button('Export JSON', () => actions.onExport('json'), 'export-json'),
      this.reconcile,
    );
    this.search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => actions.onSearch(this.search.value), SEARCH_PAUSE_MS);
    });
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.search.value !== '') {
        e.stopPropagation();
        this.clearSearch();
        actions.onSearch('');
      }
    });
  }

  /** Empties the box without waiting for the pause (the caller applies the empty search). */
  clearSearch(): void {
    clearTimeout(this.timer);
    this.search.value = '';
  }

  setCount(text: string): void {
    this.count.textContent = text;
  }

  /** Only a report or a file can be reconciled: not a submission, a reconciliation itself, nor one record's details. */
  showReconcile(show: boolean): void {
    this.reconcile.hidden = !show;
  }
}
