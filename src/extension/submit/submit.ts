import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import { createRecurringPaymentsUrl, type PreparedSubmission } from '../../core/gateway';
import { submitBatch } from '../../core/submit/submitBatch';
import type { Approval, LedgerStore } from '../../core/ledger';
import { approvalsText } from '../../core/ledger/approvals';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';
import { TEAM_REMEDY } from '../ledger/editorLedger';
import { localGatewayRef } from '../../local-gateway/finding';
import { askRowsAgain, askSamePayer, askSendAgain, type RowsAnswer } from './resendQuestions';
import { log } from '../log';
import { showWarning, shown, withProgress } from '../say';
import { activeEnvironmentName, isProduction } from '../environments/settings';
import { sensitiveValues, summary } from '../results/outcomeView';
import { resolveTarget, showTargetProblem } from '../environments/target';
import { optionsArg, uriArg, type CommandArgs } from '../commandArgs';
import { documentFor } from '../diskDocument';
import { bytesOnDisk, send, type Showing } from './send';
import { editorResult } from './tellResult';
import { refuse, type CoreResult, type EditorTarget, type SubmitCommandDeps, type SubmitOptions, type SubmitResult } from './submitTypes';

// Submit Recurring Payments File: submission preparation (lint gate, canonical text, payload, hash) →
// environment and credentials → the guarded send every face shares (in flight here? the same content sent
// before? rows sent before? production? row keys and "sending" on disk, one POST, cancellable, ledger
// completed) → results panel, notification, and for an accepted batch holding CVVs the offer to empty them.

// The steps are in files of their own: submitTypes.ts (options, results), send.ts (the POST),
// tellResult.ts (how it ended), resendQuestions.ts (the questions before sending).

export type { SubmitResult } from './submitTypes';

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

/**
 * Production sends, and sends to an environment that needs approvals (who approved is shown), are confirmed
 * in a modal (or by the caller's `confirm`).
 */
async function confirmSend(
  options: SubmitOptions,
  envName: string,
  name: string,
  prepared: PreparedSubmission,
  endpoint: string,
  approvals: readonly Approval[] | undefined,
): Promise<boolean> {
  const production = isProduction(envName);
  if (!production && approvals === undefined) return true;
  const rows = prepared.rowCount;
  const approved = approvals ? said`\nApproved by ${approvalsText(approvals)}` : said``;
  const button = production ? 'Send to production' : 'Send';
  return (
    options.confirm ??
    (await showWarning(
      said`Send ${typed.count(rows)} recurring payment${rows === 1 ? said`` : said`s`} to ${production ? said`the PRODUCTION environment ` : said``}"${typed.text(envName)}"?`,
      {
        modal: true,
        detail: said`File: ${typed.text(name)}\nEndpoint: ${typed.text(endpoint)}\nRows: ${typed.count(rows)}${approved}${production ? said`\n\nReal cards will be charged on schedule.` : said``}`,
      },
      button,
    )) === button
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
  const begun = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: said`PayGate: submitting ${uri ? typed.text(path.basename(uri.path)) : said`the batch`} to ${typed.text(envName)}`,
      cancellable: true,
    },
    async (progress, token) => {
      progress.report({ message: said`reading the file…` });
      const doc = await documentFor(args);
      if (!doc) return undefined;
      progress.report({ message: said`checking its rows…` });
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
  // The team ledger the settings name could not be opened: nothing is sent, and no other store stands in.
  if ('unusable' in begun) return refuse('ledger-failed', `Nothing was sent: ${begun.unusable}; ${TEAM_REMEDY}.`);
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

/** The core's guarded send of one document with the editor's questions; what came of it. */
async function submitDocument(
  deps: SubmitCommandDeps,
  doc: vscode.TextDocument,
  envName: string,
  options: Partial<SubmitOptions>,
  showing: Showing,
): Promise<{ result: CoreResult; rowsAnswer: RowsAnswer; ledgerFile: string } | { unusable: string }> {
  const name = path.basename(doc.uri.path);
  let ledger: LedgerStore;
  try {
    ledger = await deps.ledger.store();
  } catch (err) {
    return { unusable: errorMessage(err) };
  }
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
    confirmSamePayer: async (rows) => options.sendSamePayer ?? (await askSamePayer(rows, name, envName)),
    confirmSend: (t, prepared, approvals) =>
      confirmSend(options, envName, name, prepared, createRecurringPaymentsUrl(t.environment, t.paths), approvals),
    send: (t, prepared) => {
      const url = typed.text(createRecurringPaymentsUrl(t.environment, t.paths));
      const rows = typed.count(prepared.rowCount);
      const hash = typed.hash(prepared.contentHash);
      log().info(
        said`Submit ${typed.text(name)} (${rows} rows, sha256 ${hash}) to ${typed.text(envName)}: ${url} [${typed.text(t.signatureMethod)}]`,
      );
      return send(t, prepared.payload, showing);
    },
    ledgerMessage: (outcome, _t, prepared) => shown(summary(outcome, envName, sensitiveValues(prepared.lint.batch))),
    sensitive: (prepared) => sensitiveValues(prepared.lint.batch),
  });
  if (ledger.kind === 'team') deps.ledger.touched();
  return { result, rowsAnswer, ledgerFile: ledger.kind === 'file' ? ledger.filePath : ledger.place };
}

/** The rows question answered by the command's options (tests, automation), or undefined: ask. */
function rowsAnswerGiven(given: boolean | 'move' | undefined): RowsAnswer | undefined {
  if (given === undefined || given === 'move') return given;
  return given ? 'send' : 'dont-send';
}
