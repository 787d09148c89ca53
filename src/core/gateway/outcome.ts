import Papa from 'papaparse';
import { formDecode } from '../oauth/sign';
import { TextDecoder } from 'node:util';

// Every answer of the two operations becomes one of these. The decision is made from the content type and
// the content: the report operation denies access with HTTP 200, so status alone says little.

export type GatewayOutcome =
  | { outcome: 'accepted'; status: number; fields: Record<string, string>; raw: string }
  | { outcome: 'validation-error' | 'error'; status: number; fields: Record<string, string>; errorMessage?: string; errorCode?: string; raw: string }
  | { outcome: 'auth-failed'; status: number; operation: 'create' | 'report'; message: string; raw: string }
  | { outcome: 'server-error'; status: number; errorId?: string; fields: Record<string, string>; raw: string }
  | { outcome: 'transport-error'; kind: 'refused' | 'timeout' | 'tls' | 'other'; message: string }
  | { outcome: 'report'; status: number; contentType: string; format: 'csv'; columns: string[]; rows: string[][]; text: string }
  | { outcome: 'report'; status: number; contentType: string; format: 'pdf'; bytes: Uint8Array }
  | { outcome: 'unrecognised'; status: number; contentType: string; raw: string };

export type OutcomeName = GatewayOutcome['outcome'];

/** What came back over HTTP, before interpretation. */
export interface HttpAnswer {
  status: number;
  /** The Content-Type header as sent ('' when absent). */
  contentType: string;
  body: Uint8Array;
}

const CREATE_RESPONSE_TYPE = 'create-recurring-payment-response';

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
}

function decode(body: Uint8Array, label = 'utf-8'): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

/**
 * The gateway family's form-encoded answer: `name=value` pairs joined by `&`, often one per line
 * (`type=validation-error\n&error-message=...`). Values trimmed. Undefined unless every part is a pair.
 */
export function parseFormFields(text: string): Record<string, string> | undefined {
  const parts = text.split(/&|\r\n|\r|\n/).map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  const fields: Record<string, string> = {};
  for (const part of parts) {
    const m = /^([A-Za-z_][\w.\-]*)\s*=(.*)$/s.exec(part);
    if (!m) return undefined;
    fields[formDecode(m[1])] = formDecode(m[2]).trim();
  }
  return fields;
}

/** A JSON object answer flattened to text values (nested values kept as JSON text). */
export function parseJsonFields(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    fields[k] = typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return fields;
}

/** Fields from a JSON or form-encoded body; undefined for anything else (HTML, prose, binary). */
export function parseAnswerFields(text: string, contentType: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const media = mediaType(contentType);
  if (media.endsWith('json') || media.endsWith('+json') || trimmed.startsWith('{')) {
    const json = parseJsonFields(trimmed);
    if (json) return json;
  }
  if (trimmed.startsWith('<')) return undefined;
  return parseFormFields(trimmed);
}

/** A field under any of the gateway family's spellings: error-message, error_message, errorMessage. */
export function fieldValue(fields: Record<string, string>, name: string): string | undefined {
  const want = name.replace(/[-_]/g, '').toLowerCase();
  for (const [k, v] of Object.entries(fields)) {
    if (k.replace(/[-_]/g, '').toLowerCase() === want) return v;
  }
  return undefined;
}

