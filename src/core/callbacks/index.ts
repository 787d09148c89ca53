// A callback: the gateway's call to a row's notify_url / server_callback_url when a transaction reaches a
// status. Our API description is silent on callbacks ("Callback request parameters, retries and signing:
// not shown"); the gateway family publishes them ("Merchant Callbacks", "Merchant callback parameters" in
// its integration documentation, and its official PHP library payneteasy/php-library-payneteasy-api,
// Callback/AbstractCallback.php and Callback/ServerCallbackUrlCallback.php; /work/shared/spec is our copy
// of those facts, docs/callbacks.md the users'):
// - an HTTP GET to the callback URL with the fields in its query string;
// - the fields `orderid` (the gateway's id of the transaction), `merchant_order` and `client_orderid` (the
//   merchant's order id), `amount`, `status`, `type` and `control`, plus others an account may add;
// - `control` = the lowercase hex SHA-1 of status + orderid + client_orderid + the merchant's control key.
// Callbacks carry no card number and no CVV, which is why a listener may keep and replay them byte for byte.

import { createHash, timingSafeEqual } from 'node:crypto';

/** The statuses a callback reports: the final ones, and `processing` (ServerCallbackUrlCallback's allowed statuses). */
export const CALLBACK_STATUSES = ['approved', 'declined', 'filtered', 'error', 'processing'] as const;
/** Transaction types a callback names (the family's vocabulary; a recurring charge is a `sale`). */
export const CALLBACK_TYPES = ['sale', 'reversal', 'chargeback'] as const;

/** What one callback says about one transaction. */
export interface CallbackCharge {
  /** `sale` for a charge (CALLBACK_TYPES). */
  type: string;
  status: string;
  /** The gateway's id of the transaction (each charge has its own). */
  orderid: string;
  /** The merchant's order id: sent as both `merchant_order` and `client_orderid`. */
  client_orderid: string;
  amount: string;
  currency?: string;
  /** Further fields an account adds, after the required ones (the local gateway's `serial-number`, …). */
  extra?: readonly [string, string][];
}

/** SHA-1 (lowercase hex) of status + orderid + client_orderid + control key: the family's callback control. */
export function callbackControl(status: string, orderid: string, clientOrderId: string, controlKey: string): string {
  return createHash('sha1').update(`${status}${orderid}${clientOrderId}${controlKey}`, 'utf8').digest('hex');
}

/** The fields of a callback under the gateway's names, `control` last (when a key is given). */
export function callbackFields(c: CallbackCharge, controlKey?: string): [string, string][] {
  const fields: [string, string][] = [
    ['type', c.type],
    ['status', c.status],
    ['orderid', c.orderid],
    ['merchant_order', c.client_orderid],
    ['client_orderid', c.client_orderid],
    ['amount', c.amount],
    ...(c.currency !== undefined ? [['currency', c.currency] as [string, string]] : []),
    ...(c.extra ?? []),
  ];
  if (controlKey !== undefined) fields.push(['control', callbackControl(c.status, c.orderid, c.client_orderid, controlKey)]);
  return fields;
}

/** The fields form-encoded: the query string of the gateway's GET, or the body of the POST variant. */
export function callbackQuery(c: CallbackCharge, controlKey?: string): string {
  return new URLSearchParams(callbackFields(c, controlKey)).toString();
}

/** `path` (a path with or without a query) with `query` added after its own query, which is kept. */
export function withQuery(path: string, query: string): string {
  if (query === '') return path;
  const q = path.indexOf('?');
  if (q < 0) return `${path}?${query}`;
  return q === path.length - 1 || path.endsWith('&') ? `${path}${query}` : `${path}&${query}`;
}

export type ControlCheck = 'valid' | 'invalid' | 'absent';

/**
 * The merchant's order id of a received callback: `client_orderid`, the gateway's name, else
 * `client-orderid`, the name our tools sent before (callbacks kept then stay readable).
 */
export function clientOrderIdOf(fields: Readonly<Record<string, string>>): string | undefined {
  return fields['client_orderid'] ?? fields['client-orderid'];
}

/**
 * Whether a received callback's `control` field matches: `absent` when it has none, undefined when no key
 * is known, `invalid` when it differs. `orderid` falls back to `recurring-payment-id` (callbacks kept before).
 */
export function checkControl(fields: Readonly<Record<string, string>>, controlKey: string | undefined): ControlCheck | undefined {
  const control = fields['control'];
  if (control === undefined || control === '') return 'absent';
  if (controlKey === undefined) return undefined;
  const orderid = fields['orderid'] ?? fields['recurring-payment-id'] ?? '';
  const expected = Buffer.from(callbackControl(fields['status'] ?? '', orderid, clientOrderIdOf(fields) ?? '', controlKey));
  const given = Buffer.from(control.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}

/**
 * What makes two callbacks the same one (the family: merchants must expect a callback twice and tell
 * repeats by status, type, orderid and client_orderid), or undefined for a call without status and orderid.
 */
export function repeatKey(fields: Readonly<Record<string, string>>): string | undefined {
  const status = fields['status'];
  const orderid = fields['orderid'] ?? fields['recurring-payment-id'];
  if (status === undefined || orderid === undefined) return undefined;
  return JSON.stringify([status, fields['type'] ?? '', orderid, clientOrderIdOf(fields) ?? '']);
}
