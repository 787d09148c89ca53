import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { createRecurringPayments, environmentProblems, prepareSubmission } from '../../core/gateway';
import {
  completionFor,
  guardedSend,
  LedgerWriteError,
  submissionEntry,
  type LocalGatewayRef,
  type SubmissionRecord,
} from '../../core/ledger';
import { checkSigningCredentials } from '../../core/oauth';
import { loadCliConfig } from '../config';
import { createCredentials, SECRET_ENV } from '../credentials';
import { localGatewayRef, resolveTarget } from '../target';
import type { CliContext } from '../context';
import { displayPosition, readInput } from '../io';
import { damageText, describeEarlier, openLedger } from '../ledger';
import { EXIT, exitCodeFor, field, inputError, jsonLine, outcomeJson, outcomeText } from '../output';
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
        'when the file has lint errors, or when the same content was already sent (or may have been) to the same ' +
        "environment and endpoint: see 'paygate history'.",
      notes:
        `Secrets: $${SECRET_ENV.rsaKeyFile}, $${SECRET_ENV.rsaKeyPassphrase}, $${SECRET_ENV.consumerSecret} (HMAC-SHA1 instead of RSA).\n` +
        "The local environment needs none: it uses the local gateway's demo merchant.",
      exits: [
        [EXIT.ok, 'accepted'],
        [EXIT.rejected, 'rejected (validation-error, error), declined, server error, or an unrecognised answer'],
        [EXIT.usage, 'usage error, unreadable input, lint errors or a resend refused (nothing sent)'],
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
    .argument('<FILE>', 'the recurring-payments file; - reads standard input')
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
    .option('--allow-resend', 'send even though the ledger says this content was (or may have been) sent before')
    .option(
      '--state <DIR>',
      'the submission ledger directory (default $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate; the editor uses the same)',
    )
    .option(
      '--config <FILE>',
      'configuration file (default ./paygate.config.json once trusted with paygate trust, else ~/.config/paygate/paygate.config.json)',
    )
    .action(exits((file, o) => submitFile(file, o, ctx)));
}

export const runSubmit = (args: string[], ctx: CliContext) => runCommand(submitCommand, args, ctx);

/**
 * lint gate → target → resend guard → confirmation → ledger "sending" (on disk) → one POST → ledger
 * completed → answer. Returns the exit code. The logic behind `paygate submit`, for any argument parser.
 */
export async function submitFile(file: string, o: SubmitOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate submit', message);
  const input = await readInput(file, ctx);
  if (!input.ok) return usage(input.message);
  const prepared = prepareSubmission(input.text, input.name);
  if (prepared.refusal) {
    for (const d of prepared.errors) {
      const p = displayPosition(d.range.start, prepared.lint.batch.csv.bom);
      ctx.stderr(`${input.name}:${p.line}:${p.column}: error ${d.code} ${field(d.message)}\n`);
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
    const what = `${input.name} (${rows} row${rows === 1 ? '' : 's'}) to ${field(env.name)}, endpoint ${field(env.endpointId)}`;
    let localGateway: LocalGatewayRef | undefined;
    if (t.local) {
      const ref = await localGatewayRef(t.local);
      if (!ref.ok) {
        ctx.stderr(`paygate submit: ${field(ref.message)}; nothing was sent\n`);
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
        allowResend: o.allowResend === true,
        confirmSend: async () => {
          if (!env.production || o.yes === true) return true;
          if (!ctx.interactive)
            throw new UsageError(`"${env.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
          return ctx.confirm(`Submit ${what} — a PRODUCTION environment?`);
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
      case 'raced':
        return usage(resendRefusal(input.name, env.name, env.endpointId, result.earlier));
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
    if (o.format === 'json') ctx.stdout(jsonLine({ ...outcomeJson(outcome), submission: result.record.id }));
    else ctx.stdout(outcomeText(outcome, what));
    return exitCodeFor(outcome);
  } finally {
    await t.release();
  }
}

/** A usage problem found inside the guarded flow (it ends the command with exit 2, nothing sent). */
class UsageError extends Error {}

function resendRefusal(file: string, environment: string, endpointId: string, earlier: SubmissionRecord): string {
  return (
    `${file}: the same content was already sent to ${environment}, endpoint ${endpointId}: ${describeEarlier(earlier)}.\n` +
    `Nothing was sent. Sending it again may create the payments twice; if you are sure, pass --allow-resend ('paygate history' lists what was sent).`
  );
}