/** The error ID a 500 carries: a field (error-id, error_id, errorId) or `error id: X` in plain text. */
export function findErrorId(fields: Record<string, string> | undefined, text: string): string | undefined {
  const fromField = fields ? fieldValue(fields, 'error-id') : undefined;
  if (fromField) return fromField;
  return /\berror[\s_-]?id\b["']?\s*[:=]\s*["']?([A-Za-z0-9][\w.:-]*)/i.exec(text)?.[1];
}

const DENIAL = /\b(not\s+(be\s+)?(authori[sz]ed|allowed|permitted)|unauthori[sz]ed|access\s+(is\s+)?denied|forbidden|authentication\s+failed|permission\s+denied)\b/i;

/**
 * The report operation's denial: a plain-text sentence on one line. Recognised by its wording, or by being
 * prose (several words, ends like a sentence, no report delimiter) since a one-line CSV would be a header row.
 */
export function isDenialSentence(text: string, contentType: string, delimiter = ','): boolean {
  const media = mediaType(contentType);
  if (media !== 'text/plain' && media !== '') return false;
  const trimmed = text.trim();
  if (trimmed === '' || /[\r\n]/.test(trimmed)) return false;
  if (DENIAL.test(trimmed)) return true;
  return !trimmed.includes(delimiter) && !trimmed.startsWith('"') && trimmed.split(/\s+/).length >= 3 && /[.!]$/.test(trimmed);
}

function denialMessage(text: string, status: number): string {
  const trimmed = text.trim();
  return trimmed !== '' ? trimmed : `HTTP ${status} with an empty body: the gateway did not accept the signature or the consumer key`;
}

function typedOutcome(status: number, fields: Record<string, string>, raw: string): GatewayOutcome | undefined {
  const type = fieldValue(fields, 'type')?.toLowerCase();
  if (type === 'validation-error' || type === 'error') {
    const errorMessage = fieldValue(fields, 'error-message');
    const errorCode = fieldValue(fields, 'error-code');
    return {
      outcome: type,
      status,
      fields,
      ...(errorMessage !== undefined ? { errorMessage } : {}),
      ...(errorCode !== undefined ? { errorCode } : {}),
      raw,
    };
  }
  return undefined;
}

function serverError(status: number, fields: Record<string, string> | undefined, raw: string): GatewayOutcome {
  const errorId = findErrorId(fields, raw);
  return { outcome: 'server-error', status, ...(errorId !== undefined ? { errorId } : {}), fields: fields ?? {}, raw };
}

/** Interprets the create-recurring-payments answer (its serialisation is not specified: JSON or form pairs). */
export function interpretCreateAnswer(answer: HttpAnswer): GatewayOutcome {
  const { status, contentType } = answer;
  const raw = decode(answer.body, charsetOf(contentType));
  const trimmed = raw.trim();
  if ((status === 403 || status === 401) && trimmed === '') {
    return { outcome: 'auth-failed', status, operation: 'create', message: denialMessage(raw, status), raw };
  }
  const fields = parseAnswerFields(raw, contentType);
  if (status >= 500) return serverError(status, fields, raw);
  if (trimmed === '' && status >= 200 && status < 300) return { outcome: 'accepted', status, fields: {}, raw };
  if (fields) {
    const typed = typedOutcome(status, fields, raw);
    if (typed) return typed;
    const type = fieldValue(fields, 'type')?.toLowerCase();
    const looksCreated = type === CREATE_RESPONSE_TYPE || (type === undefined && (fieldValue(fields, 'recurring-payment-id') !== undefined || fieldValue(fields, 'serial-number') !== undefined));
    if (looksCreated && status < 400) return { outcome: 'accepted', status, fields, raw };
  }
  if ((status === 403 || status === 401 || status === 200) && isDenialSentence(raw, contentType) && DENIAL.test(trimmed)) {
    return { outcome: 'auth-failed', status, operation: 'create', message: trimmed, raw };
  }
  return { outcome: 'unrecognised', status, contentType, raw };
}

function isPdf(answer: HttpAnswer): boolean {
  if (mediaType(answer.contentType) === 'application/pdf') return true;
  const b = answer.body;
  return b.length >= 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46; // %PDF
}

export interface ReportFormatOptions {
  /** The template's reportCsvDelimiter (default ','). */
  delimiter?: string;
  /** The template's reportEncode (default the Content-Type charset, else UTF-8). */
  encoding?: string;
}

/** RFC 4180 via papaparse; undefined when the text is not well-formed CSV. */
export function parseReportCsv(text: string, delimiter = ','): { columns: string[]; rows: string[][] } | undefined {
  const result = Papa.parse<string[]>(text, { delimiter, header: false, skipEmptyLines: false, newline: undefined });
  if (result.errors.some((e) => e.type === 'Quotes')) return undefined;
  const records = result.data.filter((r, i) => !(i === result.data.length - 1 && r.length === 1 && r[0] === ''));
  if (records.length === 0) return undefined;
  const [columns, ...rows] = records;
  return { columns, rows };
}

/** Interprets the custom-report answer: CSV or PDF report, the 200 text/plain denial, or an error. */
export function interpretReportAnswer(answer: HttpAnswer, options: ReportFormatOptions = {}): GatewayOutcome {
  const { status, contentType } = answer;
  const delimiter = options.delimiter ?? ',';
  if (status < 500 && status !== 401 && status !== 403 && isPdf(answer)) {
    return { outcome: 'report', status, contentType, format: 'pdf', bytes: answer.body };
  }
  const raw = decode(answer.body, options.encoding ?? charsetOf(contentType));
  const trimmed = raw.trim();
  const media = mediaType(contentType);
  if (status >= 500) return serverError(status, parseAnswerFields(raw, contentType), raw);
  if ((status === 401 || status === 403) && (trimmed === '' || isDenialSentence(raw, contentType, delimiter))) {
    return { outcome: 'auth-failed', status, operation: 'report', message: denialMessage(raw, status), raw };
  }
  if (isDenialSentence(raw, contentType, delimiter)) {
    return { outcome: 'auth-failed', status, operation: 'report', message: trimmed, raw };
  }
  if (media.endsWith('json') || media === 'text/html' || trimmed === '') {
    const fields = parseAnswerFields(raw, contentType);
    return (fields && typedOutcome(status, fields, raw)) ?? { outcome: 'unrecognised', status, contentType, raw };
  }
  const typed = ((f) => (f ? typedOutcome(status, f, raw) : undefined))(parseFormFields(trimmed));
  if (typed) return typed;
  if (status >= 200 && status < 300) {
    const csv = parseReportCsv(raw, delimiter);
    if (csv) return { outcome: 'report', status, contentType, format: 'csv', columns: csv.columns, rows: csv.rows, text: raw };
  }
  const fields = parseAnswerFields(raw, contentType);
  return (fields && typedOutcome(status, fields, raw)) ?? { outcome: 'unrecognised', status, contentType, raw };
}
