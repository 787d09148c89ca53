import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import { createRecurringPayments, createRecurringPaymentsUrl, OUTCOMES, type PreparedSubmission } from '../../core/gateway';
import type { ResendBlocker, SubmissionRecord } from '../../core/ledger';
import { submitBatch, type SubmitResult as CoreSubmitResult, type SubmitTarget } from '../../core/submit/submitBatch';
import { localGatewayRef } from '../../local-gateway/finding';
import { maskText } from '../../core/output';
import { damageText } from '../../core/ledger/words';
import { log, showErrorWithLog } from '../log';
import { showError, showInfo, showWarning } from '../say';
import type { ResultsPanelApi } from '../results/register';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import type { EditorLedger } from '../ledger/editorLedger';
import { buildSubmissionView, sensitiveValues, summary, type SubmitOutcome } from './outcomeView';
import { resolveTarget, showTargetProblem, type Target, type TargetDeps } from '../environments/target';
import { documentFor, optionsArg, type CommandArgs } from '../commandArgs';

// Submit Recurring Payments File: submission preparation (lint gate, CRLF, payload, hash) → environment and
// credentials → the guarded send every face shares (in flight here? sent before? production? ledger
// "sending" on disk, one POST, cancellable, ledger completed) → results panel, notification.

export interface SubmitOptions {
  /** Answer for the production confirmation (tests, automation). Absent: ask. */
  confirm?: boolean;
  /** Answer for the "same content sent to this endpoint before" warning. Absent: ask. */
  sendAgain?: boolean;
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
  | 'in-flight'
  | 'ledger-failed'
  | 'ledger-damaged'
  | 'invalid-environment';

export type SubmitResult =
  | { status: 'sent'; outcome: SubmitOutcome['outcome']; record: SubmissionRecord; historyFile: string }
  | { status: 'refused'; reason: SubmitRefusal; message: string };

export interface SubmitCommandDeps extends TargetDeps {
  history: EditorLedger;
  results: ResultsPanelApi;
}

function refuse(reason: SubmitRefusal, message: string, notify = true): SubmitResult {
  if (notify) void showError(`PayGate: ${message}`);
  return { status: 'refused', reason, message };
}

/** The editor's target: the core's, with its credentials and the running local gateway. */
type EditorTarget = Target & SubmitTarget;

/** Environment and credentials (secrets, or the local gateway's demo merchant); the problem shown when missing. */
async function editorTarget(
  deps: SubmitCommandDeps,
  envName: string,
): Promise<{ ok: true; value: EditorTarget } | { ok: false; refusal: SubmitResult }> {
  const resolved = await resolveTarget(deps, envName, 'create');
  if (!resolved.ok) {
    showTargetProblem(resolved);
    return { ok: false, refusal: { status: 'refused', reason: resolved.reason, message: resolved.message } };
  }
  const t = resolved.target;
  return { ok: true, value: { ...t, environmentName: envName, signatureMethod: t.credentials.signatureMethod } };
}

/** Production sends are confirmed in a modal (or by the caller's `confirm`). */
async function confirmProduction(
  options: SubmitOptions,
  envName: string,
  name: string,
  prepared: PreparedSubmission,
  endpoint: string,
): Promise<boolean> {
  if (!isProduction(envName)) return true;
  const rows = prepared.rowCount;
  return (
    options.confirm ??
    (await showWarning(
      `Send ${rows} recurring payment${rows === 1 ? '' : 's'} to the PRODUCTION environment "${envName}"?`,
      { modal: true, detail: `File: ${name}\nEndpoint: ${endpoint}\nRows: ${rows}\n\nReal cards will be charged on schedule.` },
      'Send to production',
    )) === 'Send to production'
  );
}

/**
 * The core's submit use case with the editor's prompts and words: lint gate → target → the guarded send
 * (in flight? sent before? production? ledger "sending", one cancellable POST, ledger completed) → results
 * panel, notification.
 */
export async function submitCommand(deps: SubmitCommandDeps, ...args: CommandArgs): Promise<SubmitResult> {
  const options = optionsArg<SubmitOptions>(args);
  if (!vscode.workspace.isTrusted) {
    return refuse('untrusted', 'Submitting is disabled in an untrusted workspace: trust this workspace to send files to a gateway.');
  }
  const doc = await documentFor(args);
  if (!doc) return refuse('no-file', 'Open a recurring-payments CSV file (or pick one in the explorer) to submit it.');
  const name = path.basename(doc.uri.path);
  const envName = options.environment ?? activeEnvironmentName();
  const ledger = deps.history.current;
  const result = await submitBatch(doc.getText(), name, {
    face: 'editor',
    pid: process.pid,
    host: os.hostname(),
    ledger,
    file: doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString(),
    target: () => editorTarget(deps, envName),
    localGateway: async (t) => (t.local ? localGatewayRef(t.local) : undefined),
    confirmResend: async (previous, t) =>
      options.sendAgain ?? (await askSendAgain(previous, name, envName, createRecurringPaymentsUrl(t.environment, t.paths))),
    confirmSend: (t, prepared) => confirmProduction(options, envName, name, prepared, createRecurringPaymentsUrl(t.environment, t.paths)),
    send: (t, prepared) => {
      log().info(
        `Submit ${name} (${prepared.rowCount} rows, sha256 ${prepared.contentHash}) to ${envName}: ${createRecurringPaymentsUrl(t.environment, t.paths)} [${t.signatureMethod}]`,
      );
      return sendWithProgress(name, envName, t, prepared.payload);
    },
    ledgerMessage: (outcome, _t, prepared) => summary(outcome, envName, sensitiveValues(prepared.lint.batch)),
    sensitive: (prepared) => sensitiveValues(prepared.lint.batch),
  });
  return editorResult(result, deps, name, envName, ledger.filePath);
}

type CoreResult = CoreSubmitResult<EditorTarget, SubmitResult>;

/** What the editor says and returns of how a submit ended. */
function editorResult(result: CoreResult, deps: SubmitCommandDeps, name: string, envName: string, ledgerFile: string): SubmitResult {
  switch (result.status) {
    case 'refused':
      return refusedBeforeSending(result);
    case 'no-target':
      return result.refusal;
    case 'failed': {
      // The ledger could not be read or written, or a question could not be asked: either way before sending.
      const why = result.error instanceof Error ? result.error.message : String(result.error);
      return refuse('ledger-failed', `Nothing was sent: ${why} (submission ledger ${ledgerFile}).`);
    }
    case 'in-flight':
      return refuse('in-flight', `${name} is already being sent to ${envName}; it is not sent a second time.`);
    case 'damaged':
      void showErrorWithLog(`PayGate: ${damageText(result.damage, ledgerFile)}`);
      return refuse('ledger-damaged', `Not sent: ${name} may have been sent before (the submission ledger was damaged).`, false);
    case 'duplicate':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was already sent to ${envName} (endpoint ${result.target.environment.endpointId}).`,
        false,
      );
    case 'raced':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was being sent to ${envName} at the same moment from another window or process.`,
      );
    case 'not-confirmed':
      return refuse('not-confirmed', `Not sent: ${name} to ${envName} was not confirmed.`, false);
    case 'sent':
      return showSent(result, deps, name, envName, ledgerFile);
  }
}

