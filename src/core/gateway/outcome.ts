import { fieldValue, findErrorId } from './answerText';
import type { TransportKind, UnknownKind } from './outcomeKinds';

// Every answer of the two operations becomes one of these. The decision is made from the content, never
// from the HTTP status alone (the report operation denies access with HTTP 200), and an answer is called
// accepted only when it says so in the gateway's own words: anything else is shown as it came.

export type GatewayOutcome =
  | { outcome: 'accepted'; status: number; fields: Record<string, string>; raw: string }
  | {
      outcome: 'declined';
      status: number;
      fields: Record<string, string>;
      /** The answer's `status` field (declined, filtered; one per row when several). */
      paymentStatus: string;
      errorMessage?: string;
      errorCode?: string;
      raw: string;
    }
  | {
      outcome: 'validation-error' | 'error';
      status: number;
      fields: Record<string, string>;
      errorMessage?: string;
      errorCode?: string;
      raw: string;
    }
  | { outcome: 'auth-failed'; status: number; operation: 'create' | 'report'; message: string; raw: string }
  | { outcome: 'server-error'; status: number; errorId?: string; fields: Record<string, string>; raw: string }
  | {
      /** The create request may have reached the gateway but no whole answer came back: payments may exist. */
      outcome: 'unknown';
      kind: UnknownKind;
      message: string;
      status?: number;
    }
  | { outcome: 'transport-error'; kind: TransportKind; message: string }
  | {
      /**
       * HTTP 413: the gateway, or a proxy in front of it, refused the request as too large before processing
       * it. Nothing was created (nor reported), whatever content type it came with (text/plain, HTML, empty).
       */
      outcome: 'too-large';
      /** Which operation was refused: what to do differs (split the batch; ask for a shorter period). */
      operation: 'create' | 'report';
      status: number;
      contentType: string;
      message: string;
      raw: string;
    }
  | { outcome: 'report'; status: number; contentType: string; format: 'csv'; columns: string[]; rows: string[][]; text: string }
  | { outcome: 'report'; status: number; contentType: string; format: 'pdf'; bytes: Uint8Array }
  | { outcome: 'unrecognised'; status: number; contentType: string; raw: string };

export type OutcomeName = GatewayOutcome['outcome'];

export type { UnknownKind, TransportKind } from './outcomeKinds';

/** What came back over HTTP, before interpretation. */
export interface HttpAnswer {
  status: number;
  /** The Content-Type header as sent ('' when absent). */
  contentType: string;
  /**
   * Every header of the answer by its lower-case name, repeated ones joined with ", " (a 429's or 503's
   * Retry-After, the gateway's own headers), as the answer reader may need one the outcome does not name.
   */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

export { fieldValue } from './answerText';

export function errorDetails(fields: Record<string, string>): { errorMessage?: string; errorCode?: string } {
  const errorMessage = fieldValue(fields, 'error-message');
  const errorCode = fieldValue(fields, 'error-code');
  return { ...(errorMessage !== undefined ? { errorMessage } : {}), ...(errorCode !== undefined ? { errorCode } : {}) };
}

/** `type=validation-error` / `type=error` answers of either operation. */
export function typedErrorOutcome(status: number, fields: Record<string, string>, raw: string): GatewayOutcome | undefined {
  const type = fieldValue(fields, 'type')?.trim().toLowerCase();
  if (type === 'validation-error' || type === 'error') return { outcome: type, status, fields, ...errorDetails(fields), raw };
  return undefined;
}

/**
 * HTTP 413 (Content Too Large, RFC 9110 §15.5.14): the server refuses to process the request because its
 * content is larger than it is willing to process. Whoever said it (the gateway, or a proxy or load
 * balancer in front of it: nginx answers an HTML page, others text/plain or nothing) refused the request
 * before it was processed, so nothing was created and no report was made. Only the gateway's own typed
 * error is read as what it says (its validation error or error). Either operation.
 */
export function tooLargeOutcome(
  operation: 'create' | 'report',
  status: number,
  fields: Record<string, string> | undefined,
  raw: string,
  contentType: string,
): GatewayOutcome {
  const typed = fields && typedErrorOutcome(status, fields, raw);
  if (typed) return typed;
  const what =
    operation === 'create'
      ? 'the request as too large before processing it; nothing was created'
      : 'the report request as too large before processing it; no report was made';
  return {
    outcome: 'too-large',
    operation,
    status,
    contentType,
    message: `HTTP ${status}: the gateway, or a proxy in front of it, refused ${what}`,
    raw,
  };
}

export function serverErrorOutcome(status: number, fields: Record<string, string> | undefined, raw: string): GatewayOutcome {
  const errorId = findErrorId(fields, raw);
  return { outcome: 'server-error', status, ...(errorId !== undefined ? { errorId } : {}), fields: fields ?? {}, raw };
}
