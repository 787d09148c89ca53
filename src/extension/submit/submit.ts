import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import {
  createRecurringPayments,
  createRecurringPaymentsUrl,
  environmentProblems,
  fieldValue,
  prepareSubmission,
} from '../../core/gateway';
import * as fs from 'node:fs/promises';
import {
  completionFor,
  guardedSend,
  splitList,
  submissionEntry,
  type AlreadySentRow,
  type LocalGatewayRef,
  type SubmissionRecord,
} from '../../core/ledger';
import { localGatewayRef } from '../../local-gateway/finding';
import { maskText } from '../../core/output';
import { damageText } from '../../core/ledger/words';
import { askRowsAgain, askSendAgain, type RowsAnswer } from './resendQuestions';
import { holdsCvv, moveAlreadySentRows, offerStripCvv } from './ledgerEdits';
import { log, showErrorWithLog } from '../log';
import type { ResultsPanelApi } from '../results/register';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import type { SubmissionHistory } from '../history/history';
import { buildSubmissionView, sensitiveValues, summary, type SubmitOutcome } from './outcomeView';
import { resolveTarget, showTargetProblem, type Target, type TargetDeps } from '../environments/target';
import { documentFor, optionsArg, type CommandArgs } from '../commandArgs';

// Submit Recurring Payments File: submission preparation (lint gate, canonical text, payload, hash) →
// environment and credentials → the guarded send every face shares (in flight here? the same content sent
// before? rows sent before? production? row keys and "sending" on disk, one POST, cancellable, ledger
// completed) → results panel, notification, and for an accepted batch holding CVVs the offer to empty them.