/** Lint errors (with "Show Problems"), no rows, an invalid environment or a silent local gateway: nothing sent. */
function refusedBeforeSending(result: Extract<CoreResult, { status: 'refused' }>): SubmitResult {
  switch (result.reason) {
    case 'lint-errors': {
      const message = `${result.message}. Fix them first.`;
      void showError(`PayGate: ${message}`, 'Show Problems').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
      });
      return refuse('lint-errors', message, false);
    }
    case 'local-gateway-failed':
      return refuse('local-gateway-failed', `Nothing was sent: the local gateway did not say its date (${result.message}).`);
    case 'invalid-environment':
      return refuse('invalid-environment', `${result.message.replace(/; nothing was sent$/, '')}. Nothing was sent.`);
    default:
      return refuse(result.reason, `${result.message}.`);
  }
}

/** The answer in the results panel, the log and a notification (a warning when the payments may exist). */
function showSent(
  result: Extract<CoreResult, { status: 'sent' }>,
  deps: SubmitCommandDeps,
  name: string,
  envName: string,
  ledgerFile: string,
): SubmitResult {
  const { outcome, prepared, target } = result;
  const batch = prepared.lint.batch;
  const sensitive = sensitiveValues(batch);
  if (result.recordError) log().warn(`Submit ${name}: the answer could not be recorded in ${ledgerFile}: ${result.recordError}`);
  const line = summary(outcome, envName, sensitive);
  const view = buildSubmissionView({
    title: `Submission: ${name} → ${envName}`,
    outcome,
    signatureMethod: target.signatureMethod,
    batch,
    file: name,
    environment: envName,
    submittedAt: result.submittedAt,
    ...result.answer,
  });
  deps.results.showSubmission(view).then(undefined, (err: unknown) => log().warn(`Results panel: ${String(err)}`));
  const serials = result.answer.serialNumbers;
  if (outcome.outcome === 'accepted') {
    log().info(`Submit ${name}: ${line}${serials.length ? `, serial-number ${serials.join(', ')}` : ''}`);
    void showInfo(`PayGate: ${name}: ${line}`);
  } else {
    log().warn(`Submit ${name}: ${line}`);
    if ('raw' in outcome) log().debug(`Answer body: ${maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' ')}`);
    if (OUTCOMES[outcome.outcome].unknown) {
      void showWarning(`PayGate: ${name}: ${line}`, { modal: false }, 'Show Log').then((c) => c && log().show());
    } else void showErrorWithLog(`PayGate: ${name}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: result.completed ?? result.record, historyFile: ledgerFile };
}

/**
 * The resend question, with one way to say no. A modal message always adds its own Cancel, and VS Code
 * focuses its first button, so a "Don't Send" beside it was a second no, and making it the close button
 * would have put the focus (Enter) on "Send Again". A pick list has exactly the two answers: the first,
 * selected one is "Don't send" (Enter), Escape also answers no, and only "Send again" sends.
 */
async function askSendAgain(blocker: ResendBlocker, name: string, envName: string, endpoint: string): Promise<boolean> {
  if ('damage' in blocker) {
    const choice = await showWarning(
      `${name} may have been sent before: the submission ledger was damaged. Sending it again may create the payments twice.`,
      { modal: true, detail: `${damageText(blocker.damage, '')}\n\n${name} → ${envName}\n${endpoint}` },
      { title: "Don't Send" },
      { title: 'Send Anyway' },
    );
    return choice?.title === 'Send Anyway';
  }
  const previous = blocker.record;
  const when = new Date(previous.time).toLocaleString();
  const what =
    previous.state === 'sending'
      ? 'no answer recorded: it may still be on its way, or was interrupted'
      : `${previous.outcome ?? 'no answer recorded'}${previous.kind ? `, ${previous.kind}` : ''}`;
  const from = `sent from ${previous.face === 'cli' ? 'the paygate CLI' : 'the editor'}: ${previous.file}`;
  const send = {
    label: '$(warning) Send again',
    description: 'may create the payments twice',
    detail: `${name} → ${envName} · ${endpoint}`,
  };
  const choice = await vscode.window.showQuickPick(
    [{ label: "Don't send", description: 'keep the earlier submission', detail: from }, send],
    {
      title: `PayGate: the same content was already sent to this endpoint on ${when} (${what})`,
      placeHolder: 'Sending it again may create the payments twice.',
      ignoreFocusOut: true,
    },
  );
  return choice === send;
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
