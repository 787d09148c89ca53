import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { formatGatewayDate, parseGatewayDate, todayLocal } from '../core/dates';
import type { PreviewToday } from '../shared/lintProtocol';
import { gatewayOrderId } from '../core/orderId';
import { maskCardValue, terminalSafe } from '../core/output';
import type { BatchRow } from '../core/rules/batch';
import { cellAt } from '../core/rules/cells';
import { columnSpec } from '../core/rules/columns';
import { inMessage } from '../core/rules/quote';
import type { LintResult } from '../core/rules/lint';
import { scheduleProblems } from '../core/schedule/problems';
import { computeSchedule, formatAmount, scheduleInputFromRow } from '../core/schedule/schedule';
import { isPayoutRow, kindWords } from '../core/schedule/describe';
import { columnDoc, escapeMarkdown } from './markdown';

/** How many charges a row's hover lists; one more is computed to know whether the list goes on. */
const CHARGES_SHOWN = 6;

/**
 * The hover of a cell: the column's documentation from the column table (header cells say which column
 * they are read as), the value's length, and on a row's first cell the row's next charges.
 */
export function hoverAt(
  document: TextDocument,
  { batch }: LintResult,
  position: Position,
  rowNumber?: number,
  preview: PreviewToday = {},
): Hover | null {
  const cell = cellAt(batch, document.offsetAt(position));
  if (!cell) return null;
  const record = batch.csv.records[cell.recordIndex];
  const field = record?.fields[cell.fieldIndex];
  if (!field || record.isBlank) return null;
  const range = { start: document.positionAt(field.start), end: document.positionAt(field.end) };
  let md = '';
  if (!cell.isHeader && cell.fieldIndex === 0 && cell.row) md += charges(cell.row, rowNumber ?? cell.row.rowNumber, preview);
  const header = cell.isHeader ? batch.headerCells[cell.fieldIndex] : undefined;
  // A duplicate header cell resolves to no column, but it still names one: document that one.
  let name = cell.column ?? undefined;
  if (header) name = header.match.kind === 'unknown' ? undefined : header.match.column;
  const spec = name === undefined ? undefined : columnSpec(name);
  if (spec) {
    if (md !== '') md += '\n\n---\n\n';
    md += columnDoc(spec);
    if (header?.duplicate) {
      md += `\n\n**${escapeMarkdown(spec.name)}** appears earlier in the header; this cell is ignored.\n`;
    } else if (header && field.value !== spec.name) {
      md += `\n\nThis header cell is read as **${escapeMarkdown(spec.name)}**.\n`;
    }
    if (!cell.isHeader && spec.sensitive === undefined && spec.kind !== 'decimal-list' && field.value !== '') {
      // Code points, as the max-length check counts them.
      const length = [...field.value].length;
      const limit = spec.maxLength === null ? '' : ` of at most ${spec.maxLength}`;
      md += `\n\nThis value: ${length} character${length === 1 ? '' : 's'}${limit}.\n`;
    }
  } else if (header) {
    const suggestion = header.match.kind === 'unknown' ? header.match.suggestion : undefined;
    md +=
      field.value.trim() === ''
        ? 'An empty column name: the gateway cannot read this column.'
        : `**${escapeMarkdown(inMessage(field.value))}** is not a column of the recurring-payments table.`;
    if (suggestion) md += ` Did you mean **${escapeMarkdown(suggestion)}**?`;
    md += '\n';
  }
  // The whole hover passes the output boundary too: a value quoted anywhere in it (an order id, an amount)
  // shows no card number, no CVV and no control character (an editor in a terminal draws it).
  return md === '' ? null : { contents: { kind: MarkupKind.Markdown, value: terminalSafe(md) }, range };
}

/**
 * The row's first charges from the rule book's schedule, with the card masked (first 6, last 4). A DST
 * row's are payouts (money paid out to the receiver's card), named so and never called charges.
 */
function charges(row: BatchRow, rowNumber: number, preview: PreviewToday): string {
  const values = row.values();
  const payout = isPayoutRow(values);
  const w = kindWords(payout);
  const given = preview.today === undefined ? undefined : parseGatewayDate(preview.today);
  const today = given ?? todayLocal();
  const todaySays = given && preview.source ? `today on ${preview.source}` : 'today';
  const input = scheduleInputFromRow(values);
  // The id as the gateway reads it (trimmed, invisible characters removed, NFC): what the guard and duplicates compare.
  const orderId = gatewayOrderId(values['client-orderid'] ?? '');
  const card = values['credit-card-number'];
  const who = [
    `Row ${rowNumber}`,
    orderId ? `order ${escapeMarkdown(inMessage(orderId))}` : undefined,
    values['rp_card_type'] ? escapeMarkdown(inMessage(values['rp_card_type'])) : undefined,
    card ? `card ${escapeMarkdown(maskCardValue(card))}` : undefined,
  ].filter((s) => s !== undefined);
  let md = `**${payout ? 'Payouts' : 'Charges'}** — ${who.join(' · ')}\n\n`;
  if (payout) md += "A DST row: money paid out to the receiver's card, counted apart from the charges.\n\n";
  if (!row.trusted) return `${md}The row is not well-formed CSV, so its ${w.many} cannot be read.\n`;
  // Say exactly why instead of guessing around a malformed value (a start-date 2027-01-15 is not "today").
  const problems = scheduleProblems(values);
  const list = problems.some((p) => p.blocksDates) ? [] : computeSchedule(input, { today, limit: CHARGES_SHOWN + 1 });
  if (problems.some((p) => p.blocksDates)) {
    return `${md}The schedule cannot be computed:\n\n${problems.map((p) => `- ${escapeMarkdown(p.message)}\n`).join('')}`;
  }
  for (const p of problems) md += `${escapeMarkdown(p.message)}.\n\n`;
  if (list.length === 0) return `${md}No ${w.many}: the schedule ends before its first ${w.one}.\n`;
  md += '| # | date | amount |\n|---:|---|---:|\n';
  for (const charge of list.slice(0, CHARGES_SHOWN)) {
    md += `| ${charge.index} | ${escapeMarkdown(formatGatewayDate(charge.date))} | ${escapeMarkdown(inMessage(formatAmount(charge.amount)))} |\n`;
  }
  md += list.length > CHARGES_SHOWN ? '\n… and more.\n' : `\n${list.length === 1 ? `One ${w.one}` : `${list.length} ${w.many}`} in all.\n`;
  if (input.startDate === undefined)
    md += `\nNo start-date: the first ${w.one} is on the day the batch is created (${escapeMarkdown(todaySays)}, ${formatGatewayDate(today)}).\n`;
  return md;
}
