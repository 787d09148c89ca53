// What the page says about the view: the counter and the empty state. Pure, so the wording is tested
// without a browser.

import { thousands as fmt } from '../src/shared/thousands';

export function countText(o: { loading: boolean; filtered: boolean; shown: number; total: number; percent?: number }): string {
  const pct = o.percent === undefined ? '' : ` (${o.percent} %)`;
  // The noun agrees with the number it follows: "1 of 1 row", "1 of 2 rows".
  const rows = o.total === 1 ? 'row' : 'rows';
  if (!o.loading) return `${fmt(o.shown)} of ${fmt(o.total)} ${rows}`;
  return o.filtered ? `Loading… ${fmt(o.shown)} of ${fmt(o.total)} ${rows} so far${pct}` : `Loading… ${fmt(o.total)} ${rows}${pct}`;
}

export interface EmptyState {
  message: string;
  /** The button's label; it clears the search and every column filter. */
  action?: string;
}

/** What narrows the table's rows: the search box, the column filters, the filter box's expression, a group's rows. */
export interface Narrowing {
  search: string;
  filters: number;
  /** The filter box's expression, when it narrows the rows (a valid one). */
  where?: string;
  /** The group whose rows are shown (a summary's row or a chart's bar). */
  group?: string;
}

/** Null while something is shown (or nothing is known yet); otherwise what to say and offer. */
export function emptyState(o: { shown: number; total: number; complete: boolean } & Narrowing): EmptyState | null {
  const search = o.search.trim();
  const where = o.where?.trim() ?? '';
  const filtered = search !== '' || o.filters > 0 || where !== '' || o.group !== undefined;
  if (o.shown > 0 || (!o.complete && !filtered)) return null;
  if (o.total === 0) return o.complete ? { message: 'This table has no rows.' } : null;
  const what = [
    search && `the search “${search}”`,
    o.filters > 0 && (o.filters === 1 ? 'the column filter' : `${o.filters} column filters`),
    where && `the filter “${where}”`,
    o.group !== undefined && `the group ${o.group}`,
  ]
    .filter(Boolean)
    .join(' and ');
  // Escape clears a box only where it is pressed: name the boxes that hold what hides the rows.
  const boxes = [search && 'the search box', where && 'the filter box'].filter(Boolean);
  const escape = boxes.length > 0 ? ` Press Escape in ${boxes.join(' or in ')} to clear it, or:` : '';
  const clears = [search && 'search', o.filters > 0 && 'column filters', where && 'filter'].filter(Boolean) as string[];
  const message = `No rows match ${what}${o.complete ? '' : ' so far'}.${escape}`;
  if (clears.length === 0) return { message: `${message} Back to groups shows them all.` };
  return { message: escape ? message : `${message} Or:`, action: `Clear ${clears.join(' and ')}` };
}

/** Initial column widths from the header and a sample of values, measured by `measure` (canvas text width). */
export function fitWidths(
  names: readonly string[],
  sample: readonly (readonly string[])[],
  measure: (text: string, bold: boolean) => number,
): number[] {
  return names.map((name, c) => {
    let longest = '';
    for (const row of sample) if ((row[c] ?? '').length > longest.length) longest = row[c];
    const cell = measure(longest.slice(0, 60), false);
    const head = measure(name, true) + 24; // room for the sort arrow and the pin mark
    return Math.round(Math.min(420, Math.max(64, Math.max(cell, head) + 16)));
  });
}

/** The file name an export suggests: the table's title without characters file systems refuse. */
export function exportName(title: string, format: 'csv' | 'json'): string {
  const base = title.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'report';
  return `${base}.${format}`;
}
