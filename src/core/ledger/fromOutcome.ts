import { fieldValue, type GatewayOutcome } from '../gateway/outcome';
import { splitList, type Completion } from './records';

// What the ledger keeps of an answer: the outcome, the ids and serial numbers the gateway gave, the error
// code or id, and a message. Texts are masked by the ledger when written.

type Answer = GatewayOutcome;

/** The answer's own message: the gateway's error message first, else the outcome's message. */
function answerMessage(o: Answer): string | undefined {
  if ('errorMessage' in o && o.errorMessage !== undefined) return o.errorMessage;
  return 'message' in o ? o.message : undefined;
}

/** What an answer says per payment: picked out once, for the ledger and for every face. */
export interface AnswerIds {
  /** The recurring-payment ids created (only an accepted or declined answer names any). */
  ids: string[];
  /** Each payment's status, in the same order. */
  statuses: string[];
  /** One serial number per request, or one per payment. */
  serialNumbers: string[];
}

export function answerIds(o: Answer): AnswerIds {
  const fields = 'fields' in o ? o.fields : {};
  const created = o.outcome === 'accepted' || o.outcome === 'declined';
  return {
    ids: created ? splitList(fieldValue(fields, 'recurring-payment-id')) : [],
    statuses: created ? splitList(fieldValue(fields, 'status')) : [],
    serialNumbers: splitList(fieldValue(fields, 'serial-number')),
  };
}

export function completionFor(o: Answer, message?: string): Completion {
  const answer = answerIds(o);
  const text = message ?? answerMessage(o);
  return {
    // A report where a create answer was expected is an answer nobody can vouch for.
    outcome: o.outcome === 'report' ? 'unrecognised' : o.outcome,
    ...(o.outcome === 'unknown' || o.outcome === 'transport-error' ? { kind: o.kind } : {}),
    ...('status' in o && typeof o.status === 'number' ? { httpStatus: o.status } : {}),
    ...(text !== undefined ? { message: text } : {}),
    ...('errorCode' in o && o.errorCode !== undefined ? { errorCode: o.errorCode } : {}),
    ...(o.outcome === 'server-error' && o.errorId !== undefined ? { errorId: o.errorId } : {}),
    recurringPaymentIds: answer.ids,
    serialNumbers: answer.serialNumbers,
    statuses: answer.statuses,
  };
}
