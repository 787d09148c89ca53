import { createHash } from 'node:crypto';
import { withCrlfRecords } from '../csv/write';
import { lint, type LintResult } from '../rules/lint';
import type { LintDiagnostic } from '../rules/types';

// Submission preparation, the one place every face gets a batch ready from: the lint gate, the text as
// sent (CRLF records, no BOM), its Base64 payload and the content hash, all from ONE parse of the file.

export interface PreparedSubmission {
  /** Lint diagnostics of severity error: nothing may be sent while there is one. */
  errors: LintDiagnostic[];
  /** The whole lint result (batch rows for the results panel and the CVVs to scrub). */
  lint: LintResult;
  rowCount: number;
  /** The text as sent: CRLF record separators, no BOM. */
  crlfText: string;
  /** Base64 of the UTF-8 CRLF text: the value of the form field `payload`. */
  payload: string;
  /** SHA-256 (hex) of the CRLF text: the ledger's and the resend guard's name for the content. */
  contentHash: string;
}

/** SHA-256 (hex) of a text's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function prepareSubmission(text: string): PreparedSubmission {
  const result = lint(text);
  const crlfText = withCrlfRecords(text, result.batch.csv);
  return {
    errors: result.diagnostics.filter((d) => d.severity === 'error'),
    lint: result,
    rowCount: result.batch.rows.length,
    crlfText,
    payload: Buffer.from(crlfText, 'utf8').toString('base64'),
    contentHash: sha256Hex(crlfText),
  };
}
