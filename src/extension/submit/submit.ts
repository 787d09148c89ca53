import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as fs from 'node:fs/promises';
import { createRecurringPayments, createRecurringPaymentsUrl, OUTCOMES, type PreparedSubmission } from '../../core/gateway';
import type { AlreadySentRow, SubmissionRecord } from '../../core/ledger';
import { submitBatch, type SubmitResult as CoreSubmitResult, type SubmitTarget } from '../../core/submit/submitBatch';
import { localGatewayRef } from '../../local-gateway/finding';
import { maskText } from '../../core/output';
import { errorMessage } from '../../core/errorMessage';
import { damageText } from '../../core/ledger/words';
import { askRowsAgain, askSendAgain, type RowsAnswer } from './resendQuestions';
import { holdsCvv, moveAlreadySentRows, offerStripCvv } from './ledgerEdits';
import { readBatch } from '../../core/rules/batch';
import { log, showErrorWithLog } from '../log';
import { showError, showInfo, showWarning } from '../say';
import type { ResultsPanelApi } from '../results/register';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import type { EditorLedger } from '../ledger/editorLedger';
import { buildSubmissionView, sensitiveValues, summary, type SubmitOutcome } from '../results/outcomeView';
import { resolveTarget, showTargetProblem, type Target, type TargetDeps } from '../environments/target';
import { optionsArg, uriArg, type CommandArgs } from '../commandArgs';
import { documentFor } from '../lint/diskDocument';

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

type Refused = Extract<SubmitResult, { status: 'refused' }>;

function refuse(reason: SubmitRefusal, message: string, notify = true): Refused {
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
  const uri = uriArg(args);
  const envName = options.environment ?? activeEnvironmentName();
  // On screen from the click to the answer: reading and checking a batch of 50 MB takes a while before a
  // byte leaves, and its send longer (the bytes sent are shown). Questions on the way (the production
  // confirmation, the resend questions) come above it.
  const begun = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `PayGate: submitting ${uri ? path.basename(uri.path) : 'the batch'} to ${envName}`,
      cancellable: true,
    },
    async (progress, token) => {
      progress.report({ message: 'reading the file…' });
      const doc = await documentFor(args);
      if (!doc) return undefined;
      progress.report({ message: 'checking its rows…' });
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return { doc, ...(await submitDocument(deps, doc, envName, options, { progress, signal: abort.signal })) };
      } finally {
        sub.dispose();
      }
    },
  );
  if (!begun) return refuse('no-file', 'Open a recurring-payments CSV file (or pick one in the explorer) to submit it.');
  const { doc, result, rowsAnswer, ledgerFile } = begun;
  return editorResult(result, {
    deps,
    doc,
    name: path.basename(doc.uri.path),
    envName,
    ledgerFile,
    rowsAnswer,
    stripCvv: options.stripCvv,
    // What is left after the move is sent as any batch is (the production question included); the rows
    // question cannot come back, since the rows it was about are gone from the file.
    sendRest: () => submitCommand(deps, doc.uri, { ...options, sendRowsAgain: false }),
  });
}

/** Where the send shows how far it got, and the person's cancel. */
interface Showing {
  progress: vscode.Progress<{ message?: string; increment?: number }>;
  signal: AbortSignal;
}

