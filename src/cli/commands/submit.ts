import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { createRecurringPayments, environmentProblems, prepareSubmission } from '../../core/gateway';
import {
  alreadySentLines,
  completionFor,
  guardedSend,
  LedgerWriteError,
  submissionEntry,
  type AlreadySentRow,
  type LocalGatewayRef,
  type SubmissionRecord,
} from '../../core/ledger';
import { maskText } from '../../core/output';
import { checkSigningCredentials } from '../../core/oauth';
import { loadCliConfig } from '../config';
import { createCredentials, SECRET_ENV } from '../credentials';
import { localGatewayRef, resolveTarget } from '../target';
import type { CliContext } from '../context';
import { displayPosition, readInput } from '../io';
import { damageText, describeEarlier, openLedger } from '../ledger';
import { EXIT, exitCodeFor, inputError, outcomeJson, outcomeText } from '../output';
import { choiceOption, exits, paygateCommand, runCommand } from '../parser';

export interface SubmitOptions {
  env?: string;
  baseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  rsaKey?: string;
  format: 'text' | 'json';
  yes?: true;
  allowResend?: true;
  state?: string;
  config?: string;
}

export function submitCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'submit',
      summary: 'lint, sign and send a recurring-payments file (create operation)',
      description:
        'Lints FILE, then sends it to the create-recurring-payments operation (once; never retried). Nothing is sent ' +
        'when the file has lint errors, when the same content was already sent (or may have been) to the same ' +
        'environment and endpoint, or when any of its rows was (its client-orderid in such a submission: an edited, ' +
        "reordered or extended file): see 'paygate history' and 'paygate diff FILE --against last'.",
      notes:
        `Secrets: $${SECRET_ENV.rsaKeyFile}, $${SECRET_ENV.rsaKeyPassphrase}, $${SECRET_ENV.consumerSecret} (HMAC-SHA1 instead of RSA).\n` +
        "The local environment needs none: it uses the local gateway's demo merchant.",
      exits: [
        [EXIT.ok, 'accepted'],
        [EXIT.rejected, 'rejected (validation-error, error), declined, server error, or an unrecognised answer'],
        [EXIT.usage, 'usage error, unreadable input, lint errors, or a resend of the file or of some of its rows refused (nothing sent)'],
        [EXIT.auth, 'authentication failed'],
        [EXIT.transport, 'transport error before anything was sent (connection refused, DNS, TLS, connect timeout)'],
        [
          EXIT.unknown,
          'outcome unknown: the request went out and no full answer came back; the payments may exist, check before sending again',
        ],
      ],
    },
    ctx,
  )
    .argument(
      '<FILE...>',
      "the recurring-payments file; - reads standard input. Several (the parts 'paygate split' wrote): sent one by one in the order given, " +
        'each its own submission; a file whose content was already accepted at the target is skipped, and the first file not accepted stops the run',
    )
    .option('--env <NAME>', 'environment from paygate.config.json (default: its "environment", else local)')
    .option('--base-url <URL>', "override the environment's base URL")
    .option('--endpoint-id <ID>', "override the environment's endpoint id")
    .option('--consumer-key <K>', "override the environment's consumer key")
    .option('--rsa-key <PEMFILE>', `RSA private key (PKCS#1 or PKCS#8 PEM); default $${SECRET_ENV.rsaKeyFile}`)
    .addOption(
      choiceOption('--format <FORMAT>', 'json: {"outcome","status","fields","errorId"?,"kind"?,"message"?,"submission"}', [
        'text',
        'json',
      ]).default('text'),
    )
    .option('-y, --yes', 'do not ask before sending to a production environment (does not allow a resend)')
    .option(
      '--allow-resend',
      'send even though the ledger says this content, or some of its rows, was (or may have been) sent before: their payments may be created twice',
    )
    .option(
      '--state <DIR>',
      'the submission ledger directory (default $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate; the editor uses the same)',
    )
    .option(
      '--config <FILE>',
      'configuration file (default ./paygate.config.json once trusted with paygate trust, else ~/.config/paygate/paygate.config.json)',
    )
    .action(exits((files, o) => submitFiles(files, o, ctx)));
}

export const runSubmit = (args: string[], ctx: CliContext) => runCommand(submitCommand, args, ctx);

