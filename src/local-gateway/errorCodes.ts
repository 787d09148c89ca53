// The local gateway's error-code numbers. The gateway's API description gives no list, so these are ours; they are documented
// in the README and are a contract: never renumber one, add new numbers instead.

import type { Code } from '../core/rules/codes';

/** Payload problems found before the CSV rules can run. */
export const PayloadErrorCodes = {
  missingPayload: '100',
  notBase64: '101',
  notUtf8: '102',
  noRows: '103',
  /** The payload is longer than the local gateway's maximum (DEFAULT_MAX_PAYLOAD_BYTES, or its option). */
  tooLarge: '104',
} as const;

/** type=error answers (not about the input's form). */
export const ErrorCodes = {
  currencyMismatch: '300',
  /** A create request signed correctly for an endpoint id that is not the merchant's. */
  unknownEndpoint: '301',
  internal: '500',
} as const;

/**
 * validation-error for the rule book's codes: the first error of the file is answered with its number. A
 * total record over the codes, so a new code fails the type check until it is given a number here (an
 * error) or null (a warning or information, which the local gateway never answers, or an error one file's
 * lint cannot give).
 */
export const LintErrorCodes: Record<Code, string | null> = {
  'csv-syntax': '110',
  'field-count': '111',
  'blank-line': '112',
  delimiter: '113',
  'missing-column': '114',
  'duplicate-column': '115',
  'column-alias': '116',
  'required-value': '117',
  'invalid-value': '118',
  'max-length': '119',
  'dst-unsupported': '120',
  'period-interval': '121',
  'amount-mode': '122',
  'amount-range': '123',
  'callback-exclusive': '124',
  'state-required': '125',
  'date-order': '126',
  // An error the editor and the CLI find in the ledger of the sender; the local gateway's lint has none.
  'already-sent': null,
  'unknown-column': null,
  'card-luhn': null,
  'card-expired': null,
  'start-date-past': null,
  // An error of ours, not the gateway's (GATEWAY_ACCEPTS).
  'duplicate-order-id': null,
  'id-whitespace': null,
  'same-payer': null,
  'callback-port': null,
  'card-data-in-git': null,
  'cvv-after-send': null,
  'batch-too-large': null,
  bom: null,
};

/**
 * The rule book's errors the gateway itself does not refuse, and so neither does the local gateway: it
 * creates one payment profile per row, so two rows of one client-orderid are two payments (issue 37). The
 * editor and the CLI refuse to send them; a batch that reaches a gateway anyway is created as sent.
 */
export const GATEWAY_ACCEPTS: ReadonlySet<Code> = new Set<Code>(['duplicate-order-id']);

/** A code the table does not know (a rule book newer than this local gateway's). */
export const OTHER_LINT_ERROR = '199';

export function lintErrorCode(code: string): string {
  return LintErrorCodes[code as Code] ?? OTHER_LINT_ERROR;
}
