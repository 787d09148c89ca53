// The submission ledger every face shares: durable, secret-free, PAN-free.
export * from './records';
export * from './ledger';
export * from './location';
export * from './guard';
export * from './fromOutcome';
export * from './ledgerFs';
export * from './words';
export * from './entry';
export * from './alreadySent';
export * from './samePayer';
export * from './rowKeys';
export * from './batchDiff';
export * from './fileDiff';
export * from './store';
export * from './sentDiff';
