// The local gateway: a loopback HTTP server implementing both operations of the spec, for trying the
// product without credentials and for end-to-end tests of the client.

export { startLocalGateway, DEFAULT_PATH_PREFIX, DEFAULT_REPORT_PATH_PREFIX, REPORT_DENIAL } from './server';
export {
  loadOrCreateDemoMerchant,
  defaultStateDir,
  demoControlKey,
  DEMO_CONSUMER_KEY,
  DEMO_ENDPOINT_ID,
  DEMO_MERCHANT_NAME,
  DEMO_PROJECT_CURRENCY,
  PRIVATE_KEY_FILE,
  PUBLIC_KEY_FILE,
} from './merchant';
export { readRunningGateway, readStateLock, RUNNING_FILE, StateDirLockedError, type RunningGateway } from './running';
export { MAX_BODY_BYTES } from './http';
export { JOURNAL_FILE } from './journal';
export { simulatedToday } from './simulatedDate';
export { MAX_QUEUED_CALLBACKS, loopbackTarget } from './callbacks';
export { SIMULATE_500_ORDER_ID } from './create';
export { ErrorCodes, PayloadErrorCodes, LintErrorCodes, OTHER_LINT_ERROR } from './errorCodes';
export { REPORT_COLUMNS } from './report';
export { cardDeclines, MAX_ADVANCE_DAYS, MAX_CHARGES_PER_ADVANCE, MAX_LISTED_CHARGES, MAX_STORED_CHARGES } from './payments';
export { TIMESTAMP_WINDOW_SECONDS } from './auth';
export type * from './types';
