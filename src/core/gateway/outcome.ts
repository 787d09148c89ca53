import { fieldValue, findErrorId } from './answerText';

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
  | { outcome: 'transport-error'; kind: 'refused' | 'timeout' | 'tls' | 'other'; message: string }
  | { outcome: 'report'; status: number; contentType: string; format: 'csv'; columns: string[]; rows: string[][]; text: string }
  | { outcome: 'report'; status: number; contentType: string; format: 'pdf'; bytes: Uint8Array }
  | { outcome: 'unrecognised'; status: number; contentType: string; raw: string };

export type OutcomeName = GatewayOutcome['outcome'];

/**
 * Why a create's fate is unknown: no whole answer (timeout, connection-lost, truncated, cancelled), or
 * `gateway-unavailable`: an HTTP 5xx that is not the gateway's own typed answer (a proxy's 502/503/504,
 * an empty or HTML page), said by something in front of the gateway, which may have created the payments.
 */
export type UnknownKind = 'timeout' | 'connection-lost' | 'truncated' | 'cancelled' | 'gateway-unavailable';

/** What came back over HTTP, before interpretation. */
export interface HttpAnswer {
  status: number;
  /** The Content-Type header as sent ('' when absent). */
  contentType: string;
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

export function serverErrorOutcome(status: number, fields: Record<string, string> | undefined, raw: string): GatewayOutcome {
  const errorId = findErrorId(fields, raw);
  return { outcome: 'server-error', status, ...(errorId !== undefined ? { errorId } : {}), fields: fields ?? {}, raw };
}
