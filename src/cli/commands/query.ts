import type { CliContext } from '../context';
import { inputError } from '../output';
import { choiceOption, exits, paygateCommand, runCommand } from '../parser';
import { addQueryOptions, planProblemText, printQueryOutcome, querySpec, type QueryCliOptions } from '../query';
import { InputProblem, textChunks } from '../textChunks';
import { findView } from '../views';
import { QueryStream } from '../../core/query/stream';

export interface QueryCommandOptions extends QueryCliOptions {
  template?: string;
  delimiter?: string;
  format: 'text' | 'json' | 'csv';
}

const COMMAND = 'paygate query';

export function queryCommand(ctx: CliContext) {
  const cmd = paygateCommand(
    {
      name: 'query',
      summary: 'filter, group and total a transactions report (exact sums per currency)',
      description:
        'Reads a report (saved with paygate report --out, or on standard input) as it comes and answers a question of it: ' +
        'the rows --where keeps, grouped by columns (a date by day, week or month), counted and with the exact sum, least, ' +
        'largest and average of amount columns within each currency (never added across currencies, never in floating point). ' +
        'A row whose amount cannot be read is skipped by the amount aggregates and named with its line, never taken as zero. ' +
        'Memory grows with the number of groups, not of rows.',
      exits: [
        [0, 'the answer was printed (skipped amounts are listed in it)'],
        [2, 'usage error, a bad expression (its place is shown), an unknown column, or an unreadable report'],
      ],
    },
    ctx,
  ).argument('<FILE>', 'the report (CSV); - reads standard input');
  return addQueryOptions(cmd)
    .option('--template <FILE>', "the report template holding --view (default: the *.report.json files in the report's folder)")
    .option('--delimiter <CHAR>', "the report's field delimiter (default: guessed from its header line: comma, semicolon, tab or |)")
    .addOption(choiceOption('--format <FORMAT>', 'output format', ['text', 'json', 'csv']).default('text'))
    .action(exits((file, o) => runQuery(file, o as QueryCommandOptions, ctx)));
}

export const runQueryCommand = (args: string[], ctx: CliContext) => runCommand(queryCommand, args, ctx);

export async function runQuery(file: string, o: QueryCommandOptions, ctx: CliContext): Promise<number> {
  if (o.delimiter !== undefined && [...o.delimiter].length !== 1)
    return inputError(ctx, COMMAND, `--delimiter must be one character, not "${o.delimiter}"`);
  let view;
  if (o.view !== undefined) {
    const found = await findView(o.view, o.template, file, ctx);
    if (!found.ok) return inputError(ctx, COMMAND, found.message);
    view = found.view;
  }
  const spec = querySpec(o, view);
  const stream = new QueryStream(spec, { delimiter: o.delimiter });
  const name = file === '-' ? '<stdin>' : file;
  try {
    for await (const text of textChunks(file, ctx)) {
      stream.push(text);
      if (stream.problem) break;
    }
  } catch (err) {
    if (err instanceof InputProblem) return inputError(ctx, COMMAND, err.message);
    throw err;
  }
  const outcome = stream.end();
  if (!outcome) return inputError(ctx, COMMAND, `${name}: ${planProblemText(stream.problem!, spec, o.view)}`);
  const { errors, ragged } = stream.malformed;
  if (errors > 0 || ragged > 0) {
    ctx.stderr(
      `${COMMAND}: ${name}: ${errors > 0 ? `${errors} record(s) with malformed quoting` : ''}${errors > 0 && ragged > 0 ? ' and ' : ''}${ragged > 0 ? `${ragged} record(s) not as wide as the header` : ''}, read as parsed\n`,
    );
  }
  printQueryOutcome(ctx, name, outcome, o);
  return 0;
}