/** Where a run of several files (parts) stands: what was skipped, and the production question's answer. */
export interface PartsRun {
  skipped: number;
  sent: number;
  confirmed?: boolean;
}

/**
 * One file: submitFile. Several: each in turn, a file already accepted at the target skipped (so a run
 * stopped after part 2 sends only the parts not sent when it is run again), the first that is not
 * accepted (refused, rejected, unknown…) ending the run with its exit code, the files after it not sent.
 */
export async function submitFiles(files: string[], o: SubmitOptions, ctx: CliContext): Promise<number> {
  if (files.length === 1) return submitFile(files[0], o, ctx);
  if (files.includes('-')) return inputError(ctx, 'paygate submit', '- (standard input) cannot be one of several files');
  const run: PartsRun = { skipped: 0, sent: 0 };
  for (let i = 0; i < files.length; i++) {
    const code = await submitFile(files[i], o, ctx, run);
    if (code === 0) continue;
    const rest = files.length - i - 1;
    if (rest > 0)
      ctx.stderr(
        maskText(
          `paygate submit: stopped at ${files[i]}; the ${rest} file${rest === 1 ? '' : 's'} after it ${rest === 1 ? 'was' : 'were'} not sent\n`,
        ),
      );
    return code;
  }
  if (o.format === 'text')
    ctx.stdout(`${files.length} files: ${run.sent} sent and accepted, ${run.skipped} already accepted before (skipped)\n`);
  return 0;
}

/**
 * lint gate → target → resend guard → confirmation → ledger "sending" (on disk) → one POST → ledger
 * completed → answer. Returns the exit code. The logic behind `paygate submit`, for any argument parser.
 */
