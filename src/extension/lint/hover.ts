import * as vscode from 'vscode';
import { formatGatewayDate, todayLocal } from '../../core/dates';
import { maskCardNumber } from '../../core/mask';
import type { BatchRow } from '../../core/rules/batch';
import { cellAt } from '../../core/rules/cells';
import { columnSpec } from '../../core/rules/columns';
import { computeSchedule, formatAmount, scheduleInputFromRow } from '../../core/schedule/schedule';
import { LANGUAGE_ID } from './constants';
import { appendColumnDoc, escapeMarkdown, plainMarkdown } from './markdown';
import type { LintStore } from './store';

/** How many charges a row's hover lists; one more is computed to know whether the list goes on. */
const CHARGES_SHOWN = 6;

export class PaygateHover implements vscode.HoverProvider {
  constructor(private readonly store: LintStore) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const { batch } = this.store.get(document);
    const cell = cellAt(batch, document.offsetAt(position));
    if (!cell) return undefined;
    const record = batch.csv.records[cell.recordIndex];
    const field = record?.fields[cell.fieldIndex];
    if (!field || record.isBlank) return undefined;
    const range = new vscode.Range(document.positionAt(field.start), document.positionAt(field.end));
    const md = plainMarkdown();
    if (!cell.isHeader && cell.fieldIndex === 0 && cell.row) {
      appendCharges(md, cell.row);
    }
    const header = cell.isHeader ? batch.headerCells[cell.fieldIndex] : undefined;
    // A duplicate header cell resolves to no column, but it still names one: document that one.
    const name = header ? (header.match.kind === 'unknown' ? undefined : header.match.column) : cell.column ?? undefined;
    const spec = name === undefined ? undefined : columnSpec(name);
    if (spec) {
      if (md.value !== '') md.appendMarkdown('\n\n---\n\n');
      appendColumnDoc(md, spec);
      if (header?.duplicate) {
        md.appendMarkdown(`\n\n**${escapeMarkdown(spec.name)}** appears earlier in the header; this cell is ignored.\n`);
      } else if (header && field.value !== spec.name) {
        md.appendMarkdown(`\n\nThis header cell is read as **${escapeMarkdown(spec.name)}**.\n`);
      }
      if (!cell.isHeader && spec.sensitive === undefined && spec.kind !== 'decimal-list' && field.value !== '') {
        // Code points, as the max-length check counts them.
        const length = [...field.value].length;
        const limit = spec.maxLength === null ? '' : ` of at most ${spec.maxLength}`;
        md.appendMarkdown(`\n\nThis value: ${length} character${length === 1 ? '' : 's'}${limit}.\n`);
      }
    } else if (header) {
      const suggestion = header.match.kind === 'unknown' ? header.match.suggestion : undefined;
      md.appendMarkdown(
        field.value.trim() === ''
          ? 'An empty column name: the gateway cannot read this column.'
          : `**${escapeMarkdown(field.value)}** is not a column of the recurring-payments table.`,
      );
      if (suggestion) md.appendMarkdown(` Did you mean **${escapeMarkdown(suggestion)}**?`);
      md.appendMarkdown('\n');
    }
    return md.value === '' ? undefined : new vscode.Hover(md, range);
  }
}

/** The row's first charges from the rule book's schedule, with the card masked (first 6, last 4). */
function appendCharges(md: vscode.MarkdownString, row: BatchRow): void {
  const values = row.values();
  const today = todayLocal();
  const input = scheduleInputFromRow(values);
  const charges = computeSchedule(input, { today, limit: CHARGES_SHOWN + 1 });
  const orderId = values['client-orderid'];
  const card = values['credit-card-number'];
  const who = [
    `Row ${row.rowNumber}`,
    orderId ? `order ${escapeMarkdown(orderId)}` : undefined,
    values['rp_card_type'] ? escapeMarkdown(values['rp_card_type']) : undefined,
    card ? `card ${escapeMarkdown(maskCardNumber(card))}` : undefined,
  ].filter((s) => s !== undefined);
  md.appendMarkdown(`**Charges** — ${who.join(' · ')}\n\n`);
  if (!row.trusted) {
    md.appendMarkdown('The row is not well-formed CSV, so its charges cannot be read.\n');
    return;
  }
  if (charges.length === 0) {
    md.appendMarkdown('No charges: the schedule ends before its first charge.\n');
    return;
  }
  md.appendMarkdown('| # | date | amount |\n|---:|---|---:|\n');
  for (const charge of charges.slice(0, CHARGES_SHOWN)) {
    md.appendMarkdown(`| ${charge.index} | ${escapeMarkdown(formatGatewayDate(charge.date))} | ${escapeMarkdown(formatAmount(charge.amount))} |\n`);
  }
  md.appendMarkdown(
    charges.length > CHARGES_SHOWN
      ? '\n… and more.\n'
      : `\n${charges.length === 1 ? 'One charge' : `${charges.length} charges`} in all.\n`,
  );
  if (input.startDate === undefined) md.appendMarkdown(`\nNo start-date: the first charge is on the day the batch is created (today, ${formatGatewayDate(today)}).\n`);
}

export function registerHover(context: vscode.ExtensionContext, store: LintStore): void {
  context.subscriptions.push(vscode.languages.registerHoverProvider({ language: LANGUAGE_ID }, new PaygateHover(store)));
}
