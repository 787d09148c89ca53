import type { CliContext } from '../context';
import { inputError, saidOut } from '../output';
import { choiceOption, exits, paygateCommand, rawOption } from '../parser';
import {
  addQueryOptions,
  maxGroupsProblem,
  planProblemText,
  printQueryOutcome,
  querySpec,
  tooManyGroupsText,
  type QueryCliOptions,
} from '../query';
import { InputProblem, textChunks } from '../textChunks';
import { findView } from '../views';
import { QueryStream } from '../../core/query/stream';
import { ourWords, said, typed } from '../../core/output';

export interface QueryCommandOptions extends QueryCliOptions {
  template?: string;
  delimiter?: string;
  format: 'text' | 'json' | 'csv';
}

const COMMAND = 'paygate query';

// The expression language, in the help and in docs/cli.md (the results table's filter box reads the same).
const QUERY_NOTES = [
  "Query expressions (--where, and the table's filter box):",
  '  Currency = "EUR" and Amount >= 100 and Transaction_type contains "declined"',
  '  (Currency = "USD" or Currency = "GBP") and not Order_description is empty',
  '  Created_date >= 2026-01-01 and Created_date < 2026-02-01 12:00:00',
  '  Date_of_report = 31.01.2026 and Transaction_type in ("sale", "refund")',
  '  `Order description` starts with "Gym" and Amount > Refund_amount',
  'Columns are named as in the header (one that differs only in case is found too); a name with spaces or',
  'other signs goes in backticks. Text goes in double or single quotes (a doubled quote is one quote) and',
  'compares without regard to case. Numbers are written bare (12.5, -3) and compare as exact decimals',
  "(12.5 = 12.500). Dates are written bare in either of the report's shapes, 2026-01-31 (optionally with",
  'a time, 2026-01-31 14:05:00) or 31.01.2026, and compare with cells of either shape; a date without a',
  'time is the whole day. Operators: = != < <= > >=, contains, starts with, ends with, in (…), is empty',
  '(empty or spaces), each with not (not contains, not in, is not empty); and, or, not and parentheses,',
  'and binding tighter than or. A cell that is not a number (or not a date) never matches a comparison',
  'with one, neither = nor !=; not (…) matches it. Two columns compare as numbers, dates or text by what',
  'both cells hold. Parentheses and not nest at most 100 deep; a list after in (…) or a chain of and/or may',
  'be as long as you like (numbers in a list are matched by exact value: 12.5 is 12.50). A bad expression',
  'exits 2 and shows its place.',
  '',
  'Groups and totals: --group-by takes columns (repeat it, or separate them with commas); --by day, week',
  "or month groups the date columns among them (a name with date, time or day in it), or the report's",
  'Created_date when none is named (days YYYY-MM-DD, ISO weeks YYYY-Www, months YYYY-MM). When an amount',
  'is summed, the currency column joins the groups: amounts of two currencies are never added. Where the',
  "report says which row is which (a Transaction_type column), each row's kind of money joins them too:",
  'charges (sale, capture), payouts, refunds (return, reversal, void), chargebacks, or other (a type naming',
  'none of these, never guessed a charge), so a payout is never added to the sales. Sums, least,',
  'largest and averages are exact, shown with the most decimals the column has (an average rounded half',
  'to even); a group with no readable amount shows none, not zero. --view NAME runs a saved view of a',
  'report template (*.report.json, "views"): from --template FILE, else from the templates in the',
  "report's folder; options on the command line replace the view's own. At most --max-groups groups are",
  'kept (100,000 by default): past it the query exits 2 saying how many groups there are, and shows none.',
  '',
  'JSON: {"groups": [{"key": {"Currency": "EUR", …}, "count": N, "sum": {"Amount": "12.500"}, "skipped":',
  '{"Amount": 1}}], "total": {"count": M, "sum": {"Amount": {"EUR": "…", "USD": "…"}}}, "rows": {"read": N,',
  '"matched": M}, "skipped": {"count": K, "rows": [{"row", "line", "column", "value", "reason"}]}}. With a',
  'Transaction_type column, totals are per currency and then per kind: {"Amount": {"EUR": {"charges": "…",',
  '"payouts": "…"}}} (per kind alone with --currency none).',
].join('\n');

export function queryCommand(ctx: CliContext) {
  const cmd = paygateCommand(
    {
      name: 'query',
      summary: 'filter, group and total a transactions report (exact sums, payouts apart)',
      description:
        'Reads a report (saved with paygate report --out, or on standard input) as it comes and answers a question of it: ' +
        'the rows --where keeps, grouped by columns (a date by day, week or month), counted and with the exact sum, least, ' +
        'largest and average of amount columns within each currency (never added across currencies, never in floating point). ' +
        'A row whose amount cannot be read is skipped by the amount aggregates and named with its line, never taken as zero. ' +
        'Memory grows with the number of groups, not of rows.',
      notes: QUERY_NOTES,
      exits: [
        [0, 'the answer was printed (skipped amounts are listed in it)'],
        [
          2,
          'usage error, a bad expression (its place is shown), an unknown column, an unreadable report, or too many groups to show (--max-groups)',
        ],
      ],
    },
    ctx,
  ).argument('<FILE>', 'the report (CSV); - reads standard input');
  return addQueryOptions(cmd)
    .option('--template <FILE>', "the report template holding --view (default: the *.report.json files in the report's folder)")
    .option('--delimiter <CHAR>', "the report's field delimiter (default: guessed from its header line: comma, semicolon, tab or |)")
    .addOption(choiceOption('--format <FORMAT>', 'output format', ['text', 'json', 'csv']).default('text'))
    .addOption(rawOption())
    .action(exits((file, o) => runQuery(file, o as QueryCommandOptions, ctx)));
}

export async function runQuery(file: string, o: QueryCommandOptions, ctx: CliContext): Promise<number> {
  if (o.delimiter !== undefined && [...o.delimiter].length !== 1)
    return inputError(ctx, COMMAND, `--delimiter must be one character, not "${o.delimiter}"`);
  const bad = maxGroupsProblem(o);
  if (bad !== undefined) return inputError(ctx, COMMAND, bad);
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
    const quoting = errors > 0 ? said`${typed.count(errors)} record(s) with malformed quoting` : ourWords('');
    const and = ourWords(errors > 0 && ragged > 0 ? ' and ' : '');
    const narrow = ragged > 0 ? said`${typed.count(ragged)} record(s) not as wide as the header` : ourWords('');
    ctx.stderr(saidOut(said`${ourWords(COMMAND)}: ${typed.text(name)}: ${quoting}${and}${narrow}, read as parsed\n`));
  }
  if (outcome.tooManyGroups) return inputError(ctx, COMMAND, `${name}: ${tooManyGroupsText(outcome.tooManyGroups)}`);
  printQueryOutcome(ctx, name, outcome, o);
  return 0;
}