/** The core's guarded send of one document with the editor's questions; what came of it. */
async function submitDocument(
  deps: SubmitCommandDeps,
  doc: vscode.TextDocument,
  envName: string,
  options: Partial<SubmitOptions>,
  showing: Showing,
): Promise<{ result: CoreResult; rowsAnswer: RowsAnswer; ledgerFile: string }> {
  const name = path.basename(doc.uri.path);
  const ledger = deps.ledger.current;
  let rowsAnswer: RowsAnswer = 'dont-send';
  const result = await submitBatch(doc.getText(), name, {
    face: 'editor',
    pid: process.pid,
    host: os.hostname(),
    ledger,
    file: doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString(),
    onDisk: await bytesOnDisk(doc),
    target: () => editorTarget(deps, envName),
    localGateway: async (t) => (t.local ? localGatewayRef(t.local) : undefined),
    confirmResend: async (previous, t) =>
      options.sendAgain ?? (await askSendAgain(previous, name, envName, createRecurringPaymentsUrl(t.environment, t.paths))),
    confirmRowResend: async (rows) => {
      rowsAnswer = rowsAnswerGiven(options.sendRowsAgain) ?? (await askRowsAgain(rows, name, envName));
      return rowsAnswer === 'send';
    },
    confirmSend: (t, prepared) => confirmProduction(options, envName, name, prepared, createRecurringPaymentsUrl(t.environment, t.paths)),
    send: (t, prepared) => {
      log().info(
        `Submit ${name} (${prepared.rowCount} rows, sha256 ${prepared.contentHash}) to ${envName}: ${createRecurringPaymentsUrl(t.environment, t.paths)} [${t.signatureMethod}]`,
      );
      return send(t, prepared.payload, showing);
    },
    ledgerMessage: (outcome, _t, prepared) => summary(outcome, envName, sensitiveValues(prepared.lint.batch)),
    sensitive: (prepared) => sensitiveValues(prepared.lint.batch),
  });
  return { result, rowsAnswer, ledgerFile: ledger.filePath };
}

type CoreResult = CoreSubmitResult<EditorTarget, SubmitResult>;

/** What one submit knows when it tells how it ended. */
interface Telling {
  deps: SubmitCommandDeps;
  doc: vscode.TextDocument;
  name: string;
  envName: string;
  ledgerFile: string;
  /** What the person answered about rows already sent. */
  rowsAnswer: RowsAnswer;
  /** The answer to the offer to empty the CVVs of an accepted batch (absent: offered). */
  stripCvv: boolean | undefined;
  /** Submits the document again: what is left once the rows already sent were moved out. */
  sendRest: () => Promise<SubmitResult>;
}

