// `paygate query` (and `paygate report` with query options) as text and CSV: one line per group with a
// bar (scaled within its currency to the first amount asked for, else to the count), the totals per
// currency and kind of money (charges apart from payouts), then the rows whose amounts were skipped, by
// line. Values are the report's: every cell is shown through tableCell (masked, one line) and every CSV
// cell through the formula guard.

import { joinLaid, laid, padLaid, trimmedEnd, vet, words, type Laid, type Vetted } from '../../core/output';
import { aggregateText, groupHeading, reportedAggregates, totalOf, type QueryOutcome, type QueryTotal } from '../../core/query';
import type { AmountReading } from '../../core/query/aggregate';
import { csvRecordText, field, tableCell, tableLine } from '../output';
import { batched } from '../pieces';
import { bar } from './bar';

const MIN_BAR = 10;
/** A count of things: `1,234 rows`, the count checked as a count, the word ours (or a column's name, vetted). */
const plural = (n: number, word: Vetted | Laid) => laid`${vet.count(n.toLocaleString('en-US'))} ${word}${words(n === 1 ? '' : 's')}`;

/** The header of each aggregate column: `count`, `sum Amount`… */
function aggregateHeaders(o: QueryOutcome): string[] {
  const heads = reportedAggregates(o.plan).map(([kind, , name]) => `${kind} ${name}`);
  return o.plan.count ? ['count', ...heads] : heads;
}

/** The aggregates of a group or total; a count grouped by thousands for people, plain for CSV. */
function aggregateCells(o: QueryOutcome, g: { count: number; amounts: readonly AmountReading[] }, grouped = true): string[] {
  const cells = reportedAggregates(o.plan).map(([kind, a]) => aggregateText(kind, g.amounts[a], o.scales[a]) ?? '');
  return o.plan.count ? [grouped ? g.count.toLocaleString('en-US') : String(g.count), ...cells] : cells;
}

function header(o: QueryOutcome, name: string): Laid[] {
  const where = o.plan.spec.where?.trim();
  const by = where ? laid` by ${field(where)}` : words('');
  const lines = [
    laid`${tableCell(name)}: ${plural(o.read, words('row'))} read, ${vet.count(o.matched.toLocaleString('en-US'))} matched${by}`,
  ];
  const groups = o.plan.groups.map((g) => {
    if (g.period) return laid`${field(g.name)} by ${words(g.period)}`;
    return g.kind ? laid`${field(g.name)} as charges, payouts, refunds…` : laid`${field(g.name)}`;
  });
  if (groups.length > 0) lines.push(laid`grouped by ${joinLaid(groups, ', ')}${words(apartNote(o))}`);
  return lines;
}

/** Why the groups hold columns nobody asked for: amounts of two currencies, or two kinds of money, are never added. */
function apartNote(o: QueryOutcome): string {
  const kinds = o.plan.kindGroup >= 0;
  if (o.plan.currencyAdded) return ` (amounts are never added across currencies${kinds ? ', nor charges with payouts or refunds' : ''})`;
  return kinds ? ' (charges are never added with payouts or refunds)' : '';
}

/**
 * The text: the header, a line per group with its bar, the totals, the skipped rows. Two passes over the
 * groups: the first shows each key and aggregate once (the columns' widths, each currency's longest bar),
 * the second lays the lines out of them as the pieces are written, so no line is kept.
 */
export function writeQueryText(name: string, o: QueryOutcome, columns: number, write: (text: string) => void): void {
  const out = batched(write);
  for (const l of header(o, name)) out.addLaid(laid`${l}\n`);
  const keyHeads = o.plan.groups.map((g) => tableCell(g.kind ? groupHeading(g) : g.name));
  const aggHeads = aggregateHeaders(o);
  const keyWidths = keyHeads.map((h) => chars(h));
  const aggWidths = aggHeads.map((h) => h.length);
  const shown = shownGroups(o, keyWidths, aggWidths);
  const fixed = keyWidths.reduce((s, w) => s + w + 2, 0) + aggWidths.reduce((s, w) => s + w + 2, 0);
  const width = Math.max(MIN_BAR, columns - fixed - 1);
  // Each group's line is laid out from vetted values (keys as table cells, aggregates as amounts and counts)
  // and the bar's own characters, so the floor does not read it again (core/output/laid.ts).
  const line = (keys: Vetted[], drawn: string, aggs: Vetted[]) =>
    trimmedEnd(
      joinLaid(
        [tableLine(keys, keyWidths), padLaid(words(drawn), width), ...aggs.map((a, k) => padLaid(a, aggWidths[k], 'start'))].filter(
          (s) => s !== '',
        ),
        '  ',
      ),
    );
  out.addLaid(laid`\n${line(keyHeads, '', aggHeads.map(vet.text))}\n`);
  writeGroupLines(o, shown, keyWidths, aggWidths, width, (text) => out.addLaid(text));
  if (o.groups.length === 0) out.addLaid(words('no row matched\n'));
  out.addLaid(words('\n'));
  for (const t of o.totals) out.addLaid(laid`${totalLine(o, t)}\n`);
  for (const l of skippedLines(o)) out.addLaid(laid`${l}\n`);
  out.flush();
}

