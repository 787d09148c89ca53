// `paygate query` (and `paygate report` with query options) as text and CSV: one line per group with a
// bar (scaled within its currency to the first amount asked for, else to the count), the totals per
// currency, then the rows whose amounts were skipped, by line. Values are the report's: every cell is
// shown through tableCell (masked, one line) and every CSV cell through the formula guard.

import { quoteField } from '../../core/csv/write';
import { neutraliseFormula } from '../../core/output';
import { aggregateText, reportedAggregates, type QueryOutcome, type QueryTotal } from '../../core/query';
import type { GroupState } from '../../core/query/run';
import { tableCell, tableLine } from '../output';
import { bar } from './bar';

const MIN_BAR = 10;
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The header of each aggregate column: `count`, `sum Amount`… */
function aggregateHeaders(o: QueryOutcome): string[] {
  const heads = reportedAggregates(o.plan).map(([kind, , name]) => `${kind} ${name}`);
  return o.plan.count ? ['count', ...heads] : heads;
}

/** The aggregates of a group or total; a count grouped by thousands for people, plain for CSV. */
function aggregateCells(o: QueryOutcome, g: Pick<GroupState, 'count' | 'amounts'>, grouped = true): string[] {
  const cells = reportedAggregates(o.plan).map(([kind, a]) => aggregateText(kind, g.amounts[a], o.scales[a]) ?? '');
  return o.plan.count ? [grouped ? g.count.toLocaleString('en-US') : String(g.count), ...cells] : cells;
}

/** What each group's bar measures: the first amount asked for (within one currency), else the row count. */
function barValue(o: QueryOutcome): (g: GroupState) => number {
  const first = reportedAggregates(o.plan)[0];
  if (!first) return (g) => g.count;
  const [kind, a] = first;
  return (g) => Math.max(0, Number(aggregateText(kind, g.amounts[a], o.scales[a]) ?? 0));
}

function header(o: QueryOutcome, name: string): string[] {
  const where = o.plan.spec.where?.trim();
  const lines = [
    `${tableCell(name)}: ${plural(o.read, 'row')} read, ${o.matched.toLocaleString('en-US')} matched${where ? ` by ${where}` : ''}`,
  ];
  const groups = o.plan.groups.map((g) => (g.period ? `${g.name} by ${g.period}` : g.name));
  if (groups.length > 0)
    lines.push(`grouped by ${groups.join(', ')}${o.plan.currencyAdded ? ' (amounts are never added across currencies)' : ''}`);
  return lines;
}

export function queryTextOutput(name: string, o: QueryOutcome, columns: number): string {
  const lines = header(o, name);
  const keyHeads = o.plan.groups.map((g) => tableCell(g.name));
  const aggHeads = aggregateHeaders(o);
  const rows = o.groups.map((g) => ({ keys: g.key.map(tableCell), aggs: aggregateCells(o, g), g }));
  const keyWidths = keyHeads.map((h, j) => rows.reduce((w, r) => Math.max(w, [...r.keys[j]].length), [...h].length));
  const aggWidths = aggHeads.map((h, k) => rows.reduce((w, r) => Math.max(w, r.aggs[k].length), h.length));
  const fixed = keyWidths.reduce((s, w) => s + w + 2, 0) + aggWidths.reduce((s, w) => s + w + 2, 0);
  const width = Math.max(MIN_BAR, columns - fixed - 1);
  const value = barValue(o);
  const currency = o.plan.currencyGroup;
  const peaks = new Map<string, number>();
  for (const r of rows) {
    const c = currency < 0 ? '' : r.g.key[currency];
    peaks.set(c, Math.max(peaks.get(c) ?? 0, value(r.g)));
  }
  const line = (keys: string[], drawn: string, aggs: string[]) =>
    [tableLine(keys, keyWidths), drawn.padEnd(width), ...aggs.map((a, k) => a.padStart(aggWidths[k]))]
      .filter((s) => s !== '')
      .join('  ')
      .trimEnd();
  lines.push('', line(keyHeads, '', aggHeads));
  for (const r of rows) {
    const peak = peaks.get(currency < 0 ? '' : r.g.key[currency]) ?? 0;
    lines.push(line(r.keys, bar(peak > 0 ? value(r.g) / peak : 0, width), r.aggs));
  }
  if (rows.length === 0) lines.push('no row matched');
  lines.push('');
  for (const t of o.totals) lines.push(totalLine(o, t));
  for (const l of skippedLines(o)) lines.push(l);
  return `${lines.join('\n')}\n`;
}

function totalLine(o: QueryOutcome, t: QueryTotal): string {
  const parts = [plural(t.count, 'row')];
  for (const [kind, a, name] of reportedAggregates(o.plan))
    parts.push(`${kind} ${name} ${aggregateText(kind, t.amounts[a], o.scales[a]) ?? '(none read)'}`);
  o.plan.amounts.forEach((c, a) => {
    if (t.amounts[a].skipped > 0) parts.push(`${plural(t.amounts[a].skipped, `${c.name} amount`)} skipped`);
  });
  return `total${t.currency === undefined ? '' : ` ${tableCell(t.currency)}`}: ${parts.join(', ')}`;
}

function skippedLines(o: QueryOutcome): string[] {
  if (o.skippedCount === 0) return [];
  const lines = ['', `skipped amounts (not in any sum, min, max or average): ${o.skippedCount.toLocaleString('en-US')}`];
  for (const s of o.skipped) {
    const where = s.line !== undefined ? `line ${s.line}` : `row ${s.row + 1}`;
    const what =
      s.reason === 'empty' ? `${tableCell(s.column)} is empty` : `${tableCell(s.column)} "${tableCell(s.value)}" is not an amount`;
    lines.push(`  ${where}: ${what}`);
  }
  if (o.skippedCount > o.skipped.length) lines.push(`  … and ${(o.skippedCount - o.skipped.length).toLocaleString('en-US')} more`);
  return lines;
}

/**
 * CSV: `kind` (group or total), the group columns, then the aggregates; a total row per currency with the
 * currency in its column. Cells that a spreadsheet would run as formulas are neutralised unless `raw`.
 */
export function queryCsvOutput(o: QueryOutcome, options: { raw: boolean; delimiter?: string }): string {
  const d = options.delimiter ?? ',';
  const cell = (v: string) => quoteField(options.raw ? v : neutraliseFormula(v), d);
  const line = (cells: string[]) => `${cells.map(cell).join(d)}\r\n`;
  const counts = (g: Pick<GroupState, 'count' | 'amounts'>) => aggregateCells(o, g, false);
  let text = line(['kind', ...o.plan.groups.map((g) => g.name), ...aggregateHeaders(o)]);
  for (const g of o.groups) text += line(['group', ...g.key, ...counts(g)]);
  for (const t of o.totals) {
    const keys = o.plan.groups.map((_, j) => (j === o.plan.currencyGroup ? (t.currency ?? '') : ''));
    text += line(['total', ...keys, ...counts(t)]);
  }
  return text;
}
