// One received call as the listener prints it, keeps it and replays it. Everything here passes the output
// boundary (core/output) before it is kept: the store on disk never holds a card number or a CVV, in any
// field, header, path, query or body shape, and secret headers are kept as a placeholder only. A store
// written by an earlier version passes it again when read (readEntry), so nothing old is shown unmasked.

import { randomBytes } from 'node:crypto';
import { checkControl, clientOrderIdOf, type ControlCheck } from '../core/callbacks';
import {
  isCvvName,
  joinLaid,
  laid,
  maskCardNumbers,
  safeBody,
  safeFields,
  safeFreeText,
  safeUrlPath,
  trimmedEnd,
  vet,
  words,
  type Laid,
  type Vetted,
} from '../core/output';

export interface ForwardResult {
  /** The exact URL the call was passed on to (its query included; absent in entries kept before it was recorded). */
  url?: string;
  /** The handler's status, or 502 when it could not be reached or did not answer in time. */
  status: number;
  ms: number;
  /** Why the handler gave no answer (down, slow…); absent when it answered. */
  error?: string;
}

export interface CallbackEntry {
  id: string;
  /** ISO 8601, when the call arrived. */
  time: string;
  method: string;
  /** Path and query as received. */
  path: string;
  /** Raw header pairs in arrival order; secret ones' values replaced by REDACTED. */
  headers: [string, string][];
  /** The body as received, or masked (`masked: true`) when it held card data. */
  body: string;
  masked: boolean;
  /** The fields decoded from the query string and a form body (masked); empty when the call has neither. */
  fields: Record<string, string>;
  /** Checked against the control key; null when no key is known and the call carries a control. */
  control: ControlCheck | null;
  forwarded: ForwardResult | null;
  /**
   * The id of the first call this one repeats (same status, type, orderid and client_orderid: how the
   * gateway family tells merchants to recognise a callback sent twice); absent on a first call.
   */
  repeatOf?: string;
}

