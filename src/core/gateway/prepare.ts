import { contentHash } from '../contentHash';
import { canonicalBatchText, legacyContentHashes } from '../csv/canonical';
import { lint, type LintResult } from '../rules/lint';
import type { LintDiagnostic } from '../rules/types';
import { ourWords, said, typed, type Said } from '../output/said';

// Submission preparation, the one place every face gets a batch ready from: the lint gate, the text as
// sent (the batch's canonical text: csv/canonical.ts), its Base64 payload and the content hash.

/**
 * Why a batch may not be sent: what is wrong, as a `Said` (the file's name free text, a count a count),
 * without the "nothing was sent" each face says its own way (nothingSent: the terminal's).
 */
export interface SubmissionRefusal {
  reason: 'lint-errors' | 'no-rows';
  problem: Said;
}

/** A refusal's problem and "; nothing was sent", as the terminal (and the editor's lint-error notice) say it. */
export const nothingSent = (problem: Said): Said => said`${problem}; nothing was sent`;

export interface PreparedSubmission {
  /** Set when the batch may not be sent: lint errors, or a header without payment rows. */
  refusal?: SubmissionRefusal;
  /** Lint diagnostics of severity error: nothing may be sent while there is one. */
  errors: LintDiagnostic[];
  /** The whole lint result (batch rows for the results panel and the CVVs to scrub). */
  lint: LintResult;
  rowCount: number;
  /** The text as sent: the batch's canonical text (every line break CRLF, no BOM). */
  canonicalText: string;
  /** Base64 of the UTF-8 canonical text: the value of the form field `payload`. */
  payload: string;
  /** SHA-256 (hex) of the canonical text: the ledger's and the resend guard's name for the content. */
  contentHash: string;
  /** Hashes versions up to 0.1 may have recorded for this same batch (canonical.ts): guarded too. */
  legacyHashes: string[];
}

/**
 * The one submission gate every face asks: `name` is the file as the person knows it; `raw` the file's
 * text as read from disk when the face's text is not that (the editor's buffer), for the older hashes.
 */
export function prepareSubmission(text: string, name = 'the file', raw?: string): PreparedSubmission {
  const result = lint(text);
  const canonicalText = canonicalBatchText(text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const rowCount = result.batch.rows.length;
  let refusal: SubmissionRefusal | undefined;
  if (errors.length > 0)
    refusal = {
      reason: 'lint-errors',
      problem: said`${typed.text(name)} has ${typed.count(errors.length)} lint error${ourWords(errors.length === 1 ? '' : 's')}`,
    };
  else if (rowCount === 0) refusal = { reason: 'no-rows', problem: said`${typed.text(name)} has no payment rows (a header alone)` };
  return {
    ...(refusal ? { refusal } : {}),
    errors,
    lint: result,
    rowCount,
    canonicalText,
    payload: Buffer.from(canonicalText, 'utf8').toString('base64'),
    contentHash: contentHash(canonicalText),
    legacyHashes: legacyContentHashes(text, raw, result.batch.csv),
  };
}
