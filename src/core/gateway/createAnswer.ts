import { charsetOf, decode, fieldValue, findErrorId, isDenialSentence, parseAnswerFields } from './answerText';
import { errorDetails, serverErrorOutcome, tooLargeOutcome, typedErrorOutcome, type GatewayOutcome, type HttpAnswer } from './outcome';

// The create operation's answer. Its serialisation is not specified (JSON or form pairs); it is accepted
// only for the gateway's documented 200 with an empty body (docs/submissions.md) or a typed create response whose status is no failure.

export const CREATE_RESPONSE_TYPE = 'create-recurring-payment-response';

/** Values of the `status` field that are failures, after the gateway family's own client library. */
const ERROR_STATUSES = new Set(['error']);
const DECLINED_STATUSES = new Set(['declined', 'filtered']);

function denialMessage(text: string, status: number): string {
  const trimmed = text.trim();
  return trimmed !== '' ? trimmed : `HTTP ${status} with an empty body: the gateway did not accept the signature or the consumer key`;
}

/** A typed create response: its `status` (one per row, comma-separated) decides between accepted, error and declined. */
function createResponseOutcome(status: number, fields: Record<string, string>, raw: string, contentType: string): GatewayOutcome {
  const statuses = (fieldValue(fields, 'status') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  if (statuses.some((s) => ERROR_STATUSES.has(s))) return { outcome: 'error', status, fields, ...errorDetails(fields), raw };
  if (statuses.some((s) => DECLINED_STATUSES.has(s))) {
    return { outcome: 'declined', status, fields, paymentStatus: fieldValue(fields, 'status')!.trim(), ...errorDetails(fields), raw };
  }
  // A success that came with a failing HTTP status or error fields is not one we can vouch for.
  if (status !== 200 && !(status > 200 && status < 300)) return { outcome: 'unrecognised', status, contentType, raw };
  if (fieldValue(fields, 'error-message') !== undefined || fieldValue(fields, 'error-code') !== undefined) {
    return { outcome: 'error', status, fields, ...errorDetails(fields), raw };
  }
  return { outcome: 'accepted', status, fields, raw };
}

/** What a proxy or load balancer in front of the gateway answers when the gateway is slow or away. */
const PROXY_STATUSES = new Set([502, 503, 504]);

/**
 * An HTTP 5xx. The gateway's own typed error (`type=error` / `validation-error`) stays a server error, and
 * so does the gateway's documented 500 with its error ID (a proxy has none), except under 502/503/504, which the gateway
 * never answers itself. A typed create response under 5xx is a success nobody can vouch for: unrecognised.
 * Anything else (empty, an HTML page, prose) came from something in front of the gateway, after the request
 * may have reached it: unknown, and guarded against a resend.
 */
function serverStatusOutcome(status: number, fields: Record<string, string> | undefined, raw: string, contentType: string): GatewayOutcome {
  const type = fields ? fieldValue(fields, 'type')?.trim().toLowerCase() : undefined;
  if (type === 'error' || type === 'validation-error') return serverErrorOutcome(status, fields, raw);
  if (type === CREATE_RESPONSE_TYPE) return { outcome: 'unrecognised', status, contentType, raw };
  if (!PROXY_STATUSES.has(status) && findErrorId(fields, raw) !== undefined) return serverErrorOutcome(status, fields, raw);
  return {
    outcome: 'unknown',
    kind: 'gateway-unavailable',
    status,
    message: `HTTP ${status} ${raw.trim() === '' ? 'with an empty body' : "that is not the gateway's own answer"}: something in front of the gateway answered after the request may have reached it`,
  };
}

/**
 * HTTP 413 (tooLargeOutcome, outcome.ts): refused before it was processed, nothing created. A typed success
 * under 413 is one nobody can vouch for: read as the typed answer it is (under a non-2xx, unrecognised).
 */
function createTooLarge(status: number, fields: Record<string, string> | undefined, raw: string, contentType: string): GatewayOutcome {
  if (fields && fieldValue(fields, 'type')?.trim().toLowerCase() === CREATE_RESPONSE_TYPE)
    return createResponseOutcome(status, fields, raw, contentType);
  return tooLargeOutcome('create', status, fields, raw, contentType);
}

/** Interprets the create-recurring-payments answer. */
export function interpretCreateAnswer(answer: HttpAnswer): GatewayOutcome {
  const { status, contentType } = answer;
  const raw = decode(answer.body, charsetOf(contentType));
  const trimmed = raw.trim();
  if ((status === 403 || status === 401) && trimmed === '') {
    return { outcome: 'auth-failed', status, operation: 'create', message: denialMessage(raw, status), raw };
  }
  const fields = parseAnswerFields(raw, contentType);
  if (status === 413) return createTooLarge(status, fields, raw, contentType);
  if (status >= 500) return serverStatusOutcome(status, fields, raw, contentType);
  if (trimmed === '')
    return status === 200 ? { outcome: 'accepted', status, fields: {}, raw } : { outcome: 'unrecognised', status, contentType, raw };
  if (fields) {
    const typed = typedErrorOutcome(status, fields, raw);
    if (typed) return typed;
    const type = fieldValue(fields, 'type');
    if (type?.trim().toLowerCase() === CREATE_RESPONSE_TYPE) return createResponseOutcome(status, fields, raw, contentType);
    // No type at all, but the gateway family's error fields: an error, whatever else it carries.
    if (type === undefined && (fieldValue(fields, 'error-message') !== undefined || fieldValue(fields, 'error-code') !== undefined)) {
      return { outcome: 'error', status, fields, ...errorDetails(fields), raw };
    }
    // OAuth's own problem report (oauth_problem=signature_invalid): the signature was refused.
    const problem = fieldValue(fields, 'oauth_problem');
    if (type === undefined && problem !== undefined)
      return { outcome: 'auth-failed', status, operation: 'create', message: `oauth_problem=${problem}`, raw };
    return { outcome: 'unrecognised', status, contentType, raw };
  }
  if ((status === 403 || status === 401 || status === 200) && isDenialSentence(raw, contentType)) {
    return { outcome: 'auth-failed', status, operation: 'create', message: trimmed, raw };
  }
  return { outcome: 'unrecognised', status, contentType, raw };
}
