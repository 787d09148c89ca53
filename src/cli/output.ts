import { amountColumns } from '../shared/amounts';
// The outcome table's own modules, not the gateway's index: every command prints through here, and the
// index would load the HTTP client, zod's schemas and OAuth into `paygate lint` too.
import { EXIT, OUTCOMES, outcomeHeadline, outcomeTodo } from '../core/gateway/outcomes';
import type { GatewayOutcome } from '../core/gateway/outcome';
import { maskFields, maskText } from '../core/output';
import type { CliContext } from './context';

// What every `paygate` command prints and exits with: the exit-code table, the usage-error shape, a
// gateway answer as text or as the contract's JSON, and the terminal table. Commands import these from
// here and never from each other.

/** Exit codes shared by every command: the core's outcome table owns them. */
export { EXIT };

/** The full program name of a command, as a user types it: `paygate submit`. */
export type CommandPath = string;

/**
 * A problem with the arguments: the same two lines for every command, exit 2.
 *   paygate submit: no FILE given
 *   Run "paygate submit --help" for usage.
 */
export function usageError(ctx: Pick<CliContext, 'stderr'>, command: CommandPath, problem: string): number {
  ctx.stderr(`${command}: ${problem}\nRun "${command} --help" for usage.\n`);
  return EXIT.usage;
}

/** A problem with the input or the setting (unreadable file, unknown environment…): one line, exit 2. */
export function inputError(ctx: Pick<CliContext, 'stderr'>, command: CommandPath, problem: string): number {
  ctx.stderr(`${command}: ${problem}\n`);
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
      return { outcome: o.outcome, kind: o.kind, status: o.status ?? null, fields: {}, message: o.message };
    case 'transport-error':
      return { outcome: o.outcome, status: null, fields: {}, kind: o.kind, message: o.message };
    case 'unrecognised':
      return { outcome: o.outcome, status: o.status, fields: {}, contentType: o.contentType, raw: maskText(o.raw) };
    case 'report':
      return o.format === 'csv'
        ? { outcome: o.outcome, contentType: o.contentType, columns: o.columns, rows: o.rows }
        : { outcome: o.outcome, contentType: o.contentType, format: 'pdf', bytes: o.bytes.length };
  }
}

function fieldLines(fields: Record<string, string>): string {
  const masked = maskFields(fields);
  const width = Object.keys(masked).reduce((w, k) => Math.max(w, k.length), 0);
  return Object.entries(masked)
    .map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`)
    .join('');
}

/** The answer as it came, masked, quoted line by line (at most 40 lines of 300 characters). */
function verbatim(raw: string): string {
  const lines = maskText(raw).split(/\r\n|\r|\n/);
  const shown = lines
    .slice(0, 40)
    .map((l) => `  | ${l.length > 300 ? `${l.slice(0, 300)}…` : l}\n`)
    .join('');
  return lines.length > 40 ? `${shown}  | … (${lines.length - 40} more lines)\n` : shown;
}

/**
 * A person's summary of an answer; `what` names the request ("examples/valid.rpcsv (4 rows) to local").
 * The title, the detail and what to do come from the core's outcome table (the editor says the same).
 */
export function outcomeText(o: GatewayOutcome, what: string): string {
  const todo = outcomeTodo(o);
  return `${outcomeHeadline(o)}: ${what}\n${outcomeBody(o)}${todo ? `  ${todo}\n` : ''}`;
}

/** The answer's own words under the headline, masked. */
function outcomeBody(o: GatewayOutcome): string {
  switch (o.outcome) {
    case 'accepted':
      return fieldLines(o.fields);
    case 'declined':
    case 'validation-error':
    case 'error':
      return `  ${maskText(o.errorMessage ?? '(no error-message)')}\n${fieldLines(o.fields)}`;
    case 'server-error':
      return fieldLines(o.fields) || `  ${maskText(o.raw.trim()).slice(0, 500)}\n`;
    case 'auth-failed':
      return `  ${maskText(o.message)}\n`;
    case 'unknown':
    case 'transport-error':
      return `  ${o.message}\n`;
    case 'unrecognised':
      return `  Shown as it came; it is neither an acceptance nor a known error.\n${verbatim(o.raw)}`;
    case 'report':
      return '';
  }
}

const MAX_CELL = 40;

/** A table cell as shown: masked, shortened to MAX_CELL characters, line breaks shown as ⏎. */
export function tableCell(value: string): string {
  const flat = maskText(value).replace(/\r\n|\r|\n/g, ' ⏎ ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** One line of the table: shown cells padded to the columns' widths (in characters, not UTF-16 units). */
export function tableLine(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((v, i) => v + ' '.repeat(widths[i] - [...v].length))
    .join('  ')
    .trimEnd();
}

/** Said once under a table whose values held line breaks. */
export const LINE_BREAK_NOTE = '⏎ marks a line break inside a value (kept as it came in --format csv and json).';

/**
 * A plain aligned table for terminals; cells are masked, shortened and line breaks shown as ⏎ (said once
 * under the table when it happens). Report amounts show in their currency's digits (the raw value
 * stays in --format json and csv).
 */
export function formatTable(columns: string[], rows: string[][]): string {
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
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  if (breaks) lines.push(LINE_BREAK_NOTE);
  return lines.map((l) => `${l}\n`).join('');
}