export async function submitFile(file: string, o: SubmitOptions, ctx: CliContext, parts?: PartsRun): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate submit', message);
  const input = await readInput(file, ctx);
  if (!input.ok) return usage(input.message);
  const prepared = prepareSubmission(input.text, input.name);
  if (prepared.refusal) {
    for (const d of prepared.errors) {
      const p = displayPosition(d.range.start, prepared.lint.batch.csv.bom);
      ctx.stderr(`${input.name}:${p.line}:${p.column}: error ${d.code} ${maskText(d.message)}\n`);
    }
    return usage(`${prepared.refusal.message}${prepared.errors.length > 0 ? " (see 'paygate lint', 'paygate fix')" : ''}`);
  }
  const rows = prepared.rowCount;

  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(
    config.value.config,
    { env: o.env, baseUrl: o.baseUrl, endpointId: o.endpointId, consumerKey: o.consumerKey },
    'create',
    { env: ctx.env, command: 'paygate submit' },
  );
  if (!target.ok) return usage(target.message);
  const t = target.value;
  try {
    const env = t.environment;
    const problems = environmentProblems(env, t.paths, 'create');
    if (problems.length > 0) return usage(`${problems.join('; ')}; nothing was sent`);
    const credentials = createCredentials(ctx, t, o.rsaKey);
    if (!credentials.ok) return usage(credentials.message);
    const usable = checkSigningCredentials(credentials.value);
    if (!usable.ok) return usage(`cannot sign: ${usable.reason}`);
    const what = `${input.name} (${rows} row${rows === 1 ? '' : 's'}) to ${env.name}, endpoint ${env.endpointId}`;
    let localGateway: LocalGatewayRef | undefined;
    if (t.local) {
      const ref = await localGatewayRef(t.local);
      if (!ref.ok) {
        ctx.stderr(`paygate submit: ${ref.message}; nothing was sent\n`);
        return EXIT.transport;
      }
      localGateway = ref.value;
    }

    const ledger = openLedger(ctx, o.state);
    let result;
    try {
      result = await guardedSend({
        ledger,
        entry: submissionEntry({
          face: 'cli',
          pid: process.pid,
          host: hostname(),
          environment: env,
          paths: t.paths,
          file: file === '-' ? input.name : resolve(ctx.cwd, file),
          prepared,
          signatureMethod: credentials.value.signatureMethod,
          ...(localGateway ? { localGateway } : {}),
        }),
        legacyHashes: prepared.legacyHashes,
        batch: prepared.lint.batch,
        allowResend: o.allowResend === true,
        confirmSend: async () => {
          if (!env.production || o.yes === true) return true;
          // A run of parts is asked once, at its first send.
          if (parts?.confirmed !== undefined) return parts.confirmed;
          if (!ctx.interactive)
            throw new UsageError(`"${env.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
          const yes = await ctx.confirm(`Submit ${what}${parts ? ' and the files after it' : ''} — a PRODUCTION environment?`);
          if (parts) parts.confirmed = yes;
          return yes;
        },
        send: () =>
          createRecurringPayments({
            environment: env,
            paths: t.paths,
            payload: prepared.payload,
            credentials: credentials.value,
            timeoutMs: t.timeoutMs,
          }),
        completion: (outcome) => completionFor(outcome),
      });
    } catch (err) {
      if (err instanceof UsageError) return usage(err.message);
      // Before the request: a ledger that cannot be read or written whole means nothing is sent.
      const reason = err instanceof LedgerWriteError ? err.reason : (err as Error).message;
      return usage(`nothing was sent: the submission ledger ${ledger.filePath} could not be used (${reason})`);
    }
    switch (result.status) {
      case 'in-flight':
        return usage(`${input.name} is already being sent; nothing was sent`);
      case 'damaged':
        ctx.stderr(`paygate submit: ${damageText(result.damage, ledger)}\n`);
        return usage(
          `${input.name} may have been sent before (the ledger's record of it may be in the damaged part); nothing was sent. ` +
            'Check in the gateway whether the payments exist; if you are sure they do not, pass --allow-resend.',
        );
      case 'duplicate':
        if (parts && result.earlier.outcome === 'accepted') return skipAccepted(ctx, o, input.name, result.earlier, parts);
        return usage(resendRefusal(input.name, env.name, env.endpointId, result.earlier));
      case 'raced':
        return usage(resendRefusal(input.name, env.name, env.endpointId, result.earlier));
      case 'already-sent':
        for (const line of alreadySentLines(input.name, result.rows)) ctx.stderr(`${maskText(line)}\n`);
        return usage(rowsRefusal(input.name, env.name, env.endpointId, result.rows));
      case 'not-confirmed':
        return usage('not sent');
      case 'sent':
        break;
    }
    const outcome = result.outcome;
    if (result.recordError)
      ctx.stderr(
        `paygate submit: the answer could not be recorded in ${ledger.filePath} (${result.recordError}); the record stays "sending"\n`,
      );
    if (parts && outcome.outcome === 'accepted') parts.sent++;
    if (o.format === 'json')
      ctx.stdout(`${JSON.stringify({ ...(parts ? { file: input.name } : {}), ...outcomeJson(outcome), submission: result.record.id })}\n`);
    else ctx.stdout(outcomeText(outcome, what));
    return exitCodeFor(outcome);
  } finally {
    await t.release();
  }
}

/** A part whose content was accepted at the target before: said, counted, not sent. */
function skipAccepted(ctx: CliContext, o: SubmitOptions, name: string, earlier: SubmissionRecord, parts: PartsRun): number {
  parts.skipped++;
  if (o.format === 'json') ctx.stdout(`${JSON.stringify({ file: name, skipped: 'already-accepted', submission: earlier.id })}\n`);
  else ctx.stdout(maskText(`${name}: already accepted (${describeEarlier(earlier)}); skipped\n`));
  return 0;
}

function rowsRefusal(file: string, environment: string, endpointId: string, rows: readonly AlreadySentRow[]): string {
  const n = rows.length;
  return (
    `${file}: ${n} row${n === 1 ? ' was' : 's were'} already sent to ${environment}, endpoint ${endpointId} (listed above). ` +
    'Nothing was sent. Sending them again may create their payments twice: remove them from the file ' +
    `('paygate diff ${file} --against last' shows what changed since the last send), or, if you are sure, pass --allow-resend.`
  );
}

/** A usage problem found inside the guarded flow (it ends the command with exit 2, nothing sent). */
class UsageError extends Error {}

function resendRefusal(file: string, environment: string, endpointId: string, earlier: SubmissionRecord): string {
  return (
    `${file}: the same content was already sent to ${environment}, endpoint ${endpointId}: ${describeEarlier(earlier)}.\n` +
    `Nothing was sent. Sending it again may create the payments twice; if you are sure, pass --allow-resend ('paygate history' lists what was sent).`
  );
}
