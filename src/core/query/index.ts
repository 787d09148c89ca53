// Queries over a report (docs/cli.md, "paygate query"; docs/results-table.md): a filter expression, groups
// (a date by day, week or month), and exact aggregates of amount columns within each currency.
export type { Expr } from './ast';
export { defaultCurrencyColumn, findColumn, quoteColumn, KEYWORDS } from './columns';
export { parseExpression } from './parser';
export { describeProblem, problemPlace, type QueryProblem } from './problem';
export { AGGREGATES, PERIODS, planQuery, type AggregateKind, type Period, type PlanProblem, type QueryPlan, type QuerySpec } from './plan';
export { QueryRun, SKIPPED_NAMED, type GroupState, type SkippedAmount } from './run';
export { aggregateText, queryJson, queryOutcome, reportedAggregates, type QueryJson, type QueryOutcome, type QueryTotal } from './result';
export { QueryStream } from './stream';
