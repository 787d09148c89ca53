import { FileRefused, readRegularFile } from '../../core/regularFile';
import { resolve } from 'node:path';
import type { CliContext } from '../context';
import { joinLaid, laid, ourWords, padLaid, vet, vouched, words, type Laid, type Said } from '../../core/output';
import { field, inputError, jsonOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { formatGatewayDate, type CalendarDate } from '../../core/dates';
import { readBatch } from '../../core/rules/batch';
import { computeSchedule, scheduleInputFromRow, type ChargeAmount } from '../../core/schedule/schedule';
import { CHARGE_WORDS, describeSchedule, isPayoutRow, kindWords, PAYOUT_WORDS, type KindWords } from '../../core/schedule/describe';
import { scheduleProblems } from '../../core/schedule/problems';
import { gatewayToday, TODAY_FROM_TEXT, type TodayFrom } from '../gatewayToday';
import { errorMessage } from '../../core/errorMessage';

const DEFAULT_LIMIT = 12;
const MAX_LIMIT = 10_000;

export interface ScheduleJsonCharge {
  index: number;
  date: string;
  /** null: the row has no valid amount mode (the linter reports `amount-mode` or `invalid-value`). */
  amount: string | { from: string; to: string } | null;
}

export interface ScheduleJsonRow {
  row: number;
  line: number;
  clientOrderId: string;
  /** `payouts` for a DST row: its `charges` are money paid out to the receiver's card, not charges. */
  kind: 'charges' | 'payouts';
  charges: ScheduleJsonCharge[];
  truncated: boolean;
  /** Why the schedule cannot be computed (or its amounts cannot), value by value; absent when it can. */
  problems?: string[];
}

export interface ScheduleJson {
  file: string;
  /** The day a row without start-date starts on, and where it comes from. */
  today: string;
  todayFrom: TodayFrom;
  rows: ScheduleJsonRow[];
}

function jsonAmount(a: ChargeAmount): ScheduleJsonCharge['amount'] {
  switch (a.kind) {
    case 'fixed':
      return a.value;
    case 'range':
      return { from: a.from, to: a.to };
    case 'none':
      return null;
  }
}

function textAmount(a: ChargeAmount): Laid {
  switch (a.kind) {
    case 'fixed':
      return laid`${vet.amount(a.value)}`;
    case 'range':
      return laid`random ${vet.amount(a.from)}–${vet.amount(a.to)}`;
    case 'none':
      return words('(no valid amount)');
  }
}

// A client-orderid is the merchant's free text: one value, one line, no control character steering the terminal.
const printable = field;

const usage = (ctx: CliContext, message: string) => usageError(ctx, 'paygate schedule', message);

function wholeNumber(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

interface RowSchedule {
  json: ScheduleJsonRow;
  amounts: ChargeAmount[];
  rule: Said;
  trusted: boolean;
  startsToday: boolean;
}

export interface ScheduleOptions {
  row?: string;
  format: 'text' | 'json';
  limit?: string;
  today?: string;
}

export function scheduleCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'schedule',
      summary: "show each row's charges (index, date, amount)",
      description: "Shows each row's charges (index, date, amount) as the gateway would make them. Card numbers are never printed.",
      exits: [
        [0, 'the schedule was printed'],
        [2, "usage error, unreadable file, or a --row beyond the file's last data row"],
      ],
    },
    ctx,
  )
    .argument('<FILE>', 'the batch; - reads standard input')
    .option('--row <N>', 'only data row N (1-based: the first row after the header is 1)')
    .addOption(choiceOption('--format <FORMAT>', 'output format', ['text', 'json']).default('text'))
    .option('--limit <N>', `at most N charges per row (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`)
    .option('--today <DD.MM.YYYY>', 'the date a row without start-date starts on (default: today)')
    .action(exits((file, o) => showSchedule(file, o, ctx)));
}

