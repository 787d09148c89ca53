import type { GatewayOutcome, OutcomeName } from './outcome';
import type { RecordedUnknownKind, TransportKind } from './outcomeKinds';

// The one table of outcomes: every fact every face tells about one lives in its row, read by the CLI's text,
// the editor's notifications, the page's banner, the ledger's guards and the history (never a list of names
// a new outcome could fall through). `satisfies Record<…>` makes a new outcome that does not state a fact
// fail to compile. Only type imports and outcomeKinds (no imports of its own): the results page loads this.

/** Exit codes shared by every command (lint and fix use 1 for "errors found / remain"). */
export const EXIT = { ok: 0, rejected: 1, usage: 2, auth: 3, transport: 4, unknown: 5 } as const;

/** How the page colours an outcome and which icon the history gives it. */
export type Tone = 'ok' | 'failed' | 'unknown';

/** What the ledger and the page need to know of any outcome a record can hold. */
export interface RecordedFacts {
  /**
   * Whether payments may exist after it: such a submission holds back a resend of the same content (and
   * its rows, `already-sent`). Any record naming recurring-payment ids counts as created as well.
   */
  mayHaveCreated: boolean;
  /** Nobody knows what the gateway did: the faces say "the payments may exist" and warn instead of failing. */
  unknown: boolean;
  /** The results page's headline (details follow in brackets where the outcome has them). */
  headline: string;
  tone: Tone;
  /** The word the ledger's lists (`paygate history`, the Submissions view) show. */
  label: string;
  /** The page headline's brackets: none, the payment status ("Declined (filtered)"), the HTTP status, or it and the content type. */
  headlineDetail: 'none' | 'payment-status' | 'http-status' | 'http-answer';
}

export interface OutcomeFacts extends RecordedFacts {
  /** The title a person reads first, in the terminal and the editor's notifications. */
  title: string;
  /** What the person should do next; empty when nothing. */
  todo: string;
  /** What to do when the report operation was answered so, where it differs from `todo` (a create's). */
  reportTodo?: string;
  exit: (typeof EXIT)[keyof typeof EXIT];
}

const CHECK = 'check in the gateway whether the payments exist before sending this file again (a plain re-run is refused)';

