import type { AlreadySentRow, SubmissionRecord } from '../../core/ledger';
import { describeEarlier } from '../ledger';
import { ourWords, said, typed, type Said } from '../../core/output';
import type { PartsRun } from './types';

// The words of `paygate submit`'s guard refusals, each with the way on it offers. The file, the environment
// and the endpoint are values of their own (free text), the number of rows a count (issue 38: values, not layouts).

/**
 * The way on that a refusal offers: --allow-resend; in a run of parts, naming that part, which sends it
 * alone again (the parts the ledger records as accepted are skipped either way).
 */
export function allowResendFor(file: string, parts?: PartsRun): Said {
  return parts
    ? said`--allow-resend ${typed.text(file)} to send this part again (and the parts after it; the parts recorded as accepted are skipped either way)`
    : ourWords('--allow-resend');
}

/** Where a refusal's batch was already sent: the file, the environment and the endpoint. */
const sentTo = (environment: string, endpointId: string): Said => said`${typed.text(environment)}, endpoint ${typed.text(endpointId)}`;

export function rowsRefusal(
  file: string,
  environment: string,
  endpointId: string,
  rows: readonly AlreadySentRow[],
  parts?: PartsRun,
): Said {
  const n = rows.length;
  return said`${typed.text(file)}: ${typed.count(n)} ${ourWords(n === 1 ? 'row was' : 'rows were')} already sent to ${sentTo(environment, endpointId)} (listed above). Nothing was sent. Sending them again may create their payments twice: remove them from the file ('paygate diff ${typed.text(file)} --against last' shows what changed since the last send), or, if you are sure, pass ${allowResendFor(file, parts)}.`;
}

export function resendRefusal(file: string, environment: string, endpointId: string, earlier: SubmissionRecord, parts?: PartsRun): Said {
  const where = said`${typed.text(file)}: the same content was already sent to ${sentTo(environment, endpointId)}`;
  return said`${where}: ${describeEarlier(earlier)}.
Nothing was sent. Sending it again may create the payments twice; check in the gateway whether they exist, and if you are sure they do not, pass ${allowResendFor(file, parts)} ('paygate history' lists what was sent).`;
}

/** Rows of the same card and schedule as rows sent under another id (listed above): nothing sent. */
export function samePayerRefusal(file: string, environment: string, endpointId: string, n: number): Said {
  return said`${typed.text(file)}: ${typed.count(n)} ${ourWords(n === 1 ? 'row has' : 'rows have')} the card and schedule of a row already sent to ${sentTo(environment, endpointId)} under another client-orderid (listed above). Nothing was sent. To the gateway these are new ids, so the same payers would be charged again: if that is what you mean (a new subscription, a renewal), pass --allow-same-payer; otherwise remove the rows ('paygate history' lists what was sent).`;
}