export async function showSchedule(file: string, values: ScheduleOptions, ctx: CliContext): Promise<number> {
  const format = values.format;
  const limit = values.limit === undefined ? DEFAULT_LIMIT : wholeNumber(values.limit);
  if (limit === undefined || limit < 1 || limit > MAX_LIMIT) return usage(ctx, `--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const day = gatewayToday(ctx, values.today);
  if ('error' in day) return usage(ctx, day.error);
  const { today, from: todayFrom } = day;
  let rowFilter: number | undefined;
  if (values.row !== undefined) {
    rowFilter = wholeNumber(values.row);
    if (rowFilter === undefined || rowFilter < 1) return usage(ctx, `--row must be a data row number (1 or more), not '${values.row}'`);
  }

  let text: string;
  try {
    text =
      file === '-' ? (await ctx.stdin()).toString('utf8') : (await readRegularFile(resolve(ctx.cwd, file), field(file))).toString('utf8');
  } catch (err) {
    if (err instanceof FileRefused) return inputError(ctx, 'paygate schedule', err.message);
    const reason = (err as NodeJS.ErrnoException)?.code ?? errorMessage(err);
    return inputError(ctx, 'paygate schedule', `cannot read ${field(file)}: ${reason}`);
  }

  const batch = readBatch(text);
  let rows = batch.rows;
  if (rowFilter !== undefined) {
    if (rowFilter > rows.length) {
      const has = rows.length === 0 ? 'has no data rows' : `has ${rows.length} data row${rows.length === 1 ? '' : 's'} (1-${rows.length})`;
      return inputError(ctx, 'paygate schedule', `--row ${rowFilter} is out of range: ${field(file)} ${has}`);
    }
    rows = rows.filter((r) => r.rowNumber === rowFilter);
  }

  const schedules: RowSchedule[] = rows.map((row) => {
    const values = row.values();
    const input = scheduleInputFromRow(values);
    const problems = scheduleProblems(values);
    // A malformed date, period or interval would be guessed around (a start-date of 2027-01-15 read as
    // "starts today"): no dates at all then, only the reasons.
    const blocked = problems.some((p) => p.blocksDates);
    const payout = isPayoutRow(values);
    // One charge more than shown tells whether the list was cut short.
    const charges = blocked ? [] : computeSchedule(input, { today, limit: limit + 1 });
    return {
      amounts: charges.slice(0, limit).map((c) => c.amount),
      rule: blocked ? ourWords('the schedule cannot be computed') : describeSchedule(input, kindWords(payout)),
      trusted: row.trusted,
      startsToday: !blocked && input.startDate === undefined,
      json: {
        row: row.rowNumber,
        line: batch.csv.index.positionAt(row.record.start).line + 1,
        clientOrderId: row.value('client-orderid') ?? '',
        kind: payout ? 'payouts' : 'charges',
        charges: charges.slice(0, limit).map((c) => ({ index: c.index, date: formatGatewayDate(c.date), amount: jsonAmount(c.amount) })),
        truncated: charges.length > limit,
        ...(problems.length > 0 ? { problems: problems.map((p) => p.message) } : {}),
      },
    };
  });

  if (format === 'json') {
    const out: ScheduleJson = { file, today: formatGatewayDate(today), todayFrom, rows: schedules.map((s) => s.json) };
    ctx.stdout(jsonOut(out, 2));
  } else {
    // Laid out from values checked by their type (core/output/laid.ts): the floor does not read it again.
    ctx.stdout(vouched(renderText(file, schedules, limit, todayText(today, todayFrom))));
  }
  return 0;
}

function todayText(today: CalendarDate, from: TodayFrom): Laid {
  return laid`today is ${vet.date(formatGatewayDate(today))} (${words(TODAY_FROM_TEXT[from])})`;
}

/** `3 charges`: the count checked as a count, the words ours. */
const counted = (n: number, w: KindWords) => laid`${vet.count(n)} ${words(n === 1 ? w.one : w.many)}`;

function renderText(file: string, schedules: RowSchedule[], limit: number, today: Laid): Laid {
  if (schedules.length === 0) return laid`${printable(file)}: no data rows\n`;
  const shown = { charges: 0, payouts: 0 };
  const blocks = schedules.map(({ json, amounts, rule, trusted, startsToday }) => {
    const id = json.clientOrderId === '' ? words('(no client-orderid)') : printable(json.clientOrderId);
    const w = kindWords(json.kind === 'payouts');
    shown[json.kind] += json.charges.length;
    const dst = words(json.kind === 'payouts' ? " (DST: payouts to the receiver's card, not charges)" : '');
    // The rule is a sentence the core composes from the row's values (describeSchedule): a Said, each value checked by its type.
    const lines = [
      laid`${printable(file)} row ${vet.count(json.row)} (line ${vet.count(json.line)}), client-orderid ${id}${dst}`,
      laid`  ${rule}`,
    ];
    if (startsToday) lines.push(laid`  no start-date: starts on the day the batch is created; ${today}`);
    if (!trusted) lines.push(words('  note: this row has CSV errors, so its values may be misread (run paygate lint)'));
    for (const p of json.problems ?? []) lines.push(laid`  problem: ${printable(p)}`);
    if (json.charges.length === 0) {
      lines.push(words(`  no ${w.many}`));
    } else {
      lines.push(words('  index  date        amount'));
      json.charges.forEach((c, i) =>
        lines.push(laid`  ${padLaid(vet.count(c.index), 5, 'start')}  ${vet.date(c.date)}  ${textAmount(amounts[i])}`),
      );
    }
    if (json.truncated) lines.push(laid`  … more ${words(w.many)} follow (showing the first ${vet.count(limit)}; use --limit N)`);
    return joinLaid(lines, '\n');
  });
  // Charges and payouts are counted apart: a payout is money paid out, never one of the payers' charges.
  const payouts = shown.payouts > 0 ? laid` and ${counted(shown.payouts, PAYOUT_WORDS)} (DST rows)` : words('');
  return laid`${joinLaid(blocks, '\n\n')}\n\nshown: ${counted(shown.charges, CHARGE_WORDS)}${payouts}\n`;
}
