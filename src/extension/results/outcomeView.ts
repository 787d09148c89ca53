import type { GatewayOutcome } from '../../core/gateway/outcome';
import { fieldValue } from '../../core/gateway/outcome';
import { outcomeHeadline, outcomeTodo } from '../../core/gateway/outcomes';
import { joinSaid, maskTable, maskText, said, typed, type Said } from '../../core/output';
import type { Batch } from '../../core/rules/batch';
import { OUTCOME_COLUMNS, type CredentialToCheck, type SubmissionOutcomeView, type SubmissionView } from '../../shared/submissionView';
import { splitList } from '../../core/ledger';

// From the gateway's answer to what the user sees: the results panel's view, a one-line summary and the
// history's fields. Everything that leaves here is masked: card numbers 6/4, CVV dropped, free texts scrubbed.

/** A create's outcome (stopping the wait after the request went out is `unknown`, kind `cancelled`). */
export type SubmitOutcome = GatewayOutcome;

const CARD = 'credit-card-number';
const CVV = 'cvv2';

/** The batch's card numbers and CVVs, so any echo of them in an answer can be removed. */
export function sensitiveValues(batch: Batch): string[] {
  const out: string[] = [];
  for (const row of batch.rows) {
    for (const column of [CARD, CVV]) {
      const v = row.value(column)?.trim();
      if (v) out.push(v);
    }
  }
  return out;
}

export function credentialsToCheck(signatureMethod: string): CredentialToCheck[] {
  return signatureMethod === 'RSA-SHA256'
    ? ['consumer-key', 'rsa-private-key', 'endpoint-id', 'environment']
    : ['consumer-key', 'consumer-secret', 'endpoint-id', 'environment'];
}

/** "The gateway accepted 2 recurring payments.": the accepted banner's line, after Submit and from the ledger. */
export const acceptedLine = (rows: number) =>
  `The gateway accepted ${rows === 1 ? 'the recurring payment' : `${rows} recurring payments`}.`;

/**
 * The answer's words under the page's headline, unmasked: the gateway's own message where it gave one,
 * else what the host says of the answer. Outcomes without a word of their own fall to the answer's shape.
 */
function pageMessage(o: SubmitOutcome, rows: number): string {
  if (o.outcome === 'accepted') return acceptedLine(rows);
  if ('errorMessage' in o && o.errorMessage !== undefined) return o.errorMessage;
  if ('message' in o) return o.message;
  switch (o.outcome) {
    case 'declined':
      return `status ${o.paymentStatus}`;
    case 'server-error':
      return o.errorId ? '' : 'The gateway gave no error ID.';
    case 'unrecognised':
      return `The request reached the gateway, so check whether the payments exist before sending again. The answer as it came: ${o.raw.slice(0, 2000)}`;
    case 'report':
      return `A report (${o.format}) came back where a create answer was expected: check whether the payments exist before sending again.`;
    default:
      return 'raw' in o ? o.raw.trim() || `type ${o.outcome}` : '';
  }
}

/** The page's view of an answer: the core's outcome name and what the answer carried, masked. */
export function outcomeView(o: SubmitOutcome, signatureMethod: string, sensitive: readonly string[], rows = 0): SubmissionOutcomeView {
  // A report where a create answer was expected is recorded (and so shown) as unrecognised.
  const view: SubmissionOutcomeView = { outcome: o.outcome === 'report' ? 'unrecognised' : o.outcome };
  if ('status' in o && o.status !== undefined) view.status = o.status;
  if ('contentType' in o) view.contentType = o.contentType;
  if ('paymentStatus' in o) view.paymentStatus = o.paymentStatus;
  if ('kind' in o) view.kind = o.kind;
  if ('errorCode' in o && o.errorCode) view.code = o.errorCode;
  if ('errorId' in o && o.errorId) view.errorId = o.errorId;
  if ('operation' in o) {
    view.operation = o.operation;
    view.check = credentialsToCheck(signatureMethod);
  }
  const message = pageMessage(o, rows);
  if (message) view.message = maskText(message, sensitive);
  return view;
}

