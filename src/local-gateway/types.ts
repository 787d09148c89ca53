import type { CalendarDate } from '../core/dates';
import type { Environment, PathTemplates } from '../core/gateway/environments';
import type { ScheduleInput } from '../core/schedule/schedule';

export interface LocalGatewayOptions {
  stateDir: string;
  /** 0 (the default) picks any free port. */
  port?: number;
  /** Path prefix of the create operation's base URL (default `/paygate`). */
  pathPrefix?: string;
  /** Path prefix of the report operation's base URL (default `/reports`): the two differ, as on the real service. */
  reportPathPrefix?: string;
  paths?: PathTemplates;
  log?: (line: string) => void;
  /** The simulated clock's first day when the state directory has no state yet (default: today). */
  initialDate?: CalendarDate;
  /** The real clock, for oauth_timestamp checks; tests replace it. */
  now?: () => number;
  /** Largest request body read (default MAX_BODY_BYTES, 16 MiB). */
  maxBodyBytes?: number;
  /** Longest create payload, in Base64 characters (default DEFAULT_MAX_PAYLOAD_BYTES, 8 MiB): longer ones get validation-error 104. */
  maxPayloadBytes?: number;
  /**
   * Started by one CLI command for its own duration: recorded as such in gateway.json, so another
   * command waits for it to finish instead of sending to a gateway about to stop.
   */
  oneShot?: boolean;
  /** Who runs it, in a few words, for the lock file and the messages of those it refuses ("paygate gateway"). */
  runBy?: string;
}

export interface DemoMerchant {
  consumerKey: string;
  consumerSecret: string;
  rsaPrivateKeyPem: string;
  rsaPublicKeyPem: string;
  endpointId: string;
  /** Signs each callback's `control` field (SHA-1, the gateway family's convention; docs/callbacks.md). */
  controlKey: string;
}

export type ChargeStatus = 'approved' | 'declined';
/** The gateway's API description names only `stop`; `active` is the local gateway's name for a running schedule. */
export type PaymentStatus = 'active' | 'stop';

export interface StoredCharge {
  transactionId: string;
  index: number;
  date: string; // DD.MM.YYYY (the simulated day it was made)
  time: string; // hh:mm:ss
  amount: string; // decimal with three fractional digits
  status: ChargeStatus;
}

export interface StoredPayment {
  'recurring-payment-id': string;
  'serial-number': string;
  'client-orderid': string;
  rp_card_type: string;
  /** First 6 and last 4 digits only; the CVV is never kept. */
  maskedCard: string;
  /** Whether charges on this card are declined (the decline rule is applied at creation, then the number is dropped). */
  declines: boolean;
  currency: string;
  order_desc: string;
  callbackUrl?: string;
  /**
   * The column callbackUrl came from: notify_url hears every charge, server_callback_url the first only
   * (the gateway family's documentation, docs/callbacks.md). Absent in payments kept before: notify_url.
   */
  callbackColumn?: 'notify_url' | 'server_callback_url';
  schedule: ScheduleInput;
  createdDate: string; // DD.MM.YYYY (simulated)
  status: PaymentStatus;
  stopReason?: 'finish-date' | 'max-repeats' | 'completed' | 'manual';
  /** The repeats counter: the index of the next charge. Failed charges count too. */
  nextIndex: number;
  charges: StoredCharge[];
}

export interface GatewayState {
  version: 1;
  /** The simulated clock's current day (DD.MM.YYYY). */
  today: string;
  nextPaymentId: number;
  nextSerial: number;
  nextTransactionId: number;
  payments: StoredPayment[];
}

export interface CallbackResult {
  url: string;
  /** Which try this was (1 to CALLBACK_TRIES). */
  attempt?: number;
  'recurring-payment-id': string;
  'charge-index': number;
  outcome: 'delivered' | 'failed' | 'skipped';
  httpStatus?: number;
  detail?: string;
}

export interface ChargeEvent {
  /** The gateway's id of the charge's transaction: a callback's `orderid`. */
  transactionId: string;
  'recurring-payment-id': string;
  'client-orderid': string;
  index: number;
  date: string;
  amount: string;
  currency: string;
  status: ChargeStatus;
}

export interface AdvanceSummary {
  from: string; // DD.MM.YYYY
  today: string; // DD.MM.YYYY after advancing
  /** The first charges made (at most MAX_LISTED_CHARGES), in the order they were made. */
  charges: ChargeEvent[];
  /** All charges made by this advance. */
  chargeCount: number;
  /** Ids of payments that went to status stop while advancing. */
  stopped: string[];
  /** Set when the per-advance charge cap stopped the clock before the requested day. */
  truncated?: { requested: string; reason: string };
  /** The results of the callbacks this advance queued (callbacks over a full queue are dropped, not listed). */
  callbacks: CallbackResult[];
}

export interface LocalGateway {
  baseUrl: string;
  reportBaseUrl: string;
  /** The origin, for the `/_local/*` admin endpoints. */
  origin: string;
  port: number;
  /** The per-run admin token: `Authorization: Bearer <adminToken>` on every `/_local/*` request. */
  adminToken: string;
  /** Names this run (not a secret; the ledger records it): new on every start. */
  startId: string;
  stateDir: string;
  environment: Environment;
  merchant: DemoMerchant;
  /** The simulated clock's current day. */
  today(): CalendarDate;
  advanceDays(days: number): Promise<AdvanceSummary>;
  payments(): StoredPayment[];
  close(): Promise<void>;
}
