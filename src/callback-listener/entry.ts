// One received call as the listener prints it, keeps it and replays it. Everything here is masked before
// it is built: the store on disk never holds a card number or a CVV (core/mask), and secret headers are
// kept as a placeholder only.

import { randomBytes } from 'node:crypto';
import { checkControl, type ControlCheck } from '../core/callbacks';
import { isCvvName, maskFields, maskText } from '../core/output';

export interface ForwardResult {
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
  /** The form fields decoded (masked); empty for a body that is not a form. */
  fields: Record<string, string>;
  /** Checked against the control key; null when no key is known and the call carries a control. */
  control: ControlCheck | null;
  forwarded: ForwardResult | null;
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

/** The entry for a received call: fields decoded and masked, the body kept as is unless it held card data. */
export function buildEntry(
  call: { method: string; path: string; rawHeaders: string[]; body: string; fields: Record<string, string> },
  controlKey: string | undefined,
): CallbackEntry {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < call.rawHeaders.length; i += 2) {
    const name = call.rawHeaders[i];
    headers.push([name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : maskText(call.rawHeaders[i + 1])]);
  }
  const fields = maskFields(call.fields);
  const formChanged = Object.keys(call.fields).some((k) => isCvvName(k)) || Object.entries(fields).some(([k, v]) => call.fields[k] !== v);
  let body = call.body;
  if (formChanged) body = new URLSearchParams(Object.entries(fields)).toString();
  else if (maskText(body) !== body) body = maskText(body);
  return {
    id: newEntryId(),
    time: new Date().toISOString(),
    method: call.method,
    path: maskText(call.path),
    headers,
    body,
    masked: body !== call.body,
    fields,
    control: checkControl(call.fields, controlKey) ?? null,
    forwarded: null,
  };
}

/** One line of `paygate listen` / `paygate callbacks list` in text. */
export function entryLine(e: CallbackEntry): string {
  const f = e.fields;
  const what = [
    f['status'] ?? '-',
    f['client-orderid'] ? `client-orderid ${f['client-orderid']}` : '',
    f['amount'] ? `${f['amount']} ${f['currency'] ?? ''}`.trim() : '',
  ]
    .filter((s) => s !== '')
    .join('  ');
  const control = e.control === null ? 'control: unchecked (no key)' : `control: ${e.control}`;
  let fwd = '';
  if (e.forwarded?.error !== undefined) fwd = `  -> 502 (${e.forwarded.error})`;
  else if (e.forwarded) fwd = `  -> ${e.forwarded.status} in ${e.forwarded.ms} ms`;
  return `${e.time}  ${e.id}  ${e.method} ${e.path}  ${what}  ${control}${fwd}${e.masked ? '  (card data masked)' : ''}`;
}
