import { fieldValue, type GatewayOutcome } from '../gateway/outcome';
import { splitList, type Completion } from './records';

// What the ledger keeps of an answer: the outcome, the ids and serial numbers the gateway gave, the error
// code or id, and a message. Texts are masked by the ledger when written.

export function completionFor(o: GatewayOutcome | { outcome: 'cancelled'; message: string }, message?: string): Completion {
  const fields = 'fields' in o ? o.fields : {};
  const created = o.outcome === 'accepted' || o.outcome === 'declined';
  const text = message ?? ('errorMessage' in o && o.errorMessage !== undefined ? o.errorMessage : 'message' in o ? o.message : undefined);
  return {
    outcome: o.outcome,
    ...(o.outcome === 'unknown' || o.outcome === 'transport-error' ? { kind: o.kind } : {}),
    ...('status' in o && typeof o.status === 'number' ? { httpStatus: o.status } : {}),
    ...(text !== undefined ? { message: text } : {}),
    ...('errorCode' in o && o.errorCode !== undefined ? { errorCode: o.errorCode } : {}),
    ...(o.outcome === 'server-error' && o.errorId !== undefined ? { errorId: o.errorId } : {}),
    recurringPaymentIds: created ? splitList(fieldValue(fields, 'recurring-payment-id')) : [],
    serialNumbers: splitList(fieldValue(fields, 'serial-number')),
    statuses: created ? splitList(fieldValue(fields, 'status')) : [],
  };
}
