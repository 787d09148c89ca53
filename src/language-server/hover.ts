import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { formatGatewayDate, parseGatewayDate, todayLocal } from '../core/dates';
import type { PreviewToday } from '../shared/lintProtocol';
import { gatewayOrderId } from '../core/orderId';
import { hasShape, joinSaid, maskCardValue, ourWords, said, saidMarkup, typed, type Part, type Said } from '../core/output';
import type { BatchRow } from '../core/rules/batch';
import { cellAt } from '../core/rules/cells';
import { columnSpec } from '../core/rules/columns';
import { inMessage } from '../core/rules/quote';
import type { LintResult } from '../core/rules/lint';
import { scheduleProblems } from '../core/schedule/problems';
import { computeSchedule, scheduleInputFromRow, type ChargeAmount } from '../core/schedule/schedule';
import { isPayoutRow, kindWords } from '../core/schedule/describe';
import { columnDoc, escapeMarkdown } from './markdown';

/** How many charges a row's hover lists; one more is computed to know whether the list goes on. */
const CHARGES_SHOWN = 6;

/**
 * The hover of a cell: the column's documentation from the column table (header cells say which column
 * they are read as), the value's length, and on a row's first cell the row's next charges.
 *
 * Mask values, not layouts (issue 38): the hover is a `Said`, our words (its Markdown) and each value with its
 * type, laid out by saidMarkup: each value checked alone by its type, then escaped for Markdown. Two values
 * meeting on it (a range's two amounts across its dash, an order id and a card type across a middle dot) are
 * never read as one number, and a backslash the escape puts between digit groups hides no card number.
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
  const md: Said[] = [];
  if (!cell.isHeader && cell.fieldIndex === 0 && cell.row) md.push(charges(cell.row, rowNumber ?? cell.row.rowNumber, preview));
  const header = cell.isHeader ? batch.headerCells[cell.fieldIndex] : undefined;
  // A duplicate header cell resolves to no column, but it still names one: document that one.
  let name = cell.column ?? undefined;
  if (header) name = header.match.kind === 'unknown' ? undefined : header.match.column;
  const spec = name === undefined ? undefined : columnSpec(name);
  if (spec) {
    if (md.length > 0) md.push(ourWords('\n\n---\n\n'));
    // The column table's words are ours, Markdown already.
    md.push(ourWords(columnDoc(spec)));
    if (header?.duplicate) {
      md.push(ourWords(`\n\n**${escapeMarkdown(spec.name)}** appears earlier in the header; this cell is ignored.\n`));
    } else if (header && field.value !== spec.name) {
      md.push(ourWords(`\n\nThis header cell is read as **${escapeMarkdown(spec.name)}**.\n`));
    }
    if (!cell.isHeader && spec.sensitive === undefined && spec.kind !== 'decimal-list' && field.value !== '') {
      // Code points, as the max-length check counts them.
      const length = [...field.value].length;
      const limit = spec.maxLength === null ? said`` : said` of at most ${typed.count(spec.maxLength)}`;
      md.push(said`\n\nThis value: ${typed.count(length)} character${ourWords(length === 1 ? '' : 's')}${limit}.\n`);
    }
  } else if (header) {
    const suggestion = header.match.kind === 'unknown' ? header.match.suggestion : undefined;
    md.push(
      field.value.trim() === ''
        ? ourWords('An empty column name: the gateway cannot read this column.')
        : said`**${typed.text(inMessage(field.value))}** is not a column of the recurring-payments table.`,
    );
    if (suggestion) md.push(ourWords(` Did you mean **${escapeMarkdown(suggestion)}**?`));
    md.push(ourWords('\n'));
  }
  // Every value passes the output boundary alone: a value quoted anywhere in the hover (an order id, an amount)
  // shows no card number, no CVV and no control character (an editor in a terminal draws it).
  return md.length === 0 ? null : { contents: { kind: MarkupKind.Markdown, value: saidMarkup(joinSaid(md, ''), escapeMarkdown) }, range };
}

/** An amount of a schedule by its type: a range is two amounts; a value without an amount's shape is a quoted cell. */
function amountSaid(a: ChargeAmount): Said {
  const one = (v: string): Part => (hasShape('amount', v) ? typed.amount(v) : typed.text(inMessage(v)));
  if (a.kind === 'fixed') return said`${one(a.value)}`;
  if (a.kind === 'range') return said`${one(a.from)}–${one(a.to)}`;
  return ourWords('—');
}

/**
 * The row's first charges from the rule book's schedule, with the card masked (first 6, last 4). A DST
 * row's are payouts (money paid out to the receiver's card), named so and never called charges.
 */
function charges(row: BatchRow, rowNumber: number, preview: PreviewToday): Said {
  const values = row.values();
  const payout = isPayoutRow(values);
  const w = kindWords(payout);
  const given = preview.today === undefined ? undefined : parseGatewayDate(preview.today);
  const today = given ?? todayLocal();
  const todaySays = given && preview.source ? said`today on ${typed.text(preview.source)}` : ourWords('today');
  const input = scheduleInputFromRow(values);
  // The id as the gateway reads it (trimmed, invisible characters removed, NFC): what the guard and duplicates compare.
  const orderId = gatewayOrderId(values['client-orderid'] ?? '');
  const card = values['credit-card-number'];
  const who = [
    said`Row ${typed.count(rowNumber)}`,
    orderId ? said`order ${typed.text(inMessage(orderId))}` : undefined,
    values['rp_card_type'] ? said`${typed.text(inMessage(values['rp_card_type']))}` : undefined,
    card ? said`card ${typed.text(maskCardValue(card))}` : undefined,
  ].filter((s) => s !== undefined);
  const md: Said[] = [said`**${ourWords(payout ? 'Payouts' : 'Charges')}** — ${joinSaid(who, ' · ')}\n\n`];
  if (payout) md.push(ourWords("A DST row: money paid out to the receiver's card, counted apart from the charges.\n\n"));
  const done = (last: Said) => joinSaid([...md, last], '');
  if (!row.trusted) return done(ourWords(`The row is not well-formed CSV, so its ${w.many} cannot be read.\n`));
  // Say exactly why instead of guessing around a malformed value (a start-date 2027-01-15 is not "today").
  const problems = scheduleProblems(values);
  if (problems.some((p) => p.blocksDates)) {
    const why = problems.map((p) => said`- ${typed.text(p.message)}\n`);
    return done(said`The schedule cannot be computed:\n\n${joinSaid(why, '')}`);
  }
  const list = computeSchedule(input, { today, limit: CHARGES_SHOWN + 1 });
  for (const p of problems) md.push(said`${typed.text(p.message)}.\n\n`);
  if (list.length === 0) return done(ourWords(`No ${w.many}: the schedule ends before its first ${w.one}.\n`));
  md.push(ourWords('| # | date | amount |\n|---:|---|---:|\n'));
  for (const charge of list.slice(0, CHARGES_SHOWN))
    md.push(said`| ${typed.count(charge.index)} | ${typed.date(formatGatewayDate(charge.date))} | ${amountSaid(charge.amount)} |\n`);
  md.push(
    list.length > CHARGES_SHOWN
      ? ourWords('\n… and more.\n')
      : said`\n${list.length === 1 ? ourWords(`One ${w.one}`) : said`${typed.count(list.length)} ${ourWords(w.many)}`} in all.\n`,
  );
  if (input.startDate === undefined)
    md.push(
      said`\nNo start-date: the first ${ourWords(w.one)} is on the day the batch is created (${todaySays}, ${typed.date(formatGatewayDate(today))}).\n`,
    );
  return joinSaid(md, '');
}
