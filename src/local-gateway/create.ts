// The create-recurring-payments operation once the request is authenticated: decode the payload, check
// it with the same rules the editor uses, and register one recurring payment per row.

import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../core/payload';
import type { Code } from '../core/rules/codes';
import { ourWords, said, saidText, typed, type Said } from '../core/output/said';
import { lint } from '../core/rules/lint';
import { gatewayOrderId } from '../core/orderId';
import type { LintDiagnostic } from '../core/rules/types';
import { createPayment, gatewayToday } from './payments';
import { DEMO_PROJECT_CURRENCY } from './merchant';
import { ErrorCodes, GATEWAY_ACCEPTS, PayloadErrorCodes, lintErrorCode } from './errorCodes';
import type { ChargeEvent, GatewayState, StoredPayment } from './types';

/** A valid row with this client-orderid makes the gateway answer HTTP 500 with an error ID (documented trigger). */
export const SIMULATE_500_ORDER_ID = 'SIMULATE-500';

/** A request's form, as it came. */
export type Fields = [string, string][];

/**
 * An answer's fields: a value is a plain string (a type, a code, an id we made) or a sentence as a `Said` (our
 * words and each value by its type: the error-message), laid out once where the answer leaves
 * (formEncodeAnswer, jsonAnswer), each of its parts checked alone (issue 38).
 */
export type AnswerFields = [string, string | Said][];

export interface CreateResult {
  httpStatus: number;
  fields: AnswerFields;
  /** Set when payments were registered: the state must be saved and these charges' callbacks sent. */
  created?: { payments: StoredPayment[]; charges: { payment: StoredPayment; event: ChargeEvent }[] };
  /** The gateway's log line, laid out where it is logged (handlers.ts). */
  logLine: Said;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function answer(type: 'validation-error' | 'error', code: string, message: Said, httpStatus = 200): CreateResult {
  return {
    httpStatus,
    fields: [
      ['type', type],
      ['error-message', message],
      ['error-code', code],
    ],
    logLine: said`create ${ourWords(type)} ${ourWords(code)}: ${message}`,
  };
}

/**
 * A create request signed right for another endpoint id. The real gateway's 403 cannot tell a wrong
 * endpoint id from a wrong key; the local gateway knows the signature was good, so it says which it was
 * (still HTTP 403, nothing created).
 */
export function unknownEndpointAnswer(endpointId: string, merchant: { consumerKey: string; endpointId: string }): CreateResult {
  // The endpoint id is the request's path, as the client sent it: free text, like the merchant's key and id.
  const message = said`unknown endpoint id ${typed.text(endpointId)}: the consumer key and signature are right, but the endpoint of ${typed.text(merchant.consumerKey)} on this local gateway is ${typed.text(merchant.endpointId)}`;
  return answer('error', ErrorCodes.unknownEndpoint, message, 403);
}

/**
 * A request body over the local gateway's maximum (read to its end and discarded, never stored): answered
 * as the payload band under it is, the gateway's validation error 104, nothing created. Its signature is
 * not checked (it covers the payload, which was not kept), so no nonce is spent. The split it names keeps
 * the form, Base64 percent-encoded (`+`, `/`, `=`), under the body's maximum.
 */
export function bodyTooLargeAnswer(size: number, maxBody: number, maxPayload: number): CreateResult {
  const split = Math.min(maxPayload, Math.floor(maxBody / 1.2));
  return answer(
    'validation-error',
    PayloadErrorCodes.tooLarge,
    said`request body of ${typed.count(size)} bytes is larger than the maximum of ${typed.count(maxBody)} bytes; nothing was created: split the batch (paygate split --max-bytes ${typed.count(split)})`,
  );
}

function decodePayload(payload: string | undefined, maxPayload: number): { ok: true; text: string } | { ok: false; result: CreateResult } {
  if (payload === undefined || payload === '')
    return {
      ok: false,
      result: answer('validation-error', PayloadErrorCodes.missingPayload, ourWords('the form field payload is missing or empty')),
    };
  // Line-wrapped Base64 (MIME style) is tolerated; anything else outside the alphabet is not.
  const compact = payload.replace(/[\r\n]/g, '');
  // Weighed before it is decoded: the gateway's validation error, as for any other payload it refuses.
  if (compact.length > maxPayload)
    return {
      ok: false,
      result: answer(
        'validation-error',
        PayloadErrorCodes.tooLarge,
        said`payload of ${typed.count(compact.length)} bytes is larger than the maximum of ${typed.count(maxPayload)} bytes: split the batch (paygate split --max-bytes ${typed.count(maxPayload)})`,
      ),
    };
  if (!BASE64.test(compact) || compact.length % 4 !== 0)
    return { ok: false, result: answer('validation-error', PayloadErrorCodes.notBase64, ourWords('payload is not Base64')) };
  try {
    // ignoreBOM keeps a BOM in the text so the rules see it as the editor does (information only).
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(compact, 'base64'));
    return { ok: true, text };
  } catch {
    return { ok: false, result: answer('validation-error', PayloadErrorCodes.notUtf8, ourWords('payload does not decode to UTF-8 text')) };
  }
}

