export * from './types';
export { parseColumnOverride, type ColumnOverrides } from './columns';
export { reconcileText, ReportReconciliation } from './text';
export { acceptedSendOf, acceptedSubmissions, batchRows, readSentBatch, sentOnOf, stillAsSent } from './batches';
