// Initial column widths from the header and the first rows, measured in the grid's own font.
import { fitWidths } from './pageText';
import type { Dataset } from './dataset';
import type { Grid } from './grid';
import { columnId, type ResultsTable } from './table';

/** Widths by column id for the table's sizing, or undefined when the page cannot measure text. */
export function measuredSizing(grid: HTMLElement, data: Dataset): Record<string, number> | undefined {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return undefined;
  const style = getComputedStyle(grid);
  const font = `${style.fontSize} ${style.fontFamily}`;
  const sample = Array.from({ length: Math.min(200, data.rowCount) }, (_, i) => data.row(i));
  const widths = fitWidths(data.columns, sample, (text, bold) => {
    ctx.font = bold ? `600 ${font}` : font;
    return ctx.measureText(text).width;
  });
  return Object.fromEntries(widths.map((w, c) => [columnId(c), w]));
}

/** The widths the page set by itself, told apart from widths the user chose (those are never refitted). */
export class ColumnFit {
  private auto: string | undefined;

  fit(grid: Grid | undefined, table: ResultsTable | undefined, data: Dataset): void {
    const sizing = grid && table && measuredSizing(grid.element, data);
    if (!sizing || !table) return;
    table.setColumnSizing(sizing);
    this.auto = JSON.stringify(sizing);
  }

  /** The widths are still the ones fitted last. */
  untouched(table: ResultsTable): boolean {
    return this.auto !== undefined && this.auto === JSON.stringify(table.store.state.columnSizing);
  }

  forget(): void {
    this.auto = undefined;
  }
}
