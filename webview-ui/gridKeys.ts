// What a key does in the grid: arrows, Home/End, Page Up/Down move the active cell; on a column name
// Enter or Space sorts, Shift+Left/Right resizes, Shift+F10 or the Menu key opens the column menu;
// Ctrl+C copies the cell, Ctrl+Shift+C the row. Other keys are left to the page and the editor.

/** What the keys act on: the grid, seen through what a key needs. */
export interface KeyTarget {
  /** Active cell: row is a view index, -1 the header row; col a position on screen. */
  readonly active: { row: number; col: number };
  /** Columns on screen. */
  readonly columns: number;
  readonly rowCount: number;
  /** Rows a Page Down moves. */
  readonly pageRows: number;
  /** The data column at the active position. */
  readonly activeColumn: number;
  moveTo(row: number, col: number): void;
  resizeBy(col: number, delta: number): void;
  toggleSort(col: number): void;
  openMenu(col: number): void;
  copy(what: 'cell' | 'row'): void;
}

/** Does what the key means and says whether the grid used it. */
export function onGridKey(g: KeyTarget, e: KeyboardEvent): boolean {
  const { row, col } = g.active;
  const ncols = g.columns;
  const ctrl = e.ctrlKey || e.metaKey;
  let handled = true;
  switch (e.key) {
    case 'ArrowDown':
      g.moveTo(row + 1, col);
      break;
    case 'ArrowUp':
      g.moveTo(row - 1, col);
      break;
    case 'ArrowLeft':
    case 'ArrowRight': {
      const dir = e.key === 'ArrowLeft' ? -1 : 1;
      if (row === -1 && e.shiftKey) g.resizeBy(g.activeColumn, dir * 16);
      else g.moveTo(row, col + dir);
      break;
    }
    case 'Home':
      g.moveTo(ctrl ? 0 : row, 0);
      break;
    case 'End':
      g.moveTo(ctrl ? g.rowCount - 1 : row, ncols - 1);
      break;
    case 'PageDown':
      g.moveTo(Math.max(0, row) + g.pageRows, col);
      break;
    case 'PageUp':
      g.moveTo(Math.max(0, row - g.pageRows), col);
      break;
    case 'Enter':
    case ' ':
      if (row === -1) g.toggleSort(g.activeColumn);
      else handled = false;
      break;
    case 'ContextMenu':
      g.openMenu(g.activeColumn);
      break;
    case 'F10':
      if (e.shiftKey) g.openMenu(g.activeColumn);
      else handled = false;
      break;
    case 'c':
    case 'C':
      if (ctrl && row >= 0) {
        g.copy(e.shiftKey ? 'row' : 'cell');
      } else handled = false;
      break;
    default:
      handled = false;
  }
  return handled;
}