/** Group lines are handed on in layouts of about this many characters (a million groups: some 60 writes). */
const CHUNK = 1 << 20;

/**
 * Each group's line, as `line` above lays it out (the same characters: the keys as a table line, its end
 * trimmed, the bar padded to `width`, each aggregate padded before it, the whole line's end trimmed), made
 * by appending to one layout per ~1 MB instead of arrays and a join per line: a million lines were a
 * million short-lived arrays and strings. Every part is a vetted value (shownGroups) or our own spaces and
 * bar, so each chunk is a layout of vetted values as every other line is.
 */
function writeGroupLines(
  o: QueryOutcome,
  shown: ReturnType<typeof shownGroups>,
  keyWidths: readonly number[],
  aggWidths: readonly number[],
  width: number,
  add: (text: Laid) => void,
): void {
  const parts = keyWidths.length;
  const aggs = aggWidths.length;
  const { keys, keyChars, aggregates, values, currencies, peaks } = shown;
  const groups = o.groups;
  let chunk = '';
  for (let i = 0; i < groups.length; i++) {
    let keyLine = '';
    for (let j = 0; j < parts; j++) {
      const id = groups.keyId(i, j);
      keyLine += (j === 0 ? '' : '  ') + keys[j][id] + spaces(keyWidths[j] - keyChars[j][id]);
    }
    keyLine = keyLine.trimEnd();
    const peak = peaks[currencies[i]];
    const drawn = bar(peak > 0 ? values[i] / peak : 0, width);
    let line = (keyLine === '' ? '' : `${keyLine}  `) + drawn + spaces(width - chars(drawn));
    for (let a = 0; a < aggs; a++) {
      const text = vet.amount(aggregates[i * aggs + a]);
      line += `  ${spaces(aggWidths[a] - chars(text))}${text}`;
    }
    chunk += `${line.trimEnd()}\n`;
    if (chunk.length >= CHUNK) {
      add(words(chunk));
      chunk = '';
    }
  }
  if (chunk !== '') add(words(chunk));
}

const SPACES = ' '.repeat(256);
/** `n` spaces (none when n ≤ 0), cut from one string while short. */
const spaces = (n: number) => (n <= SPACES.length ? SPACES.slice(0, Math.max(0, n)) : ' '.repeat(n));

/**
 * Every group's keys as table cells and aggregates as text, each made once (a million groups are shown in
 * a second, not three), widening `keyWidths` and `aggWidths` to them; what each group's bar measures (the
 * first amount asked for, else the row count) and its currency, and per currency the longest bar. A key is
 * shown once per value of its column, kept by the value's id (`keys[j][id]`), not once per group.
 */
function shownGroups(o: QueryOutcome, keyWidths: number[], aggWidths: number[]) {
  const parts = keyWidths.length;
  const groups = o.groups;
  const n = groups.length;
  const keys = keyWidths.map((_, j) => new Array<Vetted | undefined>(groups.valueCount(j)));
  const keyChars = keyWidths.map((_, j) => new Int32Array(groups.valueCount(j)));
  const aggregates = new Array<string>(n * aggWidths.length);
  const values = new Float64Array(n);
  // The currency of each group, by its value id; the longest bar per currency, by the same id.
  const currency = o.plan.currencyGroup;
  const currencies = new Int32Array(n);
  const peaks = new Float64Array(currency < 0 ? 1 : groups.valueCount(currency));
  // The bar's value: the first amount asked for (its text among the aggregates), else the count.
  let barAt = -1;
  const reported = reportedAggregates(o.plan);
  if (reported.length > 0) barAt = o.plan.count ? 1 : 0;
  const aggs = aggWidths.length;
  const first = o.plan.count ? 1 : 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < parts; j++) {
      const id = groups.keyId(i, j);
      if (keys[j][id] !== undefined) continue;
      const v = (keys[j][id] = tableCell(groups.key(i, j)));
      const w = (keyChars[j][id] = chars(v));
      if (w > keyWidths[j]) keyWidths[j] = w;
    }
    // The aggregates as aggregateCells makes them, written in place (no array per group).
    for (let k = 0; k < aggs; k++) {
      const cell =
        k === 0 && o.plan.count
          ? groups.count(i).toLocaleString('en-US')
          : (aggregateText(reported[k - first][0], groups.amount(i, reported[k - first][1]), o.scales[reported[k - first][1]]) ?? '');
      aggregates[i * aggs + k] = cell;
      if (cell.length > aggWidths[k]) aggWidths[k] = cell.length;
    }
    const value = barAt < 0 ? groups.count(i) : Math.max(0, Number(aggregates[i * aggs + barAt]));
    const c = (currencies[i] = currency < 0 ? 0 : groups.keyId(i, currency));
    values[i] = value;
    const peak = peaks[c];
    // As Math.max: a NaN (an aggregate that is not a number) stays the peak.
    if (!(peak >= value)) peaks[c] = Math.max(peak, value);
  }
  return { keys: keys as Vetted[][], keyChars, aggregates, values, currencies, peaks };
}