export interface SubmitOptions {
  /** Answer for the production confirmation (tests, automation). Absent: ask. */
  confirm?: boolean;
  /** Answer for the "same content sent to this endpoint before" warning. Absent: ask. */
  sendAgain?: boolean;
  /** Answer for the "rows already sent" question: send them, not, or move them to a new file. Absent: ask. */
  sendRowsAgain?: boolean | 'move';
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
  | 'not-confirmed'
  | 'duplicate-declined'
  | 'already-sent'
  | 'in-flight'
  | 'ledger-failed'
  | 'ledger-damaged'
  | 'invalid-environment';

export type SubmitResult =
  | { status: 'sent'; outcome: SubmitOutcome['outcome']; record: SubmissionRecord; historyFile: string }
  | { status: 'refused'; reason: SubmitRefusal; message: string; rows?: number; movedTo?: string };

export interface SubmitCommandDeps extends TargetDeps {
  history: SubmissionHistory;
  results: ResultsPanelApi;
}

type Refused = Extract<SubmitResult, { status: 'refused' }>;

function refuse(reason: SubmitRefusal, message: string, notify = true): Refused {
  if (notify) void vscode.window.showErrorMessage(`PayGate: ${message}`);
  return { status: 'refused', reason, message };
}

export async function submitCommand(deps: SubmitCommandDeps, ...args: CommandArgs): Promise<SubmitResult> {
  const options = optionsArg<SubmitOptions>(args);
  if (!vscode.workspace.isTrusted) {
    return refuse('untrusted', 'Submitting is disabled in an untrusted workspace: trust this workspace to send files to a gateway.');
  }
  const doc = await documentFor(args);
  if (!doc) return refuse('no-file', 'Open a recurring-payments CSV file (or pick one in the explorer) to submit it.');
  const fileLabel = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
  const name = path.basename(doc.uri.path);
  const text = doc.getText();

  const prepared = prepareSubmission(text, name, await bytesOnDisk(doc));
  if (prepared.refusal?.reason === 'lint-errors') {
    const message = `${prepared.refusal.message}. Fix them first.`;
    void vscode.window.showErrorMessage(`PayGate: ${message}`, 'Show Problems').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return refuse('lint-errors', message, false);
  }
  if (prepared.refusal) return refuse(prepared.refusal.reason, `${prepared.refusal.message}.`);
  const batch = prepared.lint.batch;
  const rowCount = prepared.rowCount;

  const envName = options.environment ?? activeEnvironmentName();
  const resolved = await resolveTarget(deps, envName, 'create');
  if (!resolved.ok) {
    showTargetProblem(resolved);
    return { status: 'refused', reason: resolved.reason, message: resolved.message };
  }
  const target = resolved.target;
  const problems = environmentProblems(target.environment, target.paths, 'create');
  if (problems.length > 0) return refuse('invalid-environment', `${problems.join('; ')}. Nothing was sent.`);
  const endpoint = createRecurringPaymentsUrl(target.environment, target.paths);
  let localGateway: LocalGatewayRef | undefined;
  if (target.local) {
    try {
      localGateway = await localGatewayRef(target.local);
    } catch (err) {
      return refuse(
        'local-gateway-failed',
        `Nothing was sent: the local gateway did not say its date (${err instanceof Error ? err.message : String(err)}).`,
      );
    }
  }
  const ledger = deps.history.current;
  const sensitive = sensitiveValues(batch);
  let submittedAt = new Date().toISOString();
  let rowsAnswer: RowsAnswer = 'dont-send';

  let result;
  try {
    result = await guardedSend<SubmitOutcome>({
      ledger,
      entry: submissionEntry({
        face: 'editor',
        pid: process.pid,
        host: os.hostname(),
        environment: target.environment,
        environmentName: envName,
        paths: target.paths,
        file: fileLabel,
        prepared,
        signatureMethod: target.credentials.signatureMethod,
        ...(localGateway ? { localGateway } : {}),
      }),
      legacyHashes: prepared.legacyHashes,
      batch,
      confirmResend: async (previous) => options.sendAgain ?? (await askSendAgain(previous, name, envName, endpoint)),
      confirmRowResend: async (rows) => {
        rowsAnswer = rowsAnswerGiven(options.sendRowsAgain) ?? (await askRowsAgain(rows, name, envName));
        return rowsAnswer === 'send';
      },
      confirmSend: async () => {
        if (!isProduction(envName)) return true;
        return (
          options.confirm ??
          (await vscode.window.showWarningMessage(
            `Send ${rowCount} recurring payment${rowCount === 1 ? '' : 's'} to the PRODUCTION environment "${envName}"?`,
            { modal: true, detail: `File: ${name}\nEndpoint: ${endpoint}\nRows: ${rowCount}\n\nReal cards will be charged on schedule.` },
            'Send to production',
          )) === 'Send to production'
        );
      },
      send: async () => {
        submittedAt = new Date().toISOString();
        log().info(
          `Submit ${name} (${rowCount} rows, sha256 ${prepared.contentHash}) to ${envName}: ${endpoint} [${target.credentials.signatureMethod}]`,
        );
        return sendWithProgress(name, envName, target, prepared.payload);
      },
      completion: (outcome) => completionFor(outcome, summary(outcome, envName, sensitive)),
      sensitive,
    });
  } catch (err) {
    // The ledger could not be read or written, or a question could not be asked: either way before sending.
    return refuse(
      'ledger-failed',
      `Nothing was sent: ${err instanceof Error ? err.message : String(err)} (submission ledger ${ledger.filePath}).`,
    );
  }
  switch (result.status) {
    case 'in-flight':
      return refuse('in-flight', `${name} is already being sent to ${envName}; it is not sent a second time.`);
    case 'damaged':
      void showErrorWithLog(`PayGate: ${damageText(result.damage, ledger.filePath)}`);
      return refuse('ledger-damaged', `Not sent: ${name} may have been sent before (the submission ledger was damaged).`, false);
    case 'duplicate':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was already sent to ${envName} (endpoint ${target.environment.endpointId}).`,
        false,
      );
    case 'already-sent':
      return rowsRefused(doc, name, envName, result.rows, rowsAnswer);
    case 'raced':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was being sent to ${envName} at the same moment from another window or process.`,
      );
    case 'not-confirmed':
      return refuse('not-confirmed', `Not sent: ${name} to ${envName} was not confirmed.`, false);
    case 'sent':
      break;
  }
  const outcome = result.outcome;
  if (result.recordError) log().warn(`Submit ${name}: the answer could not be recorded in ${ledger.filePath}: ${result.recordError}`);
  const fields = 'fields' in outcome ? outcome.fields : {};
  const ids = outcome.outcome === 'accepted' || outcome.outcome === 'declined' ? splitList(fieldValue(fields, 'recurring-payment-id')) : [];
  const statuses = outcome.outcome === 'accepted' || outcome.outcome === 'declined' ? splitList(fieldValue(fields, 'status')) : [];
  const serialNumbers = splitList(fieldValue(fields, 'serial-number'));
  const line = summary(outcome, envName, sensitive);

