import type { AlreadySentRow, SubmissionRecord } from '../../core/ledger';
import { describeEarlier } from '../ledger';
import { field } from '../output';
import { said, typed, type Said } from '../../core/output';
import type { PartsRun } from './types';

// The words of `paygate submit`'s guard refusals, each with the way on it offers.

/**
 * The way on that a refusal offers: --allow-resend; in a run of parts, naming that part, which sends it
 * alone again (the parts the ledger records as accepted are skipped either way).
 */
export function allowResendFor(file: string, parts?: PartsRun): string {
  return parts
    ? `--allow-resend ${field(file)} to send this part again (and the parts after it; the parts recorded as accepted are skipped either way)`
    : '--allow-resend';
}

export function rowsRefusal(
  file: string,
  environment: string,
  endpointId: string,
  rows: readonly AlreadySentRow[],
  parts?: PartsRun,
): string {
  const n = rows.length;
  return (
    `${file}: ${n} row${n === 1 ? ' was' : 's were'} already sent to ${environment}, endpoint ${endpointId} (listed above). ` +
    'Nothing was sent. Sending them again may create their payments twice: remove them from the file ' +
    `('paygate diff ${file} --against last' shows what changed since the last send), or, if you are sure, pass ${allowResendFor(file, parts)}.`
  );
}

export function resendRefusal(file: string, environment: string, endpointId: string, earlier: SubmissionRecord, parts?: PartsRun): Said {
  const where = said`${typed.text(file)}: the same content was already sent to ${typed.text(environment)}, endpoint ${typed.text(endpointId)}`;
  // allowResendFor's text holds the file's name already checked as a value (field): read again as text, unchanged.
  return said`${where}: ${describeEarlier(earlier)}.
Nothing was sent. Sending it again may create the payments twice; check in the gateway whether they exist, and if you are sure they do not, pass ${typed.text(allowResendFor(file, parts))} ('paygate history' lists what was sent).`;
}

/** Rows of the same card and schedule as rows sent under another id (listed above): nothing sent. */
export function samePayerRefusal(file: string, environment: string, endpointId: string, n: number): string {
  return (
    `${file}: ${n} row${n === 1 ? ' has' : 's have'} the card and schedule of a row already sent to ${environment}, endpoint ${endpointId} ` +
    'under another client-orderid (listed above). Nothing was sent. To the gateway these are new ids, so the same payers would be ' +
    "charged again: if that is what you mean (a new subscription, a renewal), pass --allow-same-payer; otherwise remove the rows ('paygate history' lists what was sent)."
  );
}
