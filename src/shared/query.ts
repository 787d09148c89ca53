// The page's door to the one query core (src/core/query): the results table's filter box, Group by and
// chart run the same expression, groups and exact sums as `paygate query`.
export {
  aggregateText,
  describeProblem,
  groupHeading,
  planQuery,
  queryOutcome,
  quoteColumn,
  QueryRun,
  reportedAggregates,
  totalOf,
  type GroupView,
  type QueryOutcome,
  type QueryPlan,
  type QuerySpec,
} from '../core/query';
