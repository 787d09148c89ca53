import { amountColumns } from '../shared/amounts';
// The outcome table's own modules, not the gateway's index: every command prints through here, and the
// index would load the HTTP client, zod's schemas and OAuth into `paygate lint` too.
import { EXIT, OUTCOMES } from '../core/gateway/outcomes';
import type { GatewayOutcome } from '../core/gateway/outcome';
import {
  joinLaid,
  keptColumns,
  laid,
  laidCsv,
  laidCsvRecord,
  laidJson,
  maskFields,
  maskText,
  ourWords,
  padLaid,
  said,
  safeJson,
  trimmedEnd,
  vet,
  vouched,
  words,
  type Laid,
  type Said,
  type SafeCsvOptions,
  type Vetted,
} from '../core/output';
import type { CliContext } from './context';

// What every `paygate` command prints and exits with: the exit-code table, the usage-error shape, a
// gateway answer as text or as the contract's JSON, and the terminal table. Commands import these from
// here and never from each other.
//
// Printing through the boundary (src/core/output): every line a command writes is masked and escaped by
// src/cli/boundary.ts whatever it holds; on top of that floor, a command prints
//   - each value from input (a cell, a file name, an answer's field) in a text layout with field() (free text)
//     or by its type with vet.date/amount/count/hash/id (core/output/values.ts), so a line break or an escape
//     sequence inside it never forges or garbles a line; a layout made only of such values and our own words
//     (laid`…`, tableLine, formatTable: core/output/laid.ts) and written as vouched(text) is not read again
//     by the floor;
//   - JSON with jsonOut() (masked strings one by one, no CVV member, no raw control character);
//   - CSV with csvText() (masked, CVV columns left out, formulas neutralised unless --raw: rawOption() in
//     ./parser.ts).
// test/process/output-hostile.test.ts drives every command and format with a hostile corpus and fails
// when one skips these.

/** One value on a text line: masked, CVVs hidden, every control character and line break shown escaped. */
export const field = vet.text;

/**
 * Text laid out from JSON documents (laidJson in core/output/json.ts: every string masked alone, every number
 * a count or an amount) and our words. When a document holds another number, the text is made again from
 * safeJson and is plain: written without a vouch, the floor reads it whole.
 */
export function jsonLaid(make: (json: (value: unknown, space?: number) => Laid) => Laid): { laid: Laid } | { plain: string } {
  let typed = true;
  const text = make((value, space) => laidJson(value, space) ?? ((typed = false), words('')));
  // The plain text is never vouched for: its brand is only the builder's type.
  return typed ? { laid: text } : { plain: make((value, space) => safeJson(value, space) as Laid) };
}

/** What jsonLaid made, to be written at once: vouched for when it is laid out. */
export const vouchedIfLaid = (made: { laid: Laid } | { plain: string }): string => ('laid' in made ? vouched(made.laid) : made.plain);

/** A JSON document for standard output, ending in a newline, written at once: vouched for when laid out from its values (jsonLaid). */
export const jsonOut = (value: unknown, space?: number): string => vouchedIfLaid(jsonLaid((json) => laid`${json(value, space)}\n`));

/**
 * Records (the header first) as a CSV we write (core/output/csv.ts), for standard output: a control
 * character in a cell is shown escaped too (a line break inside a quoted cell is CSV, and stays).
 */
export function csvText(records: readonly (readonly string[])[], options: SafeCsvOptions = {}): Laid {
  return laidCsv(records, options);
}

/**
 * One record of csvText, its separator after it, for a CSV written as it is read (the caller has left out
 * the header's CVV columns: keptColumns).
 */
export function csvRecordText(record: readonly string[], options: SafeCsvOptions = {}): Laid {
  return laidCsvRecord(record, options);
}

/** A `Said` (core/output/said.ts: our words and typed values) to write at once, to standard output or error: each part checked alone, vouched for. */
export const saidOut = (s: Said): string => vouched(laid`${s}`);

/** A person's summary of an answer (a `Said`, the same in every face) and an answer quoted line by line. */
export { outcomeText, quotedAnswer } from '../core/gateway/outcomeText';

/** Exit codes shared by every command: the core's outcome table owns them. */
export { EXIT };

/** The full program name of a command, as a user types it: `paygate submit`. */
export type CommandPath = string;

/**
 * What went wrong, for standard error: a `Said` (our words and each value by its type), or a plain string,
 * which is free text scanned whole (its line breaks kept) as our words in a `Said` are.
 */
export type Problem = string | Said;

const problemSaid = (p: Problem): Said => (typeof p === 'string' ? ourWords(p) : p);

/**
 * A problem with the arguments: the same two lines for every command, exit 2.
 *   paygate submit: no FILE given
 *   Run "paygate submit --help" for usage.
 */
export function usageError(ctx: Pick<CliContext, 'stderr'>, command: CommandPath, problem: Problem): number {
  ctx.stderr(saidOut(said`${ourWords(command)}: ${problemSaid(problem)}\nRun "${ourWords(command)} --help" for usage.\n`));
  return EXIT.usage;
}

