import type { SubmissionRecord } from '../../core/ledger';
import type { SubmitResult as CoreSubmitResult, SubmitTarget } from '../../core/submit/submitBatch';
import type { Target, TargetDeps } from '../environments/target';
import type { EditorLedger } from '../ledger/editorLedger';
import type { ResultsPanelApi } from '../results/register';
import { showError } from '../say';
import type { SubmitOutcome } from '../results/outcomeView';
import { said, saidText, typed, type Said } from '../../core/output';

// What the submit command's steps share: its options (the answers tests and automation give), what it
// returns, what it needs, and the editor's target.

export interface SubmitOptions {
  /** Answer for the production confirmation (tests, automation). Absent: ask. */
  confirm?: boolean;
  /** Answer for the "same content sent to this endpoint before" warning. Absent: ask. */
  sendAgain?: boolean;
  /** Answer for the "rows already sent" question: send them, not, or move them to a new file. Absent: ask. */
  sendRowsAgain?: boolean | 'move';
  /**
   * Answer for the "same payer under another id" question (rows whose card and schedule went to the target
   * under another client-orderid): send them or not. Absent: ask.
   */
  sendSamePayer?: boolean;
  /** Answer for the offer to empty the CVVs of an accepted batch. Absent: offered in a notification. */
  stripCvv?: boolean;
  /** Send to this environment instead of the active one. */
  environment?: string;
}

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
  | 'same-payer'
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
  if (notify) void showError(said`PayGate: ${typed.text(message)}`);
  return { status: 'refused', reason, message };
}

/** A refusal laid out from the core's `Said` (each value checked alone): shown so, and returned as its text. */
export function refuseSaid(reason: SubmitRefusal, message: Said, notify = true): Refused {
  if (notify) void showError(said`PayGate: ${message}`);
  return { status: 'refused', reason, message: saidText(message) };
}

/** The editor's target: the core's, with its credentials and the running local gateway. */
export type EditorTarget = Target & SubmitTarget;

export type CoreResult = CoreSubmitResult<EditorTarget, SubmitResult>;
