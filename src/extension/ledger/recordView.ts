import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { withCrlfRecords } from '../../core/csv/write';
import { contentHash } from '../../core/contentHash';
import { readBatch } from '../../core/rules/batch';
import { OUTCOME_COLUMNS, type SubmissionOutcomeView, type SubmissionView } from '../../shared/resultsProtocol';
import { credentialsToCheck, submissionTable } from '../submit/outcomeView';
import type { SubmissionRecord } from '../../core/ledger';

// A submission from the ledger as the same readable panel a Submit shows: the outcome banner, and the
// rows with the gateway's answer first. The ledger keeps no rows (no card numbers), so the rows come from
// the file when it still holds exactly what was sent (same SHA-256); otherwise the table is the answer.

function outcomeOf(r: SubmissionRecord, interrupted: boolean): SubmissionOutcomeView {
  const message = r.message ?? '';
  if (r.state === 'sending') {
    return interrupted
      ? {
          outcome: 'unknown',
          kind: 'interrupted',
          message: 'No answer was recorded: the editor stopped while waiting. The gateway may have created the payments.',
        }
      : { outcome: 'unknown', kind: 'timeout', message: 'Still waiting for the gateway’s answer.' };
  }
  switch (r.outcome) {
    case 'accepted':
      return { outcome: 'accepted', status: r.httpStatus };
    case 'declined':
      return {
        outcome: 'declined',
        status: r.httpStatus ?? 0,
        paymentStatus: r.statuses[0] ?? 'declined',
        message,
        ...(r.errorCode ? { code: r.errorCode } : {}),
      };
    case 'validation-error':
    case 'error':
      return { outcome: r.outcome, status: r.httpStatus, message, ...(r.errorCode ? { code: r.errorCode } : {}) };
    case 'auth-failed':
      return { outcome: 'auth-failed', status: r.httpStatus, operation: 'create', message, check: credentialsToCheck(r.signatureMethod) };
    case 'server-error':
      return { outcome: 'server-error', status: r.httpStatus ?? 0, ...(r.errorId ? { errorId: r.errorId } : {}) };
    case 'transport-error':
      return { outcome: 'transport-error', kind: 'other', message };
    case 'unknown': {
      const reason =
        r.kind === 'timeout' ||
        r.kind === 'connection-lost' ||
        r.kind === 'truncated' ||
        r.kind === 'cancelled' ||
        r.kind === 'gateway-unavailable'
          ? r.kind
          : 'timeout';
      return { outcome: 'unknown', kind: reason, message: message || 'No whole answer came back.' };
    }
    case 'cancelled':
      return { outcome: 'unknown', kind: 'cancelled', message: message || 'You stopped waiting for the answer.' };
    default:
      return { outcome: 'error', status: r.httpStatus, message: message || `outcome ${r.outcome ?? 'not recorded'}` };
  }
}

/** The file's text when it still is what was sent; undefined when it changed, moved or is not a file. */
async function sentText(r: SubmissionRecord): Promise<string | undefined> {
  if (!path.isAbsolute(r.file)) return undefined;
  try {
    const text = await fs.readFile(r.file, 'utf8');
    return contentHash(withCrlfRecords(text)) === r.contentHash ? text : undefined;
  } catch {
    return undefined;
  }
}

export async function recordView(r: SubmissionRecord, interrupted: boolean): Promise<SubmissionView> {
  const answer = { ids: r.recurringPaymentIds, statuses: r.statuses, serialNumbers: r.serialNumbers };
  const text = await sentText(r);
  const fields: Record<string, string> = {};
  if (r.serialNumbers.length) fields['serial-number'] = r.serialNumbers.join(', ');
  if (r.errorId) fields['error-id'] = r.errorId;
  fields.endpoint = r.endpoint;
  let table: { columns: string[]; rows: string[][] };
  if (text !== undefined) table = submissionTable(readBatch(text), answer);
  else {
    fields.rows = `${r.rowCount} sent; the file has changed or moved since, so the table shows the gateway’s answer only.`;
    const n = Math.max(r.recurringPaymentIds.length, r.statuses.length);
    const serial = (i: number) => {
      if (r.serialNumbers.length === n) return r.serialNumbers[i];
      return r.serialNumbers.length === 1 ? r.serialNumbers[0] : '';
    };
    table = {
      columns: [...OUTCOME_COLUMNS],
      rows: Array.from({ length: n }, (_, i) => [r.recurringPaymentIds[i] ?? '', r.statuses[i] ?? '', serial(i) ?? '']),
    };
  }
  const name = path.basename(r.file);
  return {
    title: `Submission: ${name} → ${r.environment}`,
    outcome: outcomeOf(r, interrupted),
    file: name,
    environment: `${r.environment}${r.production ? ' (production)' : ''}`,
    submittedAt: r.time,
    fields,
    ...table,
  };
}
