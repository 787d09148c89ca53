// What the results page shows for one Submit, and its guard: part of the results panel's protocol
// (resultsProtocol.ts), apart so each file holds one thing. Free of `vscode` and of Node APIs, as both sides
// import it.
import { isRec, isRows, isStr, isStringArray, optNum, optStr } from './guards';
import { isTransportKind, isUnknownKind, type RecordedUnknownKind, type TransportKind } from '../core/gateway/outcomeKinds';
import { recordedFacts, type HeadlineFacts, type PageOutcomeName } from '../core/gateway/outcomes';

/** Which secret or setting the user should look at when the gateway refused the signature. */
export type CredentialToCheck = 'consumer-key' | 'consumer-secret' | 'rsa-private-key' | 'endpoint-id' | 'environment';
const CREDENTIALS: readonly CredentialToCheck[] = ['consumer-key', 'consumer-secret', 'rsa-private-key', 'endpoint-id', 'environment'];

/**
 * One outcome as the page shows it: the core's outcome name (its headline, colour and "may exist" come
 * from the core's outcome table, src/core/gateway/outcomes.ts) and what the host read of the answer,
 * masked. Which fields are present depends on the answer, not on a list of outcomes kept here.
 */
export interface SubmissionOutcomeView extends HeadlineFacts {
  /** The answer's own words, or what the host says of it (masked). */
  message?: string;
  /** Why the fate is unknown (unknown) or why nothing was sent (transport-error). */
  kind?: RecordedUnknownKind | TransportKind;
  /** The gateway's error code, and a server error's error ID. */
  code?: string;
  errorId?: string;
  /** A refused signature: which operation, and what to check. */
  operation?: 'create' | 'report';
  check?: CredentialToCheck[];
}

/** The answer's per-row columns of a submission's table: shown first and pinned, so no one scrolls to them. */
export const OUTCOME_COLUMNS = ['recurring-payment-id', 'status', 'serial-number'] as const;

/**
 * What the panel shows for one Submit. `columns`/`rows` are the submitted rows as the gateway saw them,
 * with the answer's fields (recurring-payment-id, status, serial-number) appended as columns. The host
 * masks card numbers (first 6 / last 4) and drops cvv2 again before sending, whatever the caller passed.
 */
export interface SubmissionView {
  title: string;
  outcome: SubmissionOutcomeView;
  /** Name of the submitted file, environment and time, for the banner's second line. */
  file?: string;
  environment?: string;
  submittedAt?: string;
  /** Answer fields that belong to the whole request (e.g. serial-number), shown in the banner. */
  fields?: Record<string, string>;
  columns: string[];
  rows: string[][];
}

const isPageOutcome = (v: unknown): v is PageOutcomeName => typeof v === 'string' && v !== 'cancelled' && recordedFacts(v) !== undefined;
const isKind = (v: unknown): boolean => v === undefined || v === 'interrupted' || isUnknownKind(v) || isTransportKind(v);
const isChecks = (v: unknown): boolean =>
  v === undefined || (isStringArray(v) && v.every((c) => CREDENTIALS.includes(c as CredentialToCheck)));

function isOutcome(v: unknown): v is SubmissionOutcomeView {
  return (
    isRec(v) &&
    isPageOutcome(v.outcome) &&
    optNum(v.status) &&
    optStr(v.paymentStatus) &&
    optStr(v.contentType) &&
    optStr(v.message) &&
    isKind(v.kind) &&
    optStr(v.code) &&
    optStr(v.errorId) &&
    (v.operation === undefined || v.operation === 'create' || v.operation === 'report') &&
    isChecks(v.check)
  );
}

export function isSubmissionView(v: unknown): v is SubmissionView {
  return (
    isRec(v) &&
    isStr(v.title) &&
    isOutcome(v.outcome) &&
    optStr(v.file) &&
    optStr(v.environment) &&
    optStr(v.submittedAt) &&
    (v.fields === undefined || (isRec(v.fields) && Object.values(v.fields).every(isStr))) &&
    isStringArray(v.columns) &&
    isRows(v.rows)
  );
}
