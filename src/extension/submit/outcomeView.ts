import type { GatewayOutcome } from '../../core/gateway/outcome';
import { fieldValue } from '../../core/gateway/outcome';
import { outcomeHeadline, outcomeTodo } from '../../core/gateway/outcomes';
import { maskTable, maskText } from '../../core/output';
import type { Batch } from '../../core/rules/batch';
import { OUTCOME_COLUMNS, type CredentialToCheck, type SubmissionOutcomeView, type SubmissionView } from '../../shared/resultsProtocol';
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

export function outcomeView(o: SubmitOutcome, signatureMethod: string, sensitive: readonly string[]): SubmissionOutcomeView {
  switch (o.outcome) {
    case 'accepted':
      return { outcome: 'accepted', status: o.status };
    case 'validation-error':
    case 'error':
      return {
        outcome: o.outcome,
        status: o.status,
        message: maskText(o.errorMessage ?? (o.raw.trim() || `type ${o.outcome}`), sensitive),
        ...(o.errorCode ? { code: o.errorCode } : {}),
      };
    case 'declined':
      return {
        outcome: 'declined',
        status: o.status,
        paymentStatus: o.paymentStatus,
        message: maskText(o.errorMessage ?? `status ${o.paymentStatus}`, sensitive),
        ...(o.errorCode ? { code: o.errorCode } : {}),
      };
    case 'unknown':
      return { outcome: 'unknown', kind: o.kind, message: o.message };
    case 'auth-failed':
      return {
        outcome: 'auth-failed',
        status: o.status,
        operation: o.operation,
        message: maskText(o.message, sensitive),
        check: credentialsToCheck(signatureMethod),
      };
    case 'server-error':
      return { outcome: 'server-error', status: o.status, ...(o.errorId ? { errorId: o.errorId } : {}) };
    case 'transport-error':
      return { outcome: 'transport-error', kind: o.kind, message: o.message };
    case 'unrecognised':
      return {
        outcome: 'error',
        status: o.status,
        message: maskText(
          `unrecognised answer (HTTP ${o.status}, ${o.contentType || 'no content type'}); the request reached the gateway, so check whether the payments exist before sending again. The answer as it came: ${o.raw.slice(0, 2000)}`,
          sensitive,
        ),
      };
    case 'report':
      return { outcome: 'error', status: o.status, message: `a report (${o.format}) came back where a create answer was expected` };
  }
}

/**
 * One line for a notification and the log, in the CLI's words: the core table's title and detail, the
 * answer's own words (masked), and what to do.
 */
export function summary(o: SubmitOutcome, environment: string, sensitive: readonly string[]): string {
  const todo = outcomeTodo(o);
  const said = answerWords(o, sensitive).replace(/[.\s]+$/, '');
  return `${outcomeHeadline(o)} at ${environment}${said ? `: ${said}` : ''}${todo ? `. ${todo}` : ''}`;
}

function answerWords(o: SubmitOutcome, sensitive: readonly string[]): string {
  switch (o.outcome) {
    case 'accepted': {
      const ids = splitList(fieldValue(o.fields, 'recurring-payment-id'));
      return ids.length ? `recurring-payment-id ${ids.join(', ')}` : '';
    }
    case 'validation-error':
    case 'error':
    case 'declined':
      return maskText(o.errorMessage ?? ('raw' in o ? o.raw.trim() : ''), sensitive);
    case 'auth-failed':
      return maskText(o.message, sensitive);
    case 'unknown':
    case 'transport-error':
      return o.message;
    case 'server-error':
    case 'unrecognised':
    case 'report':
      return '';
  }
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
    outcome: outcomeView(o.outcome, o.signatureMethod, sensitive),
    file: o.file,
    environment: o.environment,
    submittedAt: o.submittedAt,
    fields,
    ...submissionTable(o.batch, { ids: o.ids, statuses: o.statuses, serialNumbers: o.serialNumbers }),
  };
}
