import * as os from 'node:os';
import * as path from 'node:path';
import { errorMessage } from '../../core/errorMessage';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { approveBatch, approvedLines, type ApproveResult } from '../../core/submit/approveBatch';
import { optionsArg, type CommandArgs } from '../commandArgs';
import { documentFor } from '../diskDocument';
import { activeEnvironmentName, configuredEnvironment } from '../environments/settings';
import { TEAM_REMEDY, type EditorLedger } from '../ledger/editorLedger';
import { LEDGER_URL_SETTING } from '../ledger/ledgerDirectory';
import { log } from '../log';
import { showError, showInfo } from '../say';
import { said, saidText, typed, type Said } from '../../core/output';

// "PayGate: Approve Batch": the checker's half of maker-checker from the editor, the core's use case that
// `paygate approve` runs too (core/submit/approveBatch.ts): the lint gate, then this member's approval (the
// database role of `paygate.ledger.url`) of the document's exact content for the environment.

export interface ApproveOptions {
  /** Approve for this environment instead of the active one. */
  environment?: string;
}

export type ApproveCommandResult =
  | Extract<ApproveResult, { status: 'approved' }>
  | { status: 'refused'; reason: 'no-file' | 'unknown-environment' | 'no-team-ledger' | 'lint-errors' | 'ledger-failed'; message: string };

/** `message`: our words as a string (its values read whole, as free text), or a `Said` laid out value by value. */
function refused(reason: Extract<ApproveCommandResult, { status: 'refused' }>['reason'], message: string | Said): ApproveCommandResult {
  const shown = typeof message === 'string' ? said`${typed.text(message)}` : message;
  void showError(said`PayGate: ${shown}`);
  return { status: 'refused', reason, message: saidText(shown) };
}

export async function approveCommand(ledger: EditorLedger, ...args: CommandArgs): Promise<ApproveCommandResult> {
  const options = optionsArg<ApproveOptions>(args);
  const doc = await documentFor(args);
  if (!doc) return refused('no-file', 'Open the recurring-payments CSV file to approve it.');
  const name = path.basename(doc.uri.path);
  const envName = options.environment ?? activeEnvironmentName();
  const environment = envName === LOCAL_ENVIRONMENT ? { name: LOCAL_ENVIRONMENT } : configuredEnvironment(envName);
  if (!environment) return refused('unknown-environment', `There is no environment named "${envName}": ${name} was not approved.`);
  let result: ApproveResult;
  try {
    const store = await ledger.store();
    if (store.kind !== 'team')
      return refused(
        'no-team-ledger',
        `Approvals live in the team ledger, not in this machine's file ledger: set "paygate.${LEDGER_URL_SETTING}" (docs/submissions.md, "One ledger for a team"). ${name} was not approved.`,
      );
    result = await approveBatch(store, environment, doc.getText(), name, os.hostname());
    ledger.touched();
  } catch (err) {
    return refused('ledger-failed', `${name} was not approved: ${errorMessage(err)}; ${TEAM_REMEDY}.`);
  }
  if (result.status === 'refused') return refused('lint-errors', said`${typed.text(name)}: ${result.message}.`);
  const [what, all] = approvedLines(result, name, environment.name);
  log().info(said`Approve ${typed.text(name)}: ${what} ${all}`);
  void showInfo(said`PayGate: ${what} ${all}`);
  return result;
}
