import { approvalsText } from '../../core/ledger/approvals';
import { alreadySentLines, LedgerWriteError, samePayerLines, storePlace, type LedgerStore, type SubmissionRecord } from '../../core/ledger';
import type { SubmitResult } from '../../core/submit/submitBatch';
import type { CliContext } from '../context';
import { displayPosition } from '../io';
import { damageText, describeEarlier } from '../ledger';
import { nothingSent } from '../../core/gateway/prepare';
import { ourWords, said, typed } from '../../core/output';
import { EXIT, exitCodeFor, inputError, jsonOut, outcomeJson, outcomeText, saidOut, type Problem } from '../output';
import { allowResendFor, resendRefusal, rowsRefusal, samePayerRefusal } from './refusals';
import { UsageError, whatIsSent, type CliTarget, type PartsRun, type SubmitOptions } from './types';

// What the terminal says of how a submit ended, and the exit code.

/** What the terminal says of how a submit ended, and the exit code. */
export function reportResult(
  result: SubmitResult<CliTarget, string>,
  name: string,
  ledger: LedgerStore,
  o: SubmitOptions,
  ctx: CliContext,
  parts?: PartsRun,
): number {
  const usage = (message: Problem) => inputError(ctx, 'paygate submit', message);
  switch (result.status) {
    case 'refused':
      return refusedBeforeSending(result, name, ctx);
    case 'no-target':
      return usage(result.refusal);
    case 'failed':
      return failedBeforeSending(result.error, ledger, ctx);
    case 'in-flight':
      return usage(said`${typed.text(name)} is already being sent; nothing was sent`);
    case 'damaged':
      ctx.stderr(saidOut(said`paygate submit: ${damageText(result.damage, ledger)}\n`));
      return usage(
        said`${typed.text(name)} may have been sent before (the ledger's record of it may be in the damaged part); nothing was sent. Check in the gateway whether the payments exist; if you are sure they do not, pass ${allowResendFor(name, parts)}.`,
      );
    case 'duplicate':
      // A part of a run whose content was accepted at the target before: skipped, not refused.
      if (parts && result.earlier.outcome === 'accepted') return skipAccepted(ctx, o, name, result.earlier, parts);
      return usage(resendRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.earlier, parts));
    case 'raced':
      return usage(resendRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.earlier, parts));
    case 'already-sent':
      for (const line of alreadySentLines(name, result.rows)) ctx.stderr(saidOut(said`${line}\n`));
      return usage(rowsRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.rows, parts));
    case 'same-payer':
      for (const line of samePayerLines(name, result.rows)) ctx.stderr(saidOut(said`${line}\n`));
      return usage(samePayerRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.rows.length));
    case 'not-confirmed':
      return usage('not sent');
    case 'sent':
      if (result.recordError)
        ctx.stderr(
          saidOut(
            said`paygate submit: the answer could not be recorded in ${typed.text(storePlace(ledger))} (${typed.text(result.recordError)}); the record stays "sending"\n`,
          ),
        );
      if (parts && result.outcome.outcome === 'accepted') parts.sent++;
      if (o.format === 'json')
        ctx.stdout(jsonOut({ ...(parts ? { file: name } : {}), ...outcomeJson(result.outcome), submission: result.record.id }));
      else ctx.stdout(saidOut(outcomeText(result.outcome, whatIsSent(name, result.prepared.rowCount, result.target))));
      if (result.approvals && o.format === 'text') ctx.stdout(saidOut(said`Approved by ${approvalsText(result.approvals)}\n`));
      return exitCodeFor(result.outcome);
  }
}

/** Lint errors (each with its place), no rows, an invalid environment or a silent local gateway: nothing sent. */
function refusedBeforeSending(
  result: Extract<SubmitResult<CliTarget, string>, { status: 'refused' }>,
  name: string,
  ctx: CliContext,
): number {
  const { prepared } = result;
  if (result.reason === 'local-gateway-failed') {
    ctx.stderr(saidOut(said`paygate submit: ${nothingSent(result.problem)}\n`));
    return EXIT.transport;
  }
  for (const d of prepared.errors) {
    const p = displayPosition(d.range.start, prepared.lint.batch.csv.bom);
    ctx.stderr(
      saidOut(said`${typed.text(name)}:${typed.count(p.line)}:${typed.count(p.column)}: error ${typed.text(d.code)} ${d.message}\n`),
    );
  }
  // The core's refusal (prepare, approvals, the environment's problems) is a Said: each value checked alone.
  const hint = ourWords(prepared.errors.length > 0 ? " (see 'paygate lint', 'paygate fix')" : '');
  return inputError(ctx, 'paygate submit', said`${nothingSent(result.problem)}${hint}`);
}

/** A prompt that could not be asked, or a ledger that could not be read or written whole: nothing was sent. */
function failedBeforeSending(error: unknown, ledger: LedgerStore, ctx: CliContext): number {
  if (error instanceof UsageError) return inputError(ctx, 'paygate submit', error.message);
  if (ledger.kind === 'team')
    // Fail closed: the team ledger decides, so without it nothing goes out (and the file ledger is not asked instead).
    return inputError(
      ctx,
      'paygate submit',
      said`nothing was sent: ${typed.text((error as Error).message)}. Check the server and --ledger / $PAYGATE_LEDGER_URL ('paygate ledger status' tries it), then submit again`,
    );
  const reason = error instanceof LedgerWriteError ? error.reason : (error as Error).message;
  return inputError(
    ctx,
    'paygate submit',
    said`nothing was sent: the submission ledger ${typed.text(ledger.filePath)} could not be used (${typed.text(reason)})`,
  );
}

/** A part whose content was accepted at the target before: said, counted, not sent. */
function skipAccepted(ctx: CliContext, o: SubmitOptions, name: string, earlier: SubmissionRecord, parts: PartsRun): number {
  parts.skipped++;
  if (o.format === 'json') ctx.stdout(jsonOut({ file: name, skipped: 'already-accepted', submission: earlier.id }));
  else ctx.stdout(saidOut(said`${typed.text(name)}: already accepted (${describeEarlier(earlier)}); skipped\n`));
  return 0;
}
