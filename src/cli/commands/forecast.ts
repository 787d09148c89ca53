import type { CliContext } from '../context';
import { forecastTextOutput } from '../format/forecast';
import { readInput } from '../io';
import { vouched } from '../../core/output';
import { inputError, jsonOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand, rawOption } from '../parser';
import { addMonthsClamped, compareDates, parseGatewayDate, type CalendarDate } from '../../core/dates';
import { gatewayToday } from '../gatewayToday';
import { defaultWindow, forecastText, type ForecastBy } from '../../core/forecast';
import { PERIODS } from '../../core/periods';
import { forecastCsv } from '../../core/forecast/csv';

export interface ForecastCliOptions {
  by: ForecastBy;
  from?: string;
  to?: string;
  today?: string;
  format: 'text' | 'json' | 'csv';
  raw?: true;
}

/** A window longer than this is a typo (31.12.9999), not a forecast anyone reads. */
const MAX_WINDOW_YEARS = 100;
const DEFAULT_COLUMNS = 80;

export function forecastCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'forecast',
      summary: "the batch's charges bucketed by day, week or month per currency",
      description:
        'Counts every charge of every row in a window (default: from today for 12 months) and sums it by day (YYYY-MM-DD), ' +
        'ISO week (YYYY-Www) or month (YYYY-MM), per currency: the number of charges and the amount from min to max ' +
        '(they differ when a row charges a random amount between amount-from and amount-to). Rows whose schedule ' +
        'columns hold errors are skipped and named with their line and reason, never guessed.',
      exits: [
        [0, 'the forecast was printed (skipped rows are listed in it)'],
        [2, 'usage error or unreadable file'],
      ],
    },
    ctx,
  )
    .argument('<FILE>', 'the batch; - reads standard input')
    .addOption(choiceOption('--by <PERIOD>', 'bucket size', PERIODS).default('month'))
    .option('--from <DD.MM.YYYY>', 'first day of the window (default: today)')
    .option('--to <DD.MM.YYYY>', 'last day of the window, inclusive (default: 12 months after --from, less a day)')
    .option(
      '--today <DD.MM.YYYY>',
      "the date a row without start-date starts on (default: the gateway's today: the local gateway's simulated date when the environment is local, else this machine's)",
    )
    .addOption(choiceOption('--format <FORMAT>', 'output format', ['text', 'json', 'csv']).default('text'))
    .addOption(rawOption())
    .action(exits((file, o) => showForecast(file, o, ctx)));
}

const usage = (ctx: CliContext, message: string) => usageError(ctx, 'paygate forecast', message);

function dateOption(name: string, text: string | undefined): CalendarDate | string | undefined {
  if (text === undefined) return undefined;
  return parseGatewayDate(text) ?? `${name} must be a date DD.MM.YYYY, not '${text}'`;
}

export async function showForecast(file: string, o: ForecastCliOptions, ctx: CliContext): Promise<number> {
  const day = gatewayToday(ctx, o.today);
  if ('error' in day) return usage(ctx, day.error);
  const today = day.today;
  const from = dateOption('--from', o.from) ?? today;
  const to = dateOption('--to', o.to);
  for (const d of [from, to]) if (typeof d === 'string') return usage(ctx, d);
  const window = { ...defaultWindow(from as CalendarDate), ...(to ? { to: to as CalendarDate } : {}) };
  if (compareDates(window.to, window.from) < 0) return usage(ctx, '--to is before --from');
  if (compareDates(window.to, addMonthsClamped(window.from, 12 * MAX_WINDOW_YEARS)) > 0)
    return usage(ctx, `the window is longer than ${MAX_WINDOW_YEARS} years`);

  const input = await readInput(file, ctx);
  if (!input.ok) return inputError(ctx, 'paygate forecast', input.message);
  const forecast = forecastText(input.text, { ...window, by: o.by, today });
  switch (o.format) {
    case 'json':
      ctx.stdout(jsonOut(forecast, 2));
      break;
    case 'csv':
      ctx.stdout(vouched(forecastCsv(forecast, o.raw === true)));
      break;
    case 'text': {
      const columns = ctx.columns ?? Number(ctx.env.COLUMNS);
      ctx.stdout(
        vouched(forecastTextOutput(input.name, forecast, Number.isSafeInteger(columns) && columns > 20 ? columns : DEFAULT_COLUMNS)),
      );
      break;
    }
  }
  return 0;
}
