import { maskCardNumbers } from './cardNumbers';
import { hideCvvs, isCvvName } from './cvv';

// JSON we print or write: every string (keys too) passes the card-number floor and loses its labelled
// CVVs, a member named like a CVV is dropped, and the characters JSON.stringify leaves raw but a terminal
// obeys (DEL, C1, bidi controls, line and paragraph separators) are written as \u escapes.

const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function safeString(s: string): string {
  return hideCvvs(maskCardNumbers(s));
}

function replacer(this: unknown, key: string, value: unknown): unknown {
  if (key !== '' && isCvvName(key) && !Array.isArray(this)) return undefined;
  if (typeof value === 'string') return safeString(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
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
export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, replacer, space).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