  const view = buildSubmissionView({
    title: `Submission: ${name} → ${envName}`,
    outcome,
    signatureMethod: target.credentials.signatureMethod,
    batch,
    file: name,
    environment: envName,
    submittedAt,
    ids,
    statuses,
    serialNumbers,
  });
  deps.results.showSubmission(view).then(undefined, (err: unknown) => log().warn(`Results panel: ${String(err)}`));

  if (outcome.outcome === 'accepted') {
    log().info(`Submit ${name}: ${line}${serialNumbers.length ? `, serial-number ${serialNumbers.join(', ')}` : ''}`);
    void vscode.window.showInformationMessage(`PayGate: ${name}: ${line}`);
    if (holdsCvv(text)) await offerStripCvv(doc, name, options.stripCvv);
  } else {
    log().warn(`Submit ${name}: ${line}`);
    if ('raw' in outcome) log().debug(`Answer body: ${maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' ')}`);
    if (outcome.outcome === 'unknown') {
      void vscode.window.showWarningMessage(`PayGate: ${name}: ${line}`, { modal: false }, 'Show Log').then((c) => c && log().show());
    } else void showErrorWithLog(`PayGate: ${name}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: result.completed ?? result.record, historyFile: ledger.filePath };
}

/** The rows question answered by the command's options (tests, automation), or undefined: ask. */
function rowsAnswerGiven(given: boolean | 'move' | undefined): RowsAnswer | undefined {
  if (given === undefined || given === 'move') return given;
  return given ? 'send' : 'dont-send';
}

/**
 * The file's text as read from disk when the document shows it unchanged: versions up to 0.1 hashed those
 * bytes from the terminal, and the editor's buffer has lost which line breaks were which.
 */
async function bytesOnDisk(doc: vscode.TextDocument): Promise<string | undefined> {
  if (doc.uri.scheme !== 'file' || doc.isDirty) return undefined;
  return fs.readFile(doc.uri.fsPath, 'utf8').catch(() => undefined);
}

/** Rows already sent: nothing was sent; they were moved to a new file when the person chose so. */
async function rowsRefused(
  doc: vscode.TextDocument,
  name: string,
  envName: string,
  rows: readonly AlreadySentRow[],
  answer: RowsAnswer,
): Promise<SubmitResult> {
  const n = rows.length;
  const what = `${n} row${n === 1 ? ' of ' + name + ' was' : 's of ' + name + ' were'} already sent to ${envName}`;
  if (answer !== 'move') return { ...refuse('already-sent', `Not sent: ${what}.`, false), rows: n };
  try {
    const moved = await moveAlreadySentRows(doc, rows);
    if (!moved) return { ...refuse('already-sent', `Not sent: ${what}; only a file on disk can be split.`), rows: n };
    const movedName = path.basename(moved.path);
    void vscode.window.showInformationMessage(
      `PayGate: moved ${n} already-sent row${n === 1 ? '' : 's'} of ${name} to ${movedName}. ${name} now holds the rows not sent yet (unsaved): nothing was sent.`,
    );
    return {
      status: 'refused',
      reason: 'already-sent',
      message: `Not sent: ${what}; moved to ${movedName}.`,
      rows: n,
      movedTo: moved.fsPath,
    };
  } catch (err) {
    return {
      ...refuse('already-sent', `Not sent: ${what}; the rows could not be moved: ${err instanceof Error ? err.message : String(err)}`),
      rows: n,
    };
  }
}

function sendWithProgress(name: string, envName: string, target: Target, payload: string): Thenable<SubmitOutcome> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `PayGate: sending ${name} to ${envName}…`, cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        // Cancelling after the request went out comes back as outcome unknown (kind cancelled).
        return await createRecurringPayments({
          environment: target.environment,
          paths: target.paths,
          payload,
          credentials: target.credentials,
          timeoutMs: target.timeoutMs,
          signal: abort.signal,
        });
      } finally {
        sub.dispose();
      }
    },
  );
}