export const OUTCOMES = {
  accepted: {
    title: 'Accepted',
    todo: '',
    exit: EXIT.ok,
    mayHaveCreated: true,
    unknown: false,
    headline: 'Accepted',
    tone: 'ok',
    label: 'accepted',
    headlineDetail: 'none',
  },
  declined: {
    title: 'Declined',
    todo: 'Read the message; if recurring-payment ids came back, those payments exist and the batch counts as sent.',
    exit: EXIT.rejected,
    // A batch declined in part names the payments it created: the ids decide (see mayHaveCreated).
    mayHaveCreated: false,
    unknown: false,
    headline: 'Declined',
    tone: 'failed',
    label: 'declined',
    headlineDetail: 'payment-status',
  },
  'validation-error': {
    title: 'Rejected',
    todo: 'Fix the file (the message names the row); nothing was created.',
    exit: EXIT.rejected,
    mayHaveCreated: false,
    unknown: false,
    headline: 'Validation error',
    tone: 'failed',
    label: 'validation-error',
    headlineDetail: 'none',
  },
  error: {
    title: 'Rejected',
    todo: 'Read the message and the error code; nothing was created.',
    exit: EXIT.rejected,
    mayHaveCreated: false,
    unknown: false,
    headline: 'Error',
    tone: 'failed',
    label: 'error',
    headlineDetail: 'none',
  },
  'auth-failed': {
    title: 'Authentication failed',
    todo: 'Check the credentials of this environment.',
    exit: EXIT.auth,
    mayHaveCreated: false,
    unknown: false,
    headline: 'Authentication failed',
    tone: 'failed',
    label: 'auth-failed',
    headlineDetail: 'none',
  },
  'server-error': {
    title: 'Server error',
    todo: "Quote the error ID to the gateway's support.",
    exit: EXIT.rejected,
    mayHaveCreated: false,
    unknown: false,
    headline: 'Server error',
    tone: 'failed',
    label: 'server-error',
    headlineDetail: 'http-status',
  },
  unknown: {
    title: 'OUTCOME UNKNOWN',
    todo: `The payments may exist: ${CHECK}.`,
    exit: EXIT.unknown,
    mayHaveCreated: true,
    unknown: true,
    // Never "not delivered": the gateway may have created the payments.
    headline: 'Outcome unknown: the payments may exist',
    tone: 'unknown',
    label: 'unknown',
    headlineDetail: 'none',
  },
  'transport-error': {
    title: 'Not delivered',
    todo: 'Nothing was sent: fix the address or the network and send again.',
    exit: EXIT.transport,
    mayHaveCreated: false,
    unknown: false,
    headline: 'Not sent: could not reach the gateway',
    tone: 'failed',
    label: 'transport-error',
    headlineDetail: 'none',
  },
  'too-large': {
    title: 'Rejected as too large',
    todo: "Nothing was created. Cut the batch into smaller parts (paygate split --max-bytes N, N under the limit of whatever refused it; set it as the environment's maxPayloadBytes) and send the parts.",
    // The same request would be refused again as it is: a report is made smaller by asking for less.
    reportTodo:
      "No report was made, and the same request would be refused again as it is: ask for less (narrow the template's dates, or its filters) and run the report again.",
    exit: EXIT.rejected,
    // HTTP 413: the request was refused before it was processed, by the gateway or a proxy in front of it.
    mayHaveCreated: false,
    unknown: false,
    headline: 'Rejected as too large: nothing was created',
    tone: 'failed',
    label: 'too-large',
    headlineDetail: 'http-status',
  },
  unrecognised: {
    title: 'Unrecognised answer',
    todo: `The request reached the gateway: ${CHECK}.`,
    exit: EXIT.rejected,
    // Neither an acceptance nor a known refusal: nobody can vouch that nothing was created.
    mayHaveCreated: true,
    unknown: false,
    headline: 'Unrecognised answer',
    tone: 'unknown',
    label: 'unrecognised',
    headlineDetail: 'http-answer',
  },
  report: {
    title: 'Report received',
    todo: '',
    exit: EXIT.ok,
    // Only a create's answer is recorded; a report where one was expected is recorded as unrecognised.
    mayHaveCreated: true,
    unknown: false,
    headline: 'Report received',
    tone: 'ok',
    label: 'report',
    headlineDetail: 'http-answer',
  },
} as const satisfies Record<OutcomeName, OutcomeFacts>;

/** What the ledger records as a create's outcome: one of the table's, or `withdrawn` (never sent). */
export type LedgerOutcomeName = Exclude<OutcomeName, 'report'> | 'withdrawn' | LegacyOutcomeName;
/** Written by editors before the cancelled send became `unknown` (kind cancelled); read, never written. */
export type LegacyOutcomeName = 'cancelled';

/** The facts of every outcome a ledger record can hold: the table's, and two the ledger alone writes or keeps. */
const { report: _report, ...CREATE_OUTCOMES } = OUTCOMES;
export const RECORDED_OUTCOMES = {
  ...CREATE_OUTCOMES,
  withdrawn: {
    mayHaveCreated: false,
    unknown: false,
    headline: 'Not sent',
    tone: 'failed',
    label: 'withdrawn (never sent)',
    headlineDetail: 'none',
  },
  cancelled: { ...OUTCOMES.unknown, label: 'cancelled while waiting' },
} as const satisfies Record<LedgerOutcomeName, RecordedFacts>;

/** The outcomes the results page shows: every recorded one but the legacy name (shown as unknown, cancelled). */
export type PageOutcomeName = Exclude<LedgerOutcomeName, LegacyOutcomeName>;

/** Facts of a recorded outcome; a name this version does not know may have created payments. */
export function recordedFacts(name: string | undefined): RecordedFacts | undefined {
  return name !== undefined && Object.hasOwn(RECORDED_OUTCOMES, name) ? RECORDED_OUTCOMES[name as LedgerOutcomeName] : undefined;
}

/** What the page knows of an outcome when it writes its headline (a view of an answer or of a ledger record). */
export interface HeadlineFacts {
  outcome: PageOutcomeName;
  status?: number;
  paymentStatus?: string;
  /** Absent when the ledger recorded the answer (it keeps no content type). */
  contentType?: string;
}

