export * from './types';
export { minorUnits, sameAmount } from './amounts';
export { DEFAULT_COLUMNS, isApproved, parseColumnOverride, planColumns, reportDate, type ColumnOverrides } from './columns';
export { Reconciler, type ReconcileOptions } from './reconcile';
export { reconcileText, ReportReconciliation } from './text';
export { acceptedSubmissions, batchRows, stillAsSent } from './batches';
