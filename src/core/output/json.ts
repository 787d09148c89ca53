import { maskCardNumbers } from './cardNumbers';
import { hideCvvs, isCvvName } from './cvv';
import type { Laid } from './laid';
import { isSaid, saidText } from './said';

// JSON we print or write: every string (keys too) passes the card-number floor and loses its labelled
// CVVs, a `Said` is written as its laid-out text (each value checked alone), a member named like a CVV is dropped, and the characters JSON.stringify leaves raw but a terminal
// obeys (DEL, C1, bidi controls, line and paragraph separators) are written as \u escapes.

const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function safeString(s: string): string {
  return hideCvvs(maskCardNumbers(s));
}

function replacer(this: unknown, key: string, value: unknown): unknown {
  if (key !== '' && isCvvName(key) && !Array.isArray(this)) return undefined;
  if (typeof value === 'string') return safeString(value);
  if (typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    // A `Said` (./said.ts) is written as the text it lays out: each value checked alone, never read whole.
    if (isSaid(value)) return saidText(value);
    let renamed: Record<string, unknown> | undefined;
    for (const k of Object.keys(value)) {
      const safe = safeString(k);
      if (safe !== k) {
        renamed ??= { ...(value as Record<string, unknown>) };
        delete renamed[k];
        renamed[safe] = (value as Record<string, unknown>)[k];
      }
    }
    return renamed ?? value;
  }
  return value;
}

/** A value as JSON text that is safe to print: masked, without CVVs, no raw control character. */
export function safeJson(value: unknown, space?: number, number?: (n: number) => void): string {
  const replace = number
    ? function (this: unknown, key: string, v: unknown) {
        if (typeof v === 'number') number(v);
        return replacer.call(this, key, v);
      }
    : replacer;
  return JSON.stringify(value, replace, space).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A number a person reads as a count or an amount (at most 12 whole digits, 3 decimals), never as a card number. */
const TYPED_NUMBER = /^-?\d{1,12}(?:\.\d{1,3})?$/;

/**
 * safeJson laid out from its values (./laid.ts): every string and key is masked one by one, and every number
 * must read as a count or an amount. Undefined when one does not (a number of 13 digits or more, or one
 * written with an exponent): such a document is left to the floor, which reads it whole.
 */
export function laidJson(value: unknown, space?: number): Laid | undefined {
  let typed = true;
  const text = safeJson(value, space, (n) => (typed &&= TYPED_NUMBER.test(String(n))));
  return typed ? (text as Laid) : undefined;
}
