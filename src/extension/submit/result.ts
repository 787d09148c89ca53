import type { SubmitTarget } from '../../core/submit/submitBatch';
import type { SubmissionRecord } from '../../core/ledger';
import type { Target, TargetDeps } from '../environments/target';
import type { EditorLedger } from '../ledger/editorLedger';
import type { ResultsPanelApi } from '../results/register';
import { showError } from '../say';
import type { SubmitOutcome } from './outcomeView';

// What the editor's submit returns (to tests and automation) and what it needs: shared by the command
// (submit.ts) and the words for how it ended (tell.ts).

export type SubmitRefusal =
  | 'untrusted'
  | 'no-file'
  | 'lint-errors'
  | 'no-rows'
  | 'unknown-environment'
  | 'no-credentials'
  | 'local-gateway-failed'
  | 'batch-too-large'
  | 'not-confirmed'
  | 'duplicate-declined'
  | 'already-sent'
  | 'in-flight'
  | 'ledger-failed'
  | 'ledger-damaged'
  | 'invalid-environment'
  | 'needs-approval';

export type SubmitResult =
  | { status: 'sent'; outcome: SubmitOutcome['outcome']; record: SubmissionRecord; ledgerFile: string; moved?: MovedRows }
  | { status: 'refused'; reason: SubmitRefusal; message: string; rows?: number; movedTo?: string; moved?: MovedRows };

/** The rows already sent that "Move … then send what is left" moved out before sending the rest. */
export interface MovedRows {
  rows: number;
  /** The new file holding them. */
  to: string;
}

export interface SubmitCommandDeps extends TargetDeps {
  ledger: EditorLedger;
  results: ResultsPanelApi;
}

export type Refused = Extract<SubmitResult, { status: 'refused' }>;

export function refuse(reason: SubmitRefusal, message: string, notify = true): Refused {
  if (notify) void showError(`PayGate: ${message}`);
  return { status: 'refused', reason, message };
}

/** The editor's target: the core's, with its credentials and the running local gateway. */
export type EditorTarget = Target & SubmitTarget;
