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

/** validation-error for the rule book's error codes: the first error of the file is answered. */
export const LintErrorCodes: Partial<Record<Code, string>> = {
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
};

/** Any rule-book error code added later without a number of its own. */
export const OTHER_LINT_ERROR = '199';

export function lintErrorCode(code: string): string {
  return LintErrorCodes[code as Code] ?? OTHER_LINT_ERROR;
}
