// A callback: the gateway's call to a row's notify_url / server_callback_url when a charge reaches a final
// status. The gateway's API description is silent on callbacks; this follows the gateway family's convention (docs/callbacks.md):
// an `application/x-www-form-urlencoded` POST whose `control` field is the lowercase hex SHA-1 of
// status + orderid + client-orderid + the merchant's control key, so a handler can tell a callback the
// gateway made from one anybody could post. Callbacks carry no card number and no CVV (only the masked
// card's type), which is why a listener may keep and replay them byte for byte.

import { createHash, timingSafeEqual } from 'node:crypto';

/** The statuses a charge's callback reports (final statuses only). */
export const CALLBACK_STATUSES = ['approved', 'declined', 'filtered', 'error'] as const;

/** What one callback says about one charge, in the order the fields are sent. */
export interface CallbackCharge {
  status: string;
  /** The gateway's id of the payment (the family calls it `orderid`; here the recurring payment's id). */
  orderid: string;
  'client-orderid': string;
  amount: string;
  currency: string;
  'serial-number'?: string;
  'charge-index'?: number;
  /** DD.MM.YYYY */
  'charge-date'?: string;
}

/** SHA-1 (lowercase hex) of status + orderid + client-orderid + control key: the family's callback control. */
export function callbackControl(status: string, orderid: string, clientOrderId: string, controlKey: string): string {
  return createHash('sha1').update(`${status}${orderid}${clientOrderId}${controlKey}`, 'utf8').digest('hex');
}

/** The form fields of a charge's callback, `control` last (signed with `controlKey` when one is given). */
export function callbackFields(c: CallbackCharge, controlKey?: string): [string, string][] {
  const fields: [string, string][] = [
    ['type', 'recurring-charge'],
    ['status', c.status],
    ['orderid', c.orderid],
    // The local gateway's older name for the same id, kept so existing handlers keep working.
    ['recurring-payment-id', c.orderid],
    ...(c['serial-number'] !== undefined ? [['serial-number', c['serial-number']] as [string, string]] : []),
    ['client-orderid', c['client-orderid']],
    ['amount', c.amount],
    ['currency', c.currency],
    ...(c['charge-index'] !== undefined ? [['charge-index', String(c['charge-index'])] as [string, string]] : []),
    ...(c['charge-date'] !== undefined ? [['charge-date', c['charge-date']] as [string, string]] : []),
  ];
  if (controlKey !== undefined) fields.push(['control', callbackControl(c.status, c.orderid, c['client-orderid'], controlKey)]);
  return fields;
}

/** The request body of a callback: the fields form-encoded. */
export function callbackBody(c: CallbackCharge, controlKey?: string): string {
  return new URLSearchParams(callbackFields(c, controlKey)).toString();
}

export type ControlCheck = 'valid' | 'invalid' | 'absent';

/**
 * Whether a received callback's `control` field matches: `absent` when it has none (or no key is known,
 * `undefined`), `invalid` when it differs. `orderid` falls back to `recurring-payment-id`.
 */
export function checkControl(fields: Record<string, string>, controlKey: string | undefined): ControlCheck | undefined {
  const control = fields['control'];
  if (control === undefined || control === '') return 'absent';
  if (controlKey === undefined) return undefined;
  const orderid = fields['orderid'] ?? fields['recurring-payment-id'] ?? '';
  const expected = Buffer.from(callbackControl(fields['status'] ?? '', orderid, fields['client-orderid'] ?? '', controlKey));
  const given = Buffer.from(control.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}