/** A problem with the input or the setting (unreadable file, unknown environment…): one line, exit 2. */
export function inputError(ctx: Pick<CliContext, 'stderr'>, command: CommandPath, problem: Problem): number {
  ctx.stderr(saidOut(said`${ourWords(command)}: ${problemSaid(problem)}\n`));
  return EXIT.usage;
}

export function exitCodeFor(o: GatewayOutcome): number {
  return OUTCOMES[o.outcome].exit;
}

/** The contract's JSON: {"outcome","status","fields","errorId"?}, plus a message where there are no fields. */
export function outcomeJson(o: GatewayOutcome): Record<string, unknown> {
  switch (o.outcome) {
    case 'accepted':
      return { outcome: o.outcome, status: o.status, fields: maskFields(o.fields) };
    case 'declined':
      return {
        outcome: o.outcome,
        status: o.status,
        fields: maskFields(o.fields),
        paymentStatus: o.paymentStatus,
        ...(o.errorMessage !== undefined ? { errorMessage: maskText(o.errorMessage) } : {}),
        ...(o.errorCode !== undefined ? { errorCode: o.errorCode } : {}),
      };
    case 'validation-error':
    case 'error':
      return { outcome: o.outcome, status: o.status, fields: maskFields(o.fields) };
    case 'server-error':
      return {
        outcome: o.outcome,
        status: o.status,
        fields: maskFields(o.fields),
        ...(o.errorId !== undefined ? { errorId: o.errorId } : {}),
      };
    case 'auth-failed':
      return { outcome: o.outcome, status: o.status, fields: {}, message: maskText(o.message) };
    case 'unknown':
      return { outcome: o.outcome, kind: o.kind, status: o.status ?? null, fields: {}, message: maskText(o.message) };
    case 'transport-error':
      return { outcome: o.outcome, status: null, fields: {}, kind: o.kind, message: maskText(o.message) };
    case 'unrecognised':
      return { outcome: o.outcome, status: o.status, fields: {}, contentType: o.contentType, raw: maskText(o.raw) };
    case 'report':
      return o.format === 'csv'
        ? { outcome: o.outcome, contentType: o.contentType, columns: o.columns, rows: o.rows }
        : { outcome: o.outcome, contentType: o.contentType, format: 'pdf', bytes: o.bytes.length };
    default:
      return plainJson(o);
  }
}

/** An outcome without a shape of its own in the contract: its status, fields, kind and message, masked. */
function plainJson(o: GatewayOutcome): Record<string, unknown> {
  return {
    outcome: o.outcome,
    status: 'status' in o && o.status !== undefined ? o.status : null,
    fields: 'fields' in o ? maskFields(o.fields) : {},
    ...('kind' in o ? { kind: o.kind } : {}),
    ...('message' in o ? { message: maskText(o.message) } : {}),
  };
}

const MAX_CELL = 40;

/**
 * A table cell as shown: masked, line breaks shown as ⏎, every other control character escaped (a tab
 * would break the columns), shortened to MAX_CELL characters.
 */
export function tableCell(value: string): Vetted {
  const flat = vet.cell(value);
  return flat.length > MAX_CELL ? (`${vet.cut(flat, MAX_CELL - 1)}…` as Vetted) : flat;
}

/** One line of the table: shown cells padded to the columns' widths (in characters, not UTF-16 units). */
export function tableLine(cells: readonly Vetted[], widths: readonly number[]): Laid {
  return trimmedEnd(
    joinLaid(
      cells.map((v, i) => padLaid(v, widths[i])),
      '  ',
    ),
  );
}

/** Said once under a table whose values held line breaks. */
export const LINE_BREAK_NOTE = words('⏎ marks a line break inside a value (kept as it came in --format csv and json).');

/**
 * A plain aligned table for terminals; cells are masked, shortened and line breaks shown as ⏎ (said once
 * under the table when it happens). Report amounts show in their currency's digits (the raw value
 * stays in --format json and csv).
 */
export function formatTable(allColumns: string[], allRows: string[][]): Laid {
  // A column named like a CVV is left out whole, as in every table we show.
  const keep = keptColumns(allColumns);
  const columns = keep ? keep.map((i) => allColumns[i]) : allColumns;
  const rows = keep ? allRows.map((r) => keep.map((i) => r[i] ?? '')) : allRows;
  const shown = amountColumns(columns);
  let breaks = false;
  const all = [columns, ...rows].map((r, n) =>
    columns.map((_, i) => {
      const value = n > 0 && shown ? shown(r, i) : (r[i] ?? '');
      if (!breaks && /[\r\n]/.test(value)) breaks = true;
      return tableCell(value);
    }),
  );
  const widths = columns.map((_, i) => all.reduce((w, r) => Math.max(w, [...r[i]].length), 0));
  const lines = all.map((r) => tableLine(r, widths));
  lines.splice(1, 0, words(widths.map((w) => '-'.repeat(w)).join('  ')));
  if (breaks) lines.push(LINE_BREAK_NOTE);
  return laid`${joinLaid(lines, '\n')}\n`;
}
