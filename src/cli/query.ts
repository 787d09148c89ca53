// The query options `paygate query` and `paygate report` share (docs/cli.md, "paygate query"): their
// flags, the query they ask for (over a saved view's, when one is named), and what a finished query
// prints in each format. Commands never import each other, so both take these from here.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { laid, words } from '../core/output';
import { PERIODS, type Period } from '../core/periods';
import { describeProblem, type PlanProblem, type QueryOutcome, type QuerySpec } from '../core/query';
import { groupJson, queryJsonRest } from '../core/query/result';
import { DEFAULT_MAX_GROUPS } from '../core/query/run';
import type { ReportView } from '../core/gateway/reportTemplate';
import type { CliContext } from './context';
import { writeQueryCsv, writeQueryText } from './format/query';
import { jsonLaid } from './output';
import { batched } from './pieces';
import { choiceOption, collect } from './parser';

export type QueryCliOptions = {
  where?: string;
  groupBy?: string[];
  by?: Period;
  count?: boolean;
  sum?: string[];
  min?: string[];
  max?: string[];
  avg?: string[];
  currency?: string;
  view?: string;
  raw?: boolean;
  maxGroups?: string;
};

const DEFAULT_COLUMNS = 80;

/** The query's flags, added to `cmd` (`paygate query`, `paygate report`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- commander's own default for no global options
export function addQueryOptions<A extends unknown[], O extends OptionValues, G extends OptionValues = {}>(
  cmd: Command<A, O, G>,
): Command<A, O & QueryCliOptions, G> {
  // Chained on the plain Command and cast once: inferring eleven chained options over a generic O made
  // the compiler spend minutes relating the nested types (and emitting them as declarations).
  const plain = cmd as unknown as Command;
  const chained = plain
    .option('--where <EXPR>', 'keep the rows the filter expression matches (docs/cli.md, "Query expressions")')
    .option('--group-by <COL[,COL...]>', 'one group per value of these columns (repeatable)', collect)
    .addOption(choiceOption('--by <PERIOD>', 'group the date column by day, ISO week or month', PERIODS))
    .option('--count', 'the number of rows of each group (the default when no amount is asked for)')
    .option('--sum <COL>', 'the exact sum of an amount column, within each currency (repeatable)', collect)
    .option('--min <COL>', 'the least amount of a column (repeatable)', collect)
    .option('--max <COL>', 'the largest amount of a column (repeatable)', collect)
    .option('--avg <COL>', 'the average amount of a column, rounded half to even (repeatable)', collect)
    .option('--currency <COL|none>', "the column holding each amount's currency (default: Currency); none: every amount in one currency")
    .option('--view <NAME>', 'run the saved view NAME of a report template (its options first, then these); see --template')
    .option(
      '--max-groups <N>',
      `the most groups shown; past it the query says how many there are and shows none (default: ${DEFAULT_MAX_GROUPS.toLocaleString('en-US')})`,
    );
  return chained as unknown as Command<A, O & QueryCliOptions, G>;
}

/** Whether any option asks for a query (`paygate report` prints the report itself otherwise). */
export function asksForQuery(o: QueryCliOptions): boolean {
  return (
    o.where !== undefined ||
    o.view !== undefined ||
    o.count === true ||
    o.by !== undefined ||
    o.currency !== undefined ||
    [o.groupBy, o.sum, o.min, o.max, o.avg].some((l) => l !== undefined && l.length > 0)
  );
}

const names = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** The query asked for: the view's fields, each replaced by the option of the same name when given. */
export function querySpec(o: QueryCliOptions, view?: ReportView): QuerySpec {
  const pick = <T>(option: T | undefined, saved: T | undefined) => (option !== undefined ? option : saved);
  const none = o.currency?.trim().toLowerCase() === 'none';
  const currency = none ? null : o.currency;
  return {
    where: pick(o.where, view?.where),
    groupBy: pick(names(o.groupBy), view?.groupBy),
    by: pick(o.by, view?.by),
    count: pick(o.count, view?.count),
    sum: pick(names(o.sum), view?.sum),
    min: pick(names(o.min), view?.min),
    max: pick(names(o.max), view?.max),
    avg: pick(names(o.avg), view?.avg),
    currency: pick(currency, view?.currency),
    maxGroups: o.maxGroups === undefined ? DEFAULT_MAX_GROUPS : Number(o.maxGroups),
  };
}

/** `--max-groups` as given: a message when it is not a whole number of at least 1. */
export function maxGroupsProblem(o: QueryCliOptions): string | undefined {
  const n = Number(o.maxGroups);
  return o.maxGroups === undefined || (/^\d+$/.test(o.maxGroups.trim()) && Number.isSafeInteger(n) && n >= 1)
    ? undefined
    : `--max-groups must be a whole number of at least 1, not "${o.maxGroups}"`;
}

/** A query that met more groups than it may show: said plainly, with how many and how to go on. */
export function tooManyGroupsText(t: { groups: number; limit: number }): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `too many groups to show: ${n(t.groups)} groups, over the limit of ${n(t.limit)}; ` +
    'group by fewer or coarser columns, narrow the rows with --where, or raise the limit with --max-groups N'
  );
}

const OPTION_OF: Record<PlanProblem['option'], string> = {
  where: '--where',
  'group-by': '--group-by',
  by: '--by',
  sum: '--sum',
  min: '--min',
  max: '--max',
  avg: '--avg',
  currency: '--currency',
};

/** A query the report's header refuses, said with the option (and for --where, the place under the expression). */
export function planProblemText(p: PlanProblem, spec: QuerySpec, view: string | undefined): string {
  const option = view === undefined ? OPTION_OF[p.option] : `view "${view}": ${p.option === 'group-by' ? 'groupBy' : p.option}`;
  const what = p.place && spec.where !== undefined ? describeProblem(spec.where, p.place) : p.message;
  const hint = p.option === 'currency' && view === undefined ? ' (--currency COL, or --currency none)' : '';
  return `${option}: ${what}${hint}`;
}

export function printQueryOutcome(
  ctx: CliContext,
  name: string,
  outcome: QueryOutcome,
  o: { format: 'text' | 'json' | 'csv'; raw?: boolean },
): void {
  const write = (text: string) => ctx.stdout(text);
  switch (o.format) {
    case 'json':
      writeQueryJson(outcome, write);
      break;
    case 'csv':
      writeQueryCsv(outcome, { raw: o.raw === true }, write);
      break;
    case 'text': {
      const columns = ctx.columns ?? Number(ctx.env.COLUMNS);
      writeQueryText(name, outcome, Number.isSafeInteger(columns) && columns > 20 ? columns : DEFAULT_COLUMNS, write);
      break;
    }
  }
}

/** The documented JSON, a group per line, written as it is made (a million groups are never one string). */
function writeQueryJson(outcome: QueryOutcome, write: (text: string) => void): void {
  const out = batched(write);
  const rest = queryJsonRest(outcome);
  out.addLaid(words('{\n  "groups": ['));
  for (let i = 0; i < outcome.groups.length; i++) {
    out.addMade(jsonLaid((json) => laid`${words(i === 0 ? '' : ',')}\n    ${json(groupJson(outcome, i))}`));
  }
  out.addLaid(words(`${outcome.groups.length === 0 ? '' : '\n  '}],\n`));
  out.addMade(
    jsonLaid((json) => laid`  "total": ${json(rest.total)},\n  "rows": ${json(rest.rows)},\n  "skipped": ${json(rest.skipped)}\n}\n`),
  );
  out.flush();
}
