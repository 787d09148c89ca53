// The local gateway: a loopback HTTP server implementing both operations of the gateway
// (docs/local-gateway.md), for trying the product without credentials and for end-to-end tests of the
// client.

export { startLocalGateway } from './server';
export {
  loadOrCreateDemoMerchant,
  DEFAULT_STATE_DIR_WORDS,
  defaultStateDir,
  demoControlKey,
  demoMerchantCredentials,
  DEMO_PROJECT_CURRENCY,
  PRIVATE_KEY_FILE,
} from './merchant';
export { holderSaid, readRunningGateway, readStateLock, RUNNING_FILE, StateDirLockedError, type RunningGateway } from './running';
export { findOrStartLocalGateway, LocalGatewayUnusableError, localGatewayRef, type LocalGatewayUse } from './finding';
export { clientSaid, gatewayClients, type GatewayClient } from './clients';
export { simulatedToday } from './simulatedDate';
export { SIMULATE_500_ORDER_ID } from './create';
export { MAX_ADVANCE_DAYS } from './payments';
export type * from './types';