export const REDACTED = '(redacted)';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export function newEntryId(): string {
  return `cb_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** Each `&`-separated pair must decode: a stray `%` or invalid UTF-8 is a malformed form, not a shrug. */
export function decodeForm(body: string): Record<string, string> | { malformed: string } {
  const fields: Record<string, string> = {};
  if (body.trim() === '') return fields;
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    try {
      fields[decodeURIComponent(k.replace(/\+/g, ' '))] = decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      return { malformed: `the form field ${JSON.stringify(part.slice(0, 40))} is not valid percent-encoding` };
    }
  }
  return fields;
}

export const isForm = (contentType: string | undefined): boolean =>
  (contentType ?? 'application/x-www-form-urlencoded').toLowerCase().startsWith('application/x-www-form-urlencoded');

/** Headers as kept: secret ones redacted, CVV-named ones dropped, every other value masked as text. */
function safeHeaders(headers: readonly [string, string][]): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of headers) {
    if (isCvvName(name)) continue;
    out.push([maskCardNumbers(name), SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : safeFreeText(value)]);
  }
  return out;
}

const contentType = (headers: readonly [string, string][]): string | undefined =>
  headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];

/** Entries safeEntry made (only their forwarded result is set afterwards): the store's door does not mask them again. */
const SAFE = new WeakSet<CallbackEntry>();

/**
 * An entry as it may be kept, shown or replayed: path and query, headers, body and fields through the
 * output boundary. `masked` says whether anything a replay sends differs from what was received. Idempotent,
 * so it serves both a new call and an entry read back from the store.
 */
export function safeEntry(e: CallbackEntry): CallbackEntry {
  if (SAFE.has(e)) return e;
  const path = safeUrlPath(e.path);
  const headers = safeHeaders(e.headers);
  const body = safeBody(e.body, contentType(e.headers));
  const headersChanged = headers.length !== e.headers.length || headers.some(([k, v], i) => k !== e.headers[i][0] || v !== e.headers[i][1]);
  const safe = {
    ...e,
    path,
    headers,
    body,
    fields: safeFields(e.fields),
    masked: e.masked || path !== e.path || body !== e.body || headersChanged,
  };
  SAFE.add(safe);
  return safe;
}

/** The entry for a received call: control checked on the fields as received, then everything masked. */
export function buildEntry(
  call: { method: string; path: string; rawHeaders: string[]; body: string; fields: Record<string, string> },
  controlKey: string | undefined,
): CallbackEntry {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < call.rawHeaders.length; i += 2) {
    const name = call.rawHeaders[i];
    headers.push([name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : call.rawHeaders[i + 1]]);
  }
  return safeEntry({
    id: newEntryId(),
    time: new Date().toISOString(),
    method: call.method,
    path: call.path,
    headers,
    body: call.body,
    masked: false,
    fields: call.fields,
    control: checkControl(call.fields, controlKey) ?? null,
    forwarded: null,
  });
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isPair = (v: unknown): v is [string, string] => Array.isArray(v) && v.length === 2 && isText(v[0]) && isText(v[1]);

/**
 * An entry read from the store, whatever wrote it (an earlier version kept ids that are card numbers, and
 * CVVs outside a form, unmasked; a hand-edited line may hold anything): shaped, then masked again.
 */
export function readEntry(raw: unknown): CallbackEntry | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (!isText(r.id) || !isText(r.body)) return undefined;
  const fields: Record<string, string> = {};
  if (r.fields !== null && typeof r.fields === 'object') for (const [k, v] of Object.entries(r.fields)) if (isText(v)) fields[k] = v;
  const fwd = r.forwarded !== null && typeof r.forwarded === 'object' ? (r.forwarded as Record<string, unknown>) : undefined;
  const forwarded: ForwardResult | null =
    fwd && typeof fwd.status === 'number'
      ? {
          ...(isText(fwd.url) ? { url: fwd.url } : {}),
          status: fwd.status,
          ms: typeof fwd.ms === 'number' ? fwd.ms : 0,
          ...(isText(fwd.error) ? { error: fwd.error } : {}),
        }
      : null;
  return safeEntry({
    id: r.id,
    time: isText(r.time) ? r.time : '',
    method: isText(r.method) ? r.method : '',
    path: isText(r.path) ? r.path : '',
    headers: Array.isArray(r.headers) ? r.headers.filter(isPair) : [],
    body: r.body,
    masked: r.masked === true,
    fields,
    control: r.control === 'valid' || r.control === 'invalid' || r.control === 'absent' ? r.control : null,
    forwarded,
    ...(isText(r.repeatOf) ? { repeatOf: r.repeatOf } : {}),
  });
}

/**
 * One line of `paygate listen` / `paygate callbacks list` in text, laid out from its values (core/output/laid.ts):
 * the time, the HTTP status and the milliseconds checked by their type, every other value as free text (a
 * control character shown escaped, a line break in a field (`%0A`) never starting a second line).
 */
export function entryLine(e: CallbackEntry): Laid {
  const f = e.fields;
  const t = vet.text;
  const id = clientOrderIdOf(f);
  const amount = f['amount'] ? trimmedEnd(laid`${vet.amount(f['amount'])} ${t(f['currency'] ?? '')}`) : undefined;
  const what = joinLaid(
    [t(f['status'] ?? '-'), f['type'] ? t(f['type']) : undefined, id ? laid`client_orderid ${t(id)}` : undefined, amount].filter(
      (s): s is Vetted | Laid => s !== undefined && s !== '',
    ),
    '  ',
  );
  const control = e.control === null ? words('control: unchecked (no key)') : laid`control: ${t(e.control)}`;
  let fwd = words('');
  const to = e.forwarded?.url === undefined ? words('') : laid` ${t(e.forwarded.url)}:`;
  if (e.forwarded?.error !== undefined) fwd = laid`  ->${to} ${vet.count(e.forwarded.status)} (${t(e.forwarded.error)})`;
  else if (e.forwarded) fwd = laid`  ->${to} ${vet.count(e.forwarded.status)} in ${vet.count(e.forwarded.ms)} ms`;
  const repeat = e.repeatOf === undefined ? words('') : laid`  (repeat of ${t(e.repeatOf)})`;
  const masked = words(e.masked ? '  (card data masked)' : '');
  return laid`${vet.date(e.time)}  ${t(e.id)}  ${t(e.method)} ${t(e.path)}  ${what}  ${control}${repeat}${fwd}${masked}`;
}
