import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { stillAsSent } from '../../core/reconcile';
import { readBatch } from '../../core/rules/batch';
import { OUTCOME_COLUMNS, type SubmissionOutcomeView, type SubmissionView } from '../../shared/submissionView';
import { acceptedLine, credentialsToCheck, submissionTable } from '../results/outcomeView';
import { isTransportKind, isUnknownKind } from '../../core/gateway/outcomeKinds';
import { recordedFacts, type PageOutcomeName, type RecordedFacts } from '../../core/gateway/outcomes';
import type { SubmissionRecord } from '../../core/ledger';

// A submission from the ledger as the same readable panel a Submit shows: the outcome banner, and the
// rows with the gateway's answer first. The ledger keeps no rows (no card numbers), so the rows come from
// the file when it still holds exactly what was sent (same SHA-256); otherwise the table is the answer.

/** What a record that never got its answer shows: still waiting, or interrupted while waiting. */
function sendingView(interrupted: boolean): SubmissionOutcomeView {
  return interrupted
    ? {
        outcome: 'unknown',
        kind: 'interrupted',
        message: 'No answer was recorded: the editor stopped while waiting. The gateway may have created the payments.',
      }
    : { outcome: 'unknown', kind: 'timeout', message: 'Still waiting for the gateway’s answer.' };
}

/** The legacy `cancelled` is unknown (kind cancelled); a name this version does not know is unrecognised. */
function shownName(name: string | undefined, known: boolean): PageOutcomeName {
  if (name === 'cancelled') return 'unknown';
  return known ? (name as PageOutcomeName) : 'unrecognised';
}

/**
 * The page's view of a recorded outcome, by the core's outcome table: every recorded name is shown as
 * itself (the legacy `cancelled` as unknown, kind cancelled); a name this version does not know as
 * unrecognised, never as a plain error.
 */
function outcomeOf(r: SubmissionRecord, interrupted: boolean): SubmissionOutcomeView {
  if (r.state === 'sending') return sendingView(interrupted);
  const facts = recordedFacts(r.outcome);
  const legacy = r.outcome === 'cancelled';
  const view: SubmissionOutcomeView = { outcome: shownName(r.outcome, facts !== undefined) };
  if (r.httpStatus !== undefined) view.status = r.httpStatus;
  if (view.outcome === 'declined') view.paymentStatus = r.statuses[0] ?? 'declined';
  const kind = legacy ? 'cancelled' : r.kind;
  if (facts?.unknown && isUnknownKind(kind)) view.kind = kind;
  else if (view.outcome === 'transport-error') view.kind = isTransportKind(kind) ? kind : 'other';
  else if (view.outcome === 'unknown') view.kind = 'timeout';
  if (r.errorCode) view.code = r.errorCode;
  if (r.errorId) view.errorId = r.errorId;
  if (view.outcome === 'auth-failed') {
    view.operation = 'create';
    view.check = credentialsToCheck(r.signatureMethod);
  }
  const message = recordMessage(r, view.outcome, facts);
  if (message) view.message = message;
  return view;
}

function recordMessage(r: SubmissionRecord, shown: PageOutcomeName, facts: RecordedFacts | undefined): string {
  if (shown === 'accepted') return acceptedLine(r.rowCount);
  if (r.message) return r.message;
  if (facts?.unknown) return 'No whole answer came back.';
  return facts ? '' : `outcome ${r.outcome ?? 'not recorded'}, which this version does not know`;
}

/** The file's text when it still is what was sent; undefined when it changed, moved or is not a file. */
async function sentText(r: SubmissionRecord): Promise<string | undefined> {
  if (!path.isAbsolute(r.file)) return undefined;
  try {
    const text = await fs.readFile(r.file, 'utf8');
    return stillAsSent(text, r) ? text : undefined;
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
