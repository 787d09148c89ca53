export * from './types';
export { parseColumnOverride, type ColumnOverrides } from './columns';
export { reconcileText, ReportReconciliation } from './text';
export { batchRows, stillAsSent } from './batches';
export { datedRows, type SentTarget } from './sentRows';
export { ledgerFiles, ledgerSends, otherGatewayNote, type LedgerFile } from './sentFiles';