/** The first of the rule book's errors the gateway itself refuses (not those of GATEWAY_ACCEPTS). */
function firstError(diagnostics: LintDiagnostic[]): LintDiagnostic | undefined {
  return diagnostics
    .filter((d) => d.severity === 'error' && !GATEWAY_ACCEPTS.has(d.code as Code))
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)[0];
}

/** A serial number per request, unique within this local gateway, in the gateway family's UUID-like shape. */
function serialNumber(state: GatewayState): string {
  const n = state.nextSerial++;
  return `00000000-0000-0000-0000-${n.toString(16).padStart(12, '0')}`;
}

/** `maxPayload`: the longest payload (Base64 characters) this local gateway takes. */
export function handleCreate(state: GatewayState, form: Fields, maxPayload = DEFAULT_MAX_PAYLOAD_BYTES): CreateResult {
  const decoded = decodePayload(form.find(([k]) => k === 'payload')?.[1], maxPayload);
  if (!decoded.ok) return decoded.result;

  const result = lint(decoded.text, { today: gatewayToday(state) });
  const problem = firstError(result.diagnostics);
  if (problem) {
    // Its place (two counts), the rule's message as it is (a Said) and the rule's code, laid out where it leaves.
    const { line, character } = problem.range.start;
    const message = said`line ${typed.count(line + 1)}, column ${typed.count(character + 1)}: ${problem.message} [${ourWords(problem.code)}]`;
    return answer('validation-error', lintErrorCode(problem.code), message);
  }
  const rows = result.batch.rows;
  if (rows.length === 0) return answer('validation-error', PayloadErrorCodes.noRows, ourWords('the CSV document has a header but no rows'));

  if (rows.some((r) => gatewayOrderId(r.value('client-orderid') ?? '') === SIMULATE_500_ORDER_ID)) {
    const errorId = randomUUID();
    return {
      httpStatus: 500,
      fields: [
        ['type', 'error'],
        ['error-message', 'internal server error (simulated)'],
        ['error-code', ErrorCodes.internal],
        ['error-id', errorId],
      ],
      logLine: said`create 500 (simulated by client-orderid ${ourWords(SIMULATE_500_ORDER_ID)}), error-id ${typed.id(errorId)}`,
    };
  }
  for (const r of rows) {
    const currency = (r.value('currency') ?? '').trim();
    if (currency !== DEMO_PROJECT_CURRENCY) {
      return answer(
        'error',
        ErrorCodes.currencyMismatch,
        said`row ${typed.count(r.rowNumber)}: currency ${typed.text(currency)} does not equal the project currency ${ourWords(DEMO_PROJECT_CURRENCY)}`,
      );
    }
  }

  const serial = serialNumber(state);
  const payments: StoredPayment[] = [];
  const charges: { payment: StoredPayment; event: ChargeEvent }[] = [];
  for (const r of rows) {
    const created = createPayment(state, r.values(), serial);
    payments.push(created.payment);
    for (const event of created.charges) charges.push({ payment: created.payment, event });
  }
  const ids = payments.map((p) => p['recurring-payment-id']);
  return {
    httpStatus: 200,
    // One id and one status per row, in row order, comma-separated: the answer is one flat field set.
    fields: [
      ['type', 'create-recurring-payment-response'],
      ['serial-number', serial],
      ['recurring-payment-id', ids.join(',')],
      ['status', payments.map((p) => p.status).join(',')],
    ],
    created: { payments, charges },
    logLine: said`create accepted: serial-number ${typed.id(serial)}, ${typed.count(payments.length)} payment(s) ${typed.text(ids.join(','))}`,
  };
}

/** A field's value as it leaves: a sentence laid out here, each of its parts checked alone. */
const fieldText = (v: string | Said): string => (typeof v === 'string' ? v : saidText(v));

/** The gateway family's form-encoded answer: one `name=value` per line, lines after the first begin with `&`. */
export function formEncodeAnswer(fields: AnswerFields): string {
  return `${fields.map(([k, v]) => `${k}=${encodeURIComponent(fieldText(v))}`).join('\n&')}\n`;
}

export function jsonAnswer(fields: AnswerFields): string {
  return `${JSON.stringify(Object.fromEntries(fields.map(([k, v]) => [k, fieldText(v)])))}\n`;
}
