import * as path from 'node:path';
import * as vscode from 'vscode';
import { OUTCOMES } from '../../core/gateway';
import { alreadySentMessage, sentBy, type AlreadySentRow } from '../../core/ledger';
import { TEAM_REMEDY } from '../ledger/editorLedger';
import { damageText } from '../../core/ledger/words';
import { nothingSent } from '../../core/gateway/prepare';
import { joinSaid, maskText, said, saidText, typed } from '../../core/output';
import { errorMessage } from '../../core/errorMessage';
import { readBatch } from '../../core/rules/batch';
import { log, showErrorWithLog } from '../log';
import { showError, showInfo, showWarning } from '../say';
import { holdsCvv, moveAlreadySentRows, offerStripCvv } from './ledgerEdits';
import { buildSubmissionView, sensitiveValues, summary } from '../results/outcomeView';
import type { RowsAnswer } from './resendQuestions';
import { refuse, refuseSaid, type CoreResult, type MovedRows, type SubmitCommandDeps, type SubmitResult } from './submitTypes';

// What the editor says and returns of how a submit ended: a refusal's words, the answer in the results
// panel and a notification, and the rows already sent moved out before the rest is sent.

/** What one submit knows when it tells how it ended. */
export interface Telling {
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
export async function editorResult(result: CoreResult, t: Telling): Promise<SubmitResult> {
  const { name, envName, ledgerFile } = t;
  switch (result.status) {
    case 'refused':
      return refusedBeforeSending(result);
    case 'no-target':
      return result.refusal;
    case 'failed': {
      // The ledger could not be read or written, or a question could not be asked: either way before sending.
      const why = errorMessage(result.error);
      // The team ledger's reason names it already ("the team ledger postgres://… could not be used: …").
      if (t.deps.ledger.fileLedger === undefined) return refuse('ledger-failed', `Nothing was sent: ${why}; ${TEAM_REMEDY}.`);
      return refuse('ledger-failed', `Nothing was sent: ${why} (submission ledger ${ledgerFile}).`);
    }
    case 'in-flight':
      return refuse('in-flight', `${name} is already being sent to ${envName}; it is not sent a second time.`);
    case 'damaged':
      void showErrorWithLog(said`PayGate: ${damageText(result.damage, ledgerFile)}`);
      return refuse('ledger-damaged', `Not sent: ${name} may have been sent before (the submission ledger was damaged).`, false);
    case 'duplicate':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was already sent to ${envName}${saidText(sentBy(result.earlier))} (endpoint ${result.target.environment.endpointId}).`,
        false,
      );
    case 'already-sent':
      return rowsRefused(t, result.rows);
    case 'same-payer': {
      const n = result.rows.length;
      return {
        ...refuse(
          'same-payer',
          `Not sent: ${n} row${n === 1 ? ' of ' + name + ' has' : 's of ' + name + ' have'} the card and schedule of a row already sent to ${envName} under another client-orderid.`,
          false,
        ),
        rows: n,
      };
    }
    case 'raced':
      return refuse(
        'duplicate-declined',
        `Not sent: ${name} was being sent to ${envName} at the same moment${result.earlier.role !== undefined ? saidText(sentBy(result.earlier)) : ' from another window or process'}.`,
      );
    case 'not-confirmed':
      return refuse('not-confirmed', `Not sent: ${name} to ${envName} was not confirmed.`, false);
    case 'sent':
      return showSent(result, t);
  }
}

/** Lint errors (with "Show Problems"), no rows, an invalid environment or a silent local gateway: nothing sent. */
function refusedBeforeSending(result: Extract<CoreResult, { status: 'refused' }>): SubmitResult {
  // The core's problem is a Said: the editor's sentence is built around it, never by editing its text.
  const { problem } = result;
  switch (result.reason) {
    case 'lint-errors': {
      const message = said`${nothingSent(problem)}. Fix them first.`;
      void showError(said`PayGate: ${message}`, 'Show Problems').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
      });
      return refuseSaid('lint-errors', message, false);
    }
    case 'local-gateway-failed':
      return refuseSaid('local-gateway-failed', said`Nothing was sent: the local gateway did not say its date (${problem}).`);
    case 'invalid-environment':
    case 'batch-too-large':
      return refuseSaid(result.reason, said`${problem}. Nothing was sent.`);
    default:
      return refuseSaid(result.reason, said`${nothingSent(problem)}.`);
  }
}

/** The answer in the results panel, the log and a notification (a warning when the payments may exist). */
async function showSent(result: Extract<CoreResult, { status: 'sent' }>, t: Telling): Promise<SubmitResult> {
  const { outcome, prepared, target } = result;
  const { name, envName, ledgerFile } = t;
  const batch = prepared.lint.batch;
  const sensitive = sensitiveValues(batch);
  if (result.recordError)
    log().warn(
      said`Submit ${typed.text(name)}: the answer could not be recorded in ${typed.text(ledgerFile)}: ${typed.text(result.recordError)}`,
    );
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
  t.deps.results.showSubmission(view).then(undefined, (err: unknown) => log().warn(said`Results panel: ${typed.text(String(err))}`));
  const serials = result.answer.serialNumbers;
  if (outcome.outcome === 'accepted') {
    const serial = serials.length ? said`, serial-number ${joinSaid(serials.map(typed.text), ', ')}` : said``;
    log().info(said`Submit ${typed.text(name)}: ${line}${serial}`);
    void showInfo(said`PayGate: ${typed.text(name)}: ${line}`);
    // PCI DSS: an accepted batch's CVVs must not be kept; the offer to empty them (the same edit as fix --strip-cvv).
    if (holdsCvv(prepared.canonicalText)) await offerStripCvv(t.doc, name, t.stripCvv);
  } else {
    log().warn(said`Submit ${typed.text(name)}: ${line}`);
    if ('raw' in outcome)
      log().debug(said`Answer body: ${typed.text(maskText(outcome.raw.slice(0, 2000), sensitive).replace(/\s+/g, ' '))}`);
    if (OUTCOMES[outcome.outcome].unknown) {
      void showWarning(said`PayGate: ${typed.text(name)}: ${line}`, { modal: false }, 'Show Log').then((c) => c && log().show());
    } else void showErrorWithLog(said`PayGate: ${typed.text(name)}: ${line}`);
  }
  return { status: 'sent', outcome: outcome.outcome, record: result.completed ?? result.record, ledgerFile };
}

/**
 * Rows already sent: nothing was sent, or (the person chose "Move … then send what is left") they were
 * moved to a new file and the rest is sent as any batch is.
 */
async function rowsRefused(t: Telling, rows: readonly AlreadySentRow[]): Promise<SubmitResult> {
  const { doc, name, envName } = t;
  const n = rows.length;
  const what = `${n} row${n === 1 ? ' of ' + name + ' was' : 's of ' + name + ' were'} already sent to ${envName}`;
  // The first row's sentence names the send that holds it (and, in a team ledger, who sent it).
  if (t.rowsAnswer !== 'move')
    return { ...refuse('already-sent', `Not sent: ${what}: ${saidText(alreadySentMessage(rows[0]))}.`, false), rows: n };
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
  log().info(
    said`Submit ${typed.text(name)}: moved ${typed.text(rowsWord)} to ${typed.text(movedName)}${done.saved ? said`` : said`; ${typed.text(name)} has unsaved changes`}`,
  );
  const left = readBatch(doc.getText()).rows.filter((r) => !r.record.isBlank).length;
  if (left === 0) {
    const message = `moved ${rowsWord} of ${name} to ${movedName}; no row is left to send, nothing was sent.`;
    void showInfo(said`PayGate: ${typed.text(message)}`);
    return { status: 'refused', reason: 'no-rows', message: `Not sent: ${message}`, rows: n, movedTo: moved.to, moved };
  }
  void showInfo(
    said`PayGate: moved ${typed.text(rowsWord)} of ${typed.text(name)} to ${typed.text(movedName)}${done.saved ? said`` : said` (${typed.text(name)} keeps its unsaved changes)`}; sending the ${typed.count(left)} row${left === 1 ? said`` : said`s`} left to ${typed.text(envName)}.`,
  );
  const sent = await t.sendRest();
  return { ...sent, moved, ...(sent.status === 'refused' ? { movedTo: moved.to } : {}) };
}
