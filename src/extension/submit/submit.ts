import * as path from 'node:path';
import * as vscode from 'vscode';
import { createRecurringPayments, createRecurringPaymentsUrl } from '../../core/gateway';
import { withCrlfRecords } from '../../core/csv/write';
import { fieldValue } from '../../core/gateway/outcome';
import { maskText } from '../../core/mask';
import { contentHash } from '../../core/oauth';
import { lint } from '../../core/rules/lint';
import { log, showErrorWithLog } from '../log';
import type { ResultsPanelApi } from '../results/register';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import { splitList, type SubmissionHistory, type SubmissionRecord } from '../history/history';
import { buildSubmissionView, sensitiveValues, summary, type SubmitOutcome } from './outcomeView';
import { resolveTarget, showTargetProblem, type TargetDeps } from '../environments/target';
import { documentFor, optionsArg, type CommandArgs } from '../commandArgs';

// Submit Recurring Payments File: lint gate → environment and credentials → duplicate and production
// confirmations → history record ('sending') → one POST, cancellable → history completed → results panel.

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
  | 'duplicate-declined';

export type SubmitResult =
  | { status: 'sent'; outcome: SubmitOutcome['outcome']; record: SubmissionRecord; historyFile: string }
  | { status: 'refused'; reason: SubmitRefusal; message: string };

export interface SubmitDeps extends TargetDeps {
  history: SubmissionHistory;
  results: ResultsPanelApi;
}

function refuse(reason: SubmitRefusal, message: string, notify = true): SubmitResult {
  if (notify) void vscode.window.showErrorMessage(`PayGate: ${message}`);
  return { status: 'refused', reason, message };
}

export async function submitCommand(deps: SubmitDeps, ...args: CommandArgs): Promise<SubmitResult> {
  const options = optionsArg<SubmitOptions>(args);
  if (!vscode.workspace.isTrusted) {
    return refuse('untrusted', 'Submitting is disabled in an untrusted workspace: trust this workspace to send files to a gateway.');
  }
  const doc = await documentFor(args);
  if (!doc) return refuse('no-file', 'Open a recurring-payments CSV file (or pick one in the explorer) to submit it.');
  const fileLabel = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
  const name = path.basename(doc.uri.path);
  const text = doc.getText();

  const linted = lint(text);
  const errors = linted.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const message = `${name} has ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was sent. Fix them first.`;
    void vscode.window.showErrorMessage(`PayGate: ${message}`, 'Show Problems').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return refuse('lint-errors', message, false);
  }
  const batch = linted.batch;
  const rowCount = batch.rows.length;
  if (rowCount === 0) return refuse('no-rows', `${name} has no payment rows; nothing was sent.`);

  const envName = options.environment ?? activeEnvironmentName();
  const resolved = await resolveTarget(deps, envName, 'create');
  if (!resolved.ok) {
    showTargetProblem(resolved);
    return { status: 'refused', reason: resolved.reason, message: resolved.message };
  }
  const target = resolved.target;
  const endpoint = createRecurringPaymentsUrl(target.environment, target.paths);
  const hash = contentHash(withCrlfRecords(text));

  const previous = await deps.history.findDuplicate(hash, endpoint);
  if (previous) {
    const when = new Date(previous.time).toLocaleString();
    const again =
      options.sendAgain ??
      (await vscode.window.showWarningMessage(
        `The same content was already sent to this endpoint on ${when} (${previous.outcome ?? 'no answer recorded'}). Sending it again may create the payments twice.`,
        { modal: true, detail: `${name} → ${envName}\n${endpoint}` },
        'Send again',
      )) === 'Send again';
    if (!again) return refuse('duplicate-declined', `Not sent: ${name} was already sent to ${endpoint}.`, false);
  }

  if (isProduction(envName)) {
    const confirmed =
      options.confirm ??
      (await vscode.window.showWarningMessage(
        `Send ${rowCount} recurring payment${rowCount === 1 ? '' : 's'} to the PRODUCTION environment "${envName}"?`,
        { modal: true, detail: `File: ${name}\nEndpoint: ${endpoint}\nRows: ${rowCount}\n\nReal cards will be charged on schedule.` },
        'Send to production',
      )) === 'Send to production';
    if (!confirmed) return refuse('not-confirmed', `Not sent: ${name} to ${envName} was not confirmed.`, false);
  }

  const record = await deps.history.begin({
    environment: envName,
    production: target.environment.production,
    endpoint,
    file: fileLabel,
    rowCount,
    contentHash: hash,
    signatureMethod: target.credentials.signatureMethod,
  });
  log().info(`Submit ${name} (${rowCount} rows, sha256 ${hash}) to ${envName}: ${endpoint} [${target.credentials.signatureMethod}]`);

  const outcome: SubmitOutcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `PayGate: sending ${name} to ${envName}…`, cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const answer = await createRecurringPayments({
          environment: target.environment,
          paths: target.paths,
          csvText: text,
          credentials: target.credentials,
          timeoutMs: target.timeoutMs,
          signal: abort.signal,
        });
        return abort.signal.aborted
          ? { outcome: 'cancelled' as const, message: 'Cancelled while waiting for the answer: the gateway may still have created the payments. Check before sending again.' }
          : answer;
      } finally {
        sub.dispose();
      }
    },
  );

  const sensitive = sensitiveValues(batch);
  const fields = 'fields' in outcome ? outcome.fields : {};
  const ids = outcome.outcome === 'accepted' ? splitList(fieldValue(fields, 'recurring-payment-id')) : [];
  const statuses = outcome.outcome === 'accepted' ? splitList(fieldValue(fields, 'status')) : [];
  const serialNumbers = splitList(fieldValue(fields, 'serial-number'));
  const line = summary(outcome, envName, sensitive);
  const completed =
    (await deps.history.complete(
      record.id,
      {
        outcome: outcome.outcome,
        httpStatus: 'status' in outcome ? outcome.status : undefined,
        message: line,
        errorCode: 'errorCode' in outcome ? outcome.errorCode : undefined,
        errorId: outcome.outcome === 'server-error' ? outcome.errorId : undefined,
        recurringPaymentIds: ids,
        serialNumbers,
        statuses,
      },
      sensitive,
    )) ?? record;

  const view = buildSubmissionView({
    title: `Submission: ${name} → ${envName}`,
    outcome,
    signatureMethod: target.credentials.signatureMethod,
    batch,
    file: name,
    environment: envName,
    submittedAt: record.time,
    ids,
    statuses,
    serialNumbers,
  });
  deps.results.showSubmission(view).then(undefined, (err: unknown) => log().warn(`Results panel: ${String(err)}`));

  if (outcome.outcome === 'accepted') {
    log().info(`Submit ${name}: ${line}${serialNumbers.length ? `, serial-number ${serialNumbers.join(', ')}` : ''}`);
    void vscode.window.showInformationMessage(`PayGate: ${name} ${line}.`);
  } else {
    log().warn(`Submit ${name}: ${line}`);
    if ('raw' in outcome) log().debug(`Answer body: ${maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' ')}`);
    void showErrorWithLog(`PayGate: ${name}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: completed, historyFile: deps.history.filePath };
}