/** The page's headline: the table's, with its detail in brackets where the row asks for one. */
export function pageHeadline(o: HeadlineFacts): string {
  const facts = RECORDED_OUTCOMES[o.outcome];
  const detail = headlineDetail(facts.headlineDetail, o);
  return detail ? `${facts.headline} (${detail})` : facts.headline;
}

function headlineDetail(which: RecordedFacts['headlineDetail'], o: HeadlineFacts): string {
  if (which === 'payment-status') return o.paymentStatus ?? '';
  if (o.status === undefined || which === 'none') return '';
  if (which === 'http-answer' && o.contentType !== undefined) return unrecognisedDetail(o.status, o.contentType);
  return `HTTP ${o.status}`;
}

/** An unrecognised answer's detail, as every face says it (the CLI's headline and the page's). */
export const unrecognisedDetail = (status: number, contentType: string) => `HTTP ${status}, ${contentType || 'no content type'}`;

/**
 * The detail that follows the title, the same in every face: the kind, the HTTP status, the payment
 * status or the error code/ID. No free text (masked elsewhere).
 */
export function outcomeDetail(o: GatewayOutcome): string {
  switch (o.outcome) {
    case 'accepted':
      return `HTTP ${o.status}${Object.keys(o.fields).length === 0 ? ', empty answer' : ''}`;
    case 'declined':
      return `status ${o.paymentStatus}${o.errorCode !== undefined ? `, code ${o.errorCode}` : ''}`;
    case 'validation-error':
    case 'error':
      return `${o.outcome}${o.errorCode !== undefined ? `, code ${o.errorCode}` : ''}`;
    case 'server-error':
      return `HTTP ${o.status}${o.errorId !== undefined ? `, error ID ${o.errorId}` : ', no error ID'}`;
    case 'auth-failed':
      return `HTTP ${o.status}`;
    case 'unknown':
      return o.kind;
    case 'transport-error':
      return o.kind;
    case 'too-large':
      return `HTTP ${o.status}`;
    case 'unrecognised':
      return unrecognisedDetail(o.status, o.contentType);
    case 'report':
      return `${o.format.toUpperCase()}, ${o.contentType || 'no content type'}`;
  }
}

/**
 * What to do, as every face says it: the report operation's own where the table has one; an authentication
 * failure names what to check for its operation.
 */
export function outcomeTodo(o: GatewayOutcome): string {
  const facts: OutcomeFacts = OUTCOMES[o.outcome];
  if ('operation' in o && o.operation === 'report' && facts.reportTodo !== undefined) return facts.reportTodo;
  if (o.outcome === 'auth-failed')
    return o.operation === 'create'
      ? // A create 403 cannot tell the three apart, so all three suspects are named.
        'Check the consumer key, the signing key (RSA private key or consumer secret) and the endpoint id of this environment.'
      : 'Check the consumer key and the consumer secret of this environment.';
  return OUTCOMES[o.outcome].todo;
}

/** "Title (detail)", as every face heads an outcome. */
export function outcomeHeadline(o: GatewayOutcome): string {
  return `${OUTCOMES[o.outcome].title} (${outcomeDetail(o)})`;
}

/** Why the fate is unknown, in the page's and the history's words. */
export const UNKNOWN_REASON = {
  timeout: 'The request was sent, but no complete answer came back in time.',
  'connection-lost': 'The request was sent, but the connection was lost before an answer came back.',
  truncated: 'The request was sent, but the answer was cut off.',
  cancelled: 'The request was sent, and you stopped waiting for the answer.',
  interrupted: 'The request was sent, and the editor stopped before an answer was recorded.',
  'gateway-unavailable':
    'The request was sent, and something in front of the gateway (a proxy or load balancer) answered with an HTTP 5xx instead of the gateway.',
} as const satisfies Record<RecordedUnknownKind, string>;

/** Why nothing was sent. */
export const TRANSPORT_REASON = {
  refused: 'The connection was refused: is the gateway (or the local gateway) running at that address?',
  timeout: 'The gateway did not answer in time (paygate.requestTimeoutSeconds).',
  tls: 'The TLS handshake failed: check the base URL and the certificate.',
  other: 'The request did not reach the gateway.',
} as const satisfies Record<TransportKind, string>;
