// A query names columns as the report's header does. Reports differ in their columns (the gateway says
// each custom report has its own), so nothing here knows a column by name except the two defaults a
// query needs: which column holds each amount's currency, and which date a `--by` period applies to.

import { distance } from 'fastest-levenshtein';

export type ColumnLookup = { ok: true; index: number } | { ok: false; message: string };

/**
 * The column called `name`: spelled exactly as in the header, or else the one column whose name differs
 * only in case (`currency` finds Currency). The first of two columns with one name wins.
 */
export function findColumn(columns: readonly string[], name: string): ColumnLookup {
  const exact = columns.indexOf(name);
  if (exact >= 0) return { ok: true, index: exact };
  const lower = name.toLowerCase();
  const folded = columns.flatMap((c, i) => (c.toLowerCase() === lower ? [i] : []));
  if (folded.length === 1) return { ok: true, index: folded[0] };
  if (folded.length > 1) {
    return {
      ok: false,
      message: `'${name}' could be any of ${folded.map((i) => quoteColumn(columns[i])).join(', ')}: write it as the header does`,
    };
  }
  return { ok: false, message: `no column '${name}' in the report${suggestion(columns, name)}` };
}

function suggestion(columns: readonly string[], name: string): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of columns) {
    const d = distance(c.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 4))) return `; did you mean ${quoteColumn(best)}?`;
  const shown = columns.slice(0, 12).map(quoteColumn).join(', ');
  return columns.length === 0 ? '' : `; its columns: ${shown}${columns.length > 12 ? ', …' : ''}`;
}

/** A column's name as an expression writes it: bare when it is one word, else in backticks. */
export function quoteColumn(name: string): string {
  return /^[\p{L}\p{M}_][\p{L}\p{M}\p{N}_.-]*$/u.test(name) && !KEYWORDS.has(name.toLowerCase()) ? name : `\`${name.replace(/`/g, '``')}\``;
}

/** Words of the expression language; a column with one of these names is written in backticks. */
export const KEYWORDS = new Set(['and', 'or', 'not', 'contains', 'starts', 'ends', 'with', 'in', 'is', 'empty']);

/**
 * The column holding each amount's currency: one called Currency (in any case), else the first whose
 * name ends with "currency" (Transaction_currency); -1 when there is none.
 */
export function defaultCurrencyColumn(columns: readonly string[]): number {
  const exact = columns.findIndex((c) => c.trim().toLowerCase() === 'currency');
  return exact >= 0 ? exact : columns.findIndex((c) => /currency$/i.test(c.trim()));
}

/**
 * The date a `--by` period groups by when no group column is a date: the first column whose name says
 * it was created (Created_date), else the first whose name holds "date" (the report's own date,
 * Date_of_report, is the same on every row, so it comes last); -1 when there is none.
 */
export function defaultDateColumn(columns: readonly string[]): number {
  const created = columns.findIndex((c) => /created/i.test(c) && /date|time/i.test(c));
  if (created >= 0) return created;
  const dated = columns.findIndex((c) => /date|time/i.test(c) && !/report/i.test(c));
  return dated >= 0 ? dated : columns.findIndex((c) => /date/i.test(c));
}

/** Whether a column's name says it holds dates (a `--by` period applies to those among the group columns). */
export const isDateColumnName = (name: string): boolean => /date|time|day/i.test(name);

/** Whether a column's name says it holds amounts (Amount, Transaction_amount; not Amount_currency). */
export const isAmountColumnName = (name: string): boolean => /amount/i.test(name) && !/currency/i.test(name);