const SURROGATE = /[\ud800-\udbff]/;
/** Characters (code points) of a text, as the columns are measured. */
const chars = (s: string) => (SURROGATE.test(s) ? [...s].length : s.length);

function totalLine(o: QueryOutcome, t: QueryTotal): Laid {
  const parts = [plural(t.count, words('row'))];
  for (const [kind, a, name] of reportedAggregates(o.plan)) {
    const text = aggregateText(kind, t.amounts[a], o.scales[a]);
    parts.push(laid`${words(kind)} ${field(name)} ${text === null ? words('(none read)') : vet.amount(text)}`);
  }
  o.plan.amounts.forEach((c, a) => {
    if (t.amounts[a].skipped > 0) parts.push(laid`${plural(t.amounts[a].skipped, laid`${field(c.name)} amount`)} skipped`);
  });
  const of = totalOf(t);
  return laid`total${of === '' ? words('') : laid` ${tableCell(of)}`}: ${joinLaid(parts, ', ')}`;
}

function skippedLines(o: QueryOutcome): Laid[] {
  if (o.skippedCount === 0) return [];
  const count = vet.count(o.skippedCount.toLocaleString('en-US'));
  const lines = [words(''), laid`skipped amounts (not in any sum, min, max or average): ${count}`];
  for (const s of o.skipped) {
    const where = s.line !== undefined ? laid`line ${vet.count(s.line)}` : laid`row ${vet.count(s.row + 1)}`;
    const what =
      s.reason === 'empty' ? laid`${tableCell(s.column)} is empty` : laid`${tableCell(s.column)} "${tableCell(s.value)}" is not an amount`;
    lines.push(laid`  ${where}: ${what}`);
  }
  const more = o.skippedCount - o.skipped.length;
  if (more > 0) lines.push(laid`  … and ${vet.count(more.toLocaleString('en-US'))} more`);
  return lines;
}

/**
 * CSV: `kind` (group or total), the group columns, then the aggregates; a total row per currency and kind
 * of money with the currency and the kind in their columns. Every record passes the boundary as csvText's
 * do (card numbers masked, labelled CVVs hidden, control characters shown escaped); cells a spreadsheet
 * would run as formulas are neutralised unless `raw`.
 */
export function writeQueryCsv(o: QueryOutcome, options: { raw: boolean; delimiter?: string }, write: (text: string) => void): void {
  const d = options.delimiter ?? ',';
  const out = batched(write);
  const line = (cells: string[]) => out.addLaid(csvRecordText(cells, { delimiter: d, raw: options.raw }));
  const counts = (g: { count: number; amounts: readonly AmountReading[] }) => aggregateCells(o, g, false);
  line(['kind', ...o.plan.groups.map((g) => g.name), ...aggregateHeaders(o)]);
  const groups = o.groups;
  const parts = o.plan.groups.map((_, j) => j);
  const amounts = o.plan.amounts.map((_, a) => a);
  for (let i = 0; i < groups.length; i++) {
    const g = { count: groups.count(i), amounts: amounts.map((a) => groups.amount(i, a)) };
    line(['group', ...parts.map((j) => groups.key(i, j)), ...counts(g)]);
  }
  for (const t of o.totals) {
    const keys = o.plan.groups.map(() => '');
    if (o.plan.currencyGroup >= 0) keys[o.plan.currencyGroup] = t.currency ?? '';
    if (o.plan.kindGroup >= 0) keys[o.plan.kindGroup] = t.kind ?? '';
    line(['total', ...keys, ...counts(t)]);
  }
  out.flush();
}
