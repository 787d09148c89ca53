import type { GatewayOutcome, OutcomeName } from './outcome';

// The one table of outcomes every face renders: the name, the title a person reads first, what to do,
// the exit code of `paygate`, and whether the payments may exist after it. The CLI's text and the
// editor's notifications both take their words from here; the ledger's outcome field is typed by it, and
// the resend guards (file and row) ask it, never a list of names that a new outcome could fall through.

/** Exit codes shared by every command (lint and fix use 1 for "errors found / remain"). */
export const EXIT = { ok: 0, rejected: 1, usage: 2, auth: 3, transport: 4, unknown: 5 } as const;

export interface OutcomeInfo {
  title: string;
  /** What the person should do next; empty when nothing. */
  todo: string;
  exit: (typeof EXIT)[keyof typeof EXIT];
  /**
   * Whether the gateway may have created the payments: the resend guards hold such a batch (and its rows)
   * back. Any outcome that names created payments (recurring-payment ids) counts too, whatever it says here.
   */
  mayHaveCreated: boolean;
}

const CHECK = 'check in the gateway whether the payments exist before sending this file again (a plain re-run is refused)';

export const OUTCOMES: Record<OutcomeName, OutcomeInfo> = {
  accepted: { title: 'Accepted', todo: '', exit: EXIT.ok, mayHaveCreated: true },
  declined: {
    title: 'Declined',
    todo: 'Read the message; if recurring-payment ids came back, those payments exist and the batch counts as sent.',
    exit: EXIT.rejected,
    mayHaveCreated: false,
  },
  'validation-error': {
    title: 'Rejected',
    todo: 'Fix the file (the message names the row); nothing was created.',
    exit: EXIT.rejected,
    mayHaveCreated: false,
  },
  error: {
    title: 'Rejected',
    todo: 'Read the message and the error code; nothing was created.',
    exit: EXIT.rejected,
    mayHaveCreated: false,
  },
  'auth-failed': {
    title: 'Authentication failed',
    todo: 'Check the credentials of this environment.',
    exit: EXIT.auth,
    mayHaveCreated: false,
  },
  'server-error': {
    title: 'Server error',
    todo: "Quote the error ID to the gateway's support.",
    exit: EXIT.rejected,
    mayHaveCreated: false,
  },
  unknown: { title: 'OUTCOME UNKNOWN', todo: `The payments may exist: ${CHECK}.`, exit: EXIT.unknown, mayHaveCreated: true },
  'transport-error': {
    title: 'Not delivered',
    todo: 'Nothing was sent: fix the address or the network and send again.',
    exit: EXIT.transport,
    mayHaveCreated: false,
  },
  unrecognised: {
    title: 'Unrecognised answer',
    todo: `The request reached the gateway: ${CHECK}.`,
    exit: EXIT.rejected,
    mayHaveCreated: true,
  },
  // A report creates nothing (a report where a create answer was expected is recorded as unrecognised).
  report: { title: 'Report received', todo: '', exit: EXIT.ok, mayHaveCreated: false },
};

/** What the ledger records as a create's outcome: one of the table's, or `withdrawn` (never sent). */
export type LedgerOutcomeName = Exclude<OutcomeName, 'report'> | 'withdrawn' | LegacyOutcomeName;
/** Written by editors before the cancelled send became `unknown` (kind cancelled); read, never written. */
export type LegacyOutcomeName = 'cancelled';

/**
 * Whether each outcome the ledger can hold means the payments may exist, by type: a new outcome of the
 * table, or a new ledger-only one, does not compile until it says.
 */
export const LEDGER_MAY_HAVE_CREATED: Record<LedgerOutcomeName, boolean> = {
  ...(Object.fromEntries(Object.entries(OUTCOMES).map(([name, info]) => [name, info.mayHaveCreated])) as Record<OutcomeName, boolean>),
  /** Recorded when the request never left (a failed ledger write, a lost race, a production "no"). */
  withdrawn: false,
  /** An editor stopped waiting after the request went out: the old name of unknown (kind cancelled). */
  cancelled: true,
};

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
    case 'unrecognised':
      return `HTTP ${o.status}, ${o.contentType || 'no content type'}`;
    case 'report':
      return `${o.format.toUpperCase()}, ${o.contentType || 'no content type'}`;
  }
}

/** What to do, as every face says it (an authentication failure names what to check for its operation). */
export function outcomeTodo(o: GatewayOutcome): string {
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
