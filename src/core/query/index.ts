// Queries over a report (docs/cli.md, "paygate query"; docs/results-table.md): a filter expression, groups
// (a date by day, week or month), and exact aggregates of amount columns within each currency.
export { quoteColumn } from './columns';
export { parseExpression } from './parser';
export { describeProblem } from './problem';
export { planQuery, type PlanProblem, type QueryPlan, type QuerySpec } from './plan';
export { type GroupView } from './groups';
export { QueryRun } from './run';
export { aggregateText, groupHeading, queryOutcome, reportedAggregates, totalOf, type QueryOutcome, type QueryTotal } from './result';
