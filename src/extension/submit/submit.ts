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
import {
  completionFor,
  guardedSend,
  splitList,
  submissionEntry,
  type LocalGatewayRef,
  type ResendBlocker,
  type SubmissionRecord,
} from '../../core/ledger';
import { localGatewayRef } from '../../local-gateway/finding';
import { maskText } from '../../core/output';
import { damageText } from '../../core/ledger/words';
import { log, showErrorWithLog } from '../log';
import type { ResultsPanelApi } from '../results/register';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import type { SubmissionHistory } from '../history/history';
import { buildSubmissionView, sensitiveValues, summary, type SubmitOutcome } from './outcomeView';
import { resolveTarget, showTargetProblem, type Target, type TargetDeps } from '../environments/target';
import { documentFor, optionsArg, type CommandArgs } from '../commandArgs';
import { showError, showInfo, showWarning } from '../say';

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
  history: SubmissionHistory;
  results: ResultsPanelApi;
}

function refuse(reason: SubmitRefusal, message: string, notify = true): SubmitResult {
  if (notify) void showError(`PayGate: ${message}`);
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

  const prepared = prepareSubmission(text, name);
  if (prepared.refusal?.reason === 'lint-errors') {
    const message = `${prepared.refusal.message}. Fix them first.`;
    void showError(`PayGate: ${message}`, 'Show Problems').then((choice) => {
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
      confirmResend: async (previous) => options.sendAgain ?? (await askSendAgain(previous, name, envName, endpoint)),
      confirmSend: async () => {
        if (!isProduction(envName)) return true;
        return (
          options.confirm ??
          (await showWarning(
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
    void showInfo(`PayGate: ${name}: ${line}`);
  } else {
    log().warn(`Submit ${name}: ${line}`);
    if ('raw' in outcome) log().debug(`Answer body: ${maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' ')}`);
    if (outcome.outcome === 'unknown') {
      void showWarning(`PayGate: ${name}: ${line}`, { modal: false }, 'Show Log').then((c) => c && log().show());
    } else void showErrorWithLog(`PayGate: ${name}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: result.completed ?? result.record, historyFile: ledger.filePath };
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