/** What the editor says and returns of how a submit ended. */
async function editorResult(result: CoreResult, t: Telling): Promise<SubmitResult> {
  const { name, envName, ledgerFile } = t;
  switch (result.status) {
    case 'refused':
      return refusedBeforeSending(result);
    case 'no-target':
      return result.refusal;
    case 'failed': {
      // The ledger could not be read or written, or a question could not be asked: either way before sending.
      const why = errorMessage(result.error);
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
    case 'already-sent':
      return rowsRefused(t, result.rows);
    case 'raced':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was being sent to ${envName} at the same moment from another window or process.`,
      );
    case 'not-confirmed':
      return refuse('not-confirmed', `Not sent: ${name} to ${envName} was not confirmed.`, false);
    case 'sent':
      return showSent(result, t);
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
    case 'batch-too-large':
      return refuse('batch-too-large', `${result.message.replace(/; nothing was sent$/, '')}. Nothing was sent.`);
    default:
      return refuse(result.reason, `${result.message}.`);
  }
}

/** The answer in the results panel, the log and a notification (a warning when the payments may exist). */
async function showSent(result: Extract<CoreResult, { status: 'sent' }>, t: Telling): Promise<SubmitResult> {
  const { outcome, prepared, target } = result;
  const { name, envName, ledgerFile } = t;
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
  t.deps.results.showSubmission(view).then(undefined, (err: unknown) => log().warn(`Results panel: ${String(err)}`));
  const serials = result.answer.serialNumbers;
  if (outcome.outcome === 'accepted') {
    log().info(`Submit ${name}: ${line}${serials.length ? `, serial-number ${serials.join(', ')}` : ''}`);
    void showInfo(`PayGate: ${name}: ${line}`);
    // PCI DSS: an accepted batch's CVVs must not be kept; the offer to empty them (the same edit as fix --strip-cvv).
    if (holdsCvv(prepared.canonicalText)) await offerStripCvv(t.doc, name, t.stripCvv);
  } else {
    log().warn(`Submit ${name}: ${line}`);
    if ('raw' in outcome) log().debug(`Answer body: ${maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' ')}`);
    if (OUTCOMES[outcome.outcome].unknown) {
      void showWarning(`PayGate: ${name}: ${line}`, { modal: false }, 'Show Log').then((c) => c && log().show());
    } else void showErrorWithLog(`PayGate: ${name}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: result.completed ?? result.record, ledgerFile };
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

/**
 * Rows already sent: nothing was sent, or (the person chose "Move … then send what is left") they were
 * moved to a new file and the rest is sent as any batch is.
 */
async function rowsRefused(t: Telling, rows: readonly AlreadySentRow[]): Promise<SubmitResult> {
  const { doc, name, envName } = t;
  const n = rows.length;
  const what = `${n} row${n === 1 ? ' of ' + name + ' was' : 's of ' + name + ' were'} already sent to ${envName}`;
  if (t.rowsAnswer !== 'move') return { ...refuse('already-sent', `Not sent: ${what}.`, false), rows: n };
  let done: Awaited<ReturnType<typeof moveAlreadySentRows>>;
  try {
    done = await moveAlreadySentRows(doc, rows);
  } catch (err) {
    return {
      ...refuse('already-sent', `Not sent: ${what}; the rows could not be moved: ${errorMessage(err)}`),
      rows: n,
    };
  }
  if (!done) return { ...refuse('already-sent', `Not sent: ${what}; only a file on disk can be split.`), rows: n };
  const movedName = path.basename(done.target.path);
  const moved: MovedRows = { rows: n, to: done.target.fsPath };
  const rowsWord = `${n} already-sent row${n === 1 ? '' : 's'}`;
  // Said once the files are written, in the order it happened: moved (and saved, or not), then the send.
  log().info(`Submit ${name}: moved ${rowsWord} to ${movedName}${done.saved ? '' : `; ${name} has unsaved changes`}`);
  const left = readBatch(doc.getText()).rows.filter((r) => !r.record.isBlank).length;
  if (left === 0) {
    const message = `moved ${rowsWord} of ${name} to ${movedName}; no row is left to send, nothing was sent.`;
    void showInfo(`PayGate: ${message}`);
    return { status: 'refused', reason: 'no-rows', message: `Not sent: ${message}`, rows: n, movedTo: moved.to, moved };
  }
  void showInfo(
    `PayGate: moved ${rowsWord} of ${name} to ${movedName}${done.saved ? '' : ` (${name} keeps its unsaved changes)`}; sending the ${left} row${left === 1 ? '' : 's'} left to ${envName}.`,
  );
  const sent = await t.sendRest();
  return { ...sent, moved, ...(sent.status === 'refused' ? { movedTo: moved.to } : {}) };
}

/** "12.5 of 54.0 MB sent": the bytes the connection has taken, in MB of 1024 × 1024 bytes. */
function sentText(sent: number, total: number): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return sent >= total ? `${mb(total)} MB sent, waiting for the answer…` : `${mb(sent)} of ${mb(total)} MB sent`;
}

/** One POST, its bytes shown as they go; cancelling after the request went out comes back as outcome unknown (kind cancelled). */
async function send(target: Target, payload: string, showing: Showing): Promise<SubmitOutcome> {
  showing.progress.report({ message: 'sending…' });
  let shown = 0;
  return createRecurringPayments({
    environment: target.environment,
    paths: target.paths,
    payload,
    credentials: target.credentials,
    timeoutMs: target.timeoutMs,
    signal: showing.signal,
    onSent: (sent, total) => {
      // VS Code's bar moves by increments (per cent of the whole); told only when it moved.
      const percent = Math.floor((sent / total) * 100);
      showing.progress.report({ message: sentText(sent, total), increment: percent - shown });
      shown = percent;
    },
  });
}
