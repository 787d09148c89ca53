import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Command } from '../command';
import { formatGatewayDate, parseGatewayDate, todayLocal, type CalendarDate } from '../../core/dates';
import { readBatch } from '../../core/rules/batch';
import { computeSchedule, scheduleInputFromRow, type ChargeAmount } from '../../core/schedule/schedule';
import { describeSchedule } from '../../core/schedule/describe';

const DEFAULT_LIMIT = 12;
const MAX_LIMIT = 10_000;

const HELP = `Usage: paygate schedule FILE [--row N] [--format text|json] [--limit N] [--today DD.MM.YYYY]

Shows each row's charges (index, date, amount) as the gateway would make them.
FILE '-' reads standard input.

Options:
  --row N            only data row N (1-based: the first row after the header is 1)
  --format text|json output format (default text)
  --limit N          at most N charges per row (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})
  --today DD.MM.YYYY the date a row without start-date starts on (default: today)
  -h, --help         this help

Exit status: 0 ok, 2 usage error or unreadable file.`;

/** Where the command reads and writes; tests pass their own, the CLI passes the process's. */
export interface ScheduleIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

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
  charges: ScheduleJsonCharge[];
  truncated: boolean;
}

export interface ScheduleJson {
  file: string;
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

function textAmount(a: ChargeAmount): string {
  switch (a.kind) {
    case 'fixed':
      return a.value;
    case 'range':
      return `random ${a.from}–${a.to}`;
    case 'none':
      return '(no valid amount)';
  }
}

// A client-orderid is the merchant's free text: keep control characters from steering the terminal.
const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

function usage(io: ScheduleIo, message: string): number {
  io.stderr(`paygate schedule: ${message}\nRun 'paygate schedule --help' for usage.\n`);
  return 2;
}

function wholeNumber(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

interface RowSchedule {
  json: ScheduleJsonRow;
  amounts: ChargeAmount[];
  rule: string;
  trusted: boolean;
}

export async function runSchedule(args: string[], io: ScheduleIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        row: { type: 'string' },
        format: { type: 'string' },
        limit: { type: 'string' },
        today: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return usage(io, err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) return usage(io, positionals.length === 0 ? 'no FILE given' : 'give exactly one FILE');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') return usage(io, `--format must be text or json, not '${values.format}'`);
  const limit = values.limit === undefined ? DEFAULT_LIMIT : wholeNumber(values.limit);
  if (limit === undefined || limit < 1 || limit > MAX_LIMIT) return usage(io, `--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  let today: CalendarDate = todayLocal();
  if (values.today !== undefined) {
    const t = parseGatewayDate(values.today);
    if (!t) return usage(io, `--today must be a date DD.MM.YYYY, not '${values.today}'`);
    today = t;
  }
  let rowFilter: number | undefined;
  if (values.row !== undefined) {
    rowFilter = wholeNumber(values.row);
    if (rowFilter === undefined || rowFilter < 1) return usage(io, `--row must be a data row number (1 or more), not '${values.row}'`);
  }

  const file = positionals[0];
  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : await io.readFile(file);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException)?.code ?? (err instanceof Error ? err.message : String(err));
    io.stderr(`paygate schedule: cannot read ${file}: ${reason}\n`);
    return 2;
  }

  const batch = readBatch(text);
  let rows = batch.rows;
  if (rowFilter !== undefined) {
    if (rowFilter > rows.length) {
      const has = rows.length === 0 ? 'has no data rows' : `has ${rows.length} data row${rows.length === 1 ? '' : 's'} (1-${rows.length})`;
      io.stderr(`paygate schedule: --row ${rowFilter} is out of range: ${file} ${has}\n`);
      return 2;
    }
    rows = rows.filter((r) => r.rowNumber === rowFilter);
  }

  const schedules: RowSchedule[] = rows.map((row) => {
    const input = scheduleInputFromRow(row.values());
    // One charge more than shown tells whether the list was cut short.
    const charges = computeSchedule(input, { today, limit: limit + 1 });
    return {
      amounts: charges.slice(0, limit).map((c) => c.amount),
      rule: describeSchedule(input),
      trusted: row.trusted,
      json: {
        row: row.rowNumber,
        line: batch.csv.index.positionAt(row.record.start).line + 1,
        clientOrderId: row.value('client-orderid') ?? '',
        charges: charges.slice(0, limit).map((c) => ({ index: c.index, date: formatGatewayDate(c.date), amount: jsonAmount(c.amount) })),
        truncated: charges.length > limit,
      },
    };
  });

  if (format === 'json') {
    const out: ScheduleJson = { file, rows: schedules.map((s) => s.json) };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    io.stdout(renderText(file, schedules, limit));
  }
  return 0;
}

function renderText(file: string, schedules: RowSchedule[], limit: number): string {
  if (schedules.length === 0) return `${printable(file)}: no data rows\n`;
  const blocks = schedules.map(({ json, amounts, rule, trusted }) => {
    const id = json.clientOrderId === '' ? '(no client-orderid)' : printable(json.clientOrderId);
    const lines = [`${printable(file)} row ${json.row} (line ${json.line}), client-orderid ${id}`, `  ${rule}`];
    if (!trusted) lines.push('  note: this row has CSV errors, so its values may be misread (run paygate lint)');
    if (json.charges.length === 0) {
      lines.push('  no charges');
    } else {
      lines.push('  index  date        amount');
      json.charges.forEach((c, i) => lines.push(`  ${String(c.index).padStart(5)}  ${c.date}  ${textAmount(amounts[i])}`));
    }
    if (json.truncated) lines.push(`  … more charges follow (showing the first ${limit}; use --limit N)`);
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

export const schedule: Command = {
  summary: "show each row's charges (index, date, amount)",
  run(args) {
    return runSchedule(args, {
      stdout: (t) => process.stdout.write(t),
      stderr: (t) => process.stderr.write(t),
      readFile: (path) => readFile(path, 'utf8'),
      readStdin: async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      },
    });
  },
};