/**
 * One line for a notification and the log, in the CLI's words: the core table's title and detail, the
 * answer's own words (masked), and what to do; a `Said`, so the payment ids and the gateway's words are
 * checked each alone where the line is shown (issue 38).
 */
export function summary(o: SubmitOutcome, environment: string, sensitive: readonly string[]): Said {
  const todo = outcomeTodo(o);
  const words = answerWords(o, sensitive);
  return said`${typed.text(outcomeHeadline(o))} at ${typed.text(environment)}${words ? said`: ${words}` : said``}${todo ? said`. ${typed.text(todo)}` : said``}`;
}

/** The answer's words as one free-text value, without the full stop the line puts after it. */
const answerText = (text: string): Said | undefined => {
  const t = text.replace(/[.\s]+$/, '');
  return t ? said`${typed.text(t)}` : undefined;
};

function answerWords(o: SubmitOutcome, sensitive: readonly string[]): Said | undefined {
  switch (o.outcome) {
    case 'accepted': {
      const ids = splitList(fieldValue(o.fields, 'recurring-payment-id'));
      return ids.length
        ? said`recurring-payment-id ${joinSaid(
            ids.map((id) => typed.text(id)),
            ', ',
          )}`
        : undefined;
    }
    case 'validation-error':
    case 'error':
    case 'declined':
      return answerText(maskText(o.errorMessage ?? ('raw' in o ? o.raw.trim() : ''), sensitive));
    case 'auth-failed':
      return answerText(maskText(o.message, sensitive));
    case 'unknown':
    case 'transport-error':
      return answerText(o.message);
    case 'server-error':
    case 'unrecognised':
    case 'report':
      return undefined;
    default:
      return answerText(plainWords(o, sensitive));
  }
}

/** An outcome without words of its own here: the gateway's error message or the outcome's message, masked. */
function plainWords(o: SubmitOutcome, sensitive: readonly string[]): string {
  if ('errorMessage' in o && o.errorMessage !== undefined) return maskText(o.errorMessage, sensitive);
  return 'message' in o ? maskText(o.message, sensitive) : '';
}

/**
 * The submitted rows as the gateway saw them, card numbers masked, CVV left out, and the answer's columns
 * (OUTCOME_COLUMNS) first: what happened to each row is the first thing read, not 30 columns to the right.
 */
export function submissionTable(
  batch: Batch,
  answer: { ids: string[]; statuses: string[]; serialNumbers?: string[] },
): { columns: string[]; rows: string[][] } {
  const known = batch.columns.filter((c): c is string => c !== null);
  const serials = answer.serialNumbers ?? [];
  // One serial number per request, or one per payment when the gateway lists them.
  const serialOf = (r: number) => {
    if (serials.length === batch.rows.length) return serials[r];
    return serials.length === 1 ? serials[0] : '';
  };
  const rows = batch.rows.map((row, r) => [
    answer.ids[r] ?? '',
    answer.statuses[r] ?? '',
    serialOf(r) ?? '',
    ...known.map((c) => row.value(c) ?? ''),
  ]);
  return maskTable([...OUTCOME_COLUMNS, ...known], rows);
}

export function buildSubmissionView(o: {
  title: string;
  outcome: SubmitOutcome;
  signatureMethod: string;
  batch: Batch;
  file: string;
  environment: string;
  submittedAt: string;
  ids: string[];
  statuses: string[];
  serialNumbers: string[];
}): SubmissionView {
  const sensitive = sensitiveValues(o.batch);
  const fields: Record<string, string> = {};
  if (o.serialNumbers.length) fields['serial-number'] = o.serialNumbers.join(', ');
  if (o.outcome.outcome === 'server-error' && o.outcome.errorId) fields['error-id'] = o.outcome.errorId;
  return {
    title: o.title,
    outcome: outcomeView(o.outcome, o.signatureMethod, sensitive, o.batch.rows.length),
    file: o.file,
    environment: o.environment,
    submittedAt: o.submittedAt,
    fields,
    ...submissionTable(o.batch, { ids: o.ids, statuses: o.statuses, serialNumbers: o.serialNumbers }),
  };
}
