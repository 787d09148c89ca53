import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from '../command';
import { parseCommandArgs, oneOf, stringValue } from '../args';
import { createCredentials, loadCliConfig, processContext, resolveTarget, type CliContext } from '../config';
import { displayPosition, readInput } from '../io';
import { createRecurringPayments, createRecurringPaymentsUrl, environmentProblems, prepareSubmission } from '../../core/gateway';
import { completionFor, guardedSend, type SubmissionRecord } from '../../core/ledger';
import { checkSigningCredentials } from '../../core/oauth';
import { maskText } from '../../core/mask';
import { damageText, describeEarlier, openLedger } from '../ledger';
import { EXIT, EXIT_STATUS_HELP, exitCodeFor, outcomeJson, outcomeText } from '../outcome';

export { EXIT, exitCodeFor, outcomeJson, outcomeText } from '../outcome';

const HELP = `Usage: paygate submit FILE [--env NAME] [--base-url URL] [--endpoint-id ID] [--consumer-key K]
                      [--rsa-key PEMFILE] [--format text|json] [--yes] [--allow-resend]
                      [--state DIR] [--config FILE]

Lints FILE, then sends it to the create-recurring-payments operation (once; never retried).
Nothing is sent when the file has lint errors, or when the same content was already sent (or may have
been) to the same environment and endpoint: see 'paygate history'.

Options:
  --env NAME          environment from paygate.config.json (default: its "environment", else local)
  --base-url URL      override the environment's base URL
  --endpoint-id ID    override the environment's endpoint id
  --consumer-key K    override the environment's consumer key
  --rsa-key PEMFILE   RSA private key (PKCS#1 or PKCS#8 PEM); default $PAYGATE_RSA_KEY_FILE
  --format text|json  output (default text); json: {"outcome","status","fields","errorId"?,"kind"?,"message"?}
  --yes               do not ask before sending to a production environment (does not allow a resend)
  --allow-resend      send even though the ledger says this content was (or may have been) sent before
  --state DIR         the submission ledger's directory (default $PAYGATE_DATA_DIR, else
                      $XDG_DATA_HOME/paygate, else ~/.local/share/paygate; the editor uses the same)
  --config FILE       configuration file (default ./paygate.config.json)
  -h, --help          this help

Secrets: $PAYGATE_RSA_KEY_FILE, $PAYGATE_RSA_KEY_PASSPHRASE, $PAYGATE_CONSUMER_SECRET (HMAC-SHA1 instead of RSA).
The local environment needs none: it uses the local gateway's demo merchant.
${EXIT_STATUS_HELP}`;

export interface SubmitOptions {
  file: string;
  format: 'text' | 'json';
  env?: string;
  baseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  rsaKey?: string;
  yes: boolean;
  allowResend: boolean;
  state?: string;
  config?: string;
}

export async function runSubmit(args: string[], ctx: CliContext): Promise<number> {
  const usage = (message: string) => {
    ctx.stderr(`paygate submit: ${message}\n`);
    return EXIT.usage;
  };
  const parsed = parseCommandArgs(args, {
    env: { type: 'string' }, 'base-url': { type: 'string' }, 'endpoint-id': { type: 'string' }, 'consumer-key': { type: 'string' },
    'rsa-key': { type: 'string' }, format: { type: 'string' }, yes: { type: 'boolean', short: 'y' }, 'allow-resend': { type: 'boolean' },
    state: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usage(`${parsed.message}\n${HELP}`);
  const { values, positionals } = parsed;
  if (values.help) {
    ctx.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  const format = oneOf(stringValue(values, 'format'), ['text', 'json'] as const, '--format', 'text');
  if (!format.ok) return usage(format.message);
  if (positionals.length !== 1) return usage(`${positionals.length === 0 ? 'no FILE given' : 'one FILE at a time'}\n${HELP}`);
  return submitFile(
    {
      file: positionals[0], format: format.value, env: stringValue(values, 'env'), baseUrl: stringValue(values, 'base-url'),
      endpointId: stringValue(values, 'endpoint-id'), consumerKey: stringValue(values, 'consumer-key'), rsaKey: stringValue(values, 'rsa-key'),
      yes: values.yes === true, allowResend: values['allow-resend'] === true, state: stringValue(values, 'state'), config: stringValue(values, 'config'),
    },
    ctx,
  );
}

/**
 * lint gate → target → resend guard → confirmation → ledger "sending" (on disk) → one POST → ledger
 * completed → answer. Returns the exit code. The logic behind `paygate submit`, for any argument parser.
 */
export async function submitFile(o: SubmitOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => {
    ctx.stderr(`paygate submit: ${message}\n`);
    return EXIT.usage;
  };
  const input = await readInput(o.file);
  if (!input.ok) return usage(input.message);
  const prepared = prepareSubmission(input.text);
  if (prepared.errors.length > 0) {
    for (const d of prepared.errors) {
      const p = displayPosition(d.range.start, prepared.lint.batch.csv.bom);
      ctx.stderr(`${input.name}:${p.line}:${p.column}: error ${d.code} ${maskText(d.message)}\n`);
    }
    return usage(`${prepared.errors.length} lint error(s) in ${input.name}; nothing was sent (see 'paygate lint', 'paygate fix')`);
  }
  const rows = prepared.rowCount;

  const config = loadCliConfig(ctx.cwd, o.config);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(config.value.config, { env: o.env, baseUrl: o.baseUrl, endpointId: o.endpointId, consumerKey: o.consumerKey }, 'create');
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

    const ledger = openLedger(ctx, o.state);
    let result;
    try {
      result = await guardedSend({
        ledger,
        entry: {
          face: 'cli', pid: process.pid, host: hostname(), environment: env.name, production: env.production, endpointId: env.endpointId,
          endpoint: createRecurringPaymentsUrl(env, t.paths), file: o.file === '-' ? input.name : resolve(ctx.cwd, o.file), rowCount: rows, contentHash: prepared.contentHash,
          signatureMethod: credentials.value.signatureMethod,
        },
        allowResend: o.allowResend,
        confirmSend: async () => {
          if (!env.production || o.yes) return true;
          if (!ctx.interactive) throw new UsageError(`"${env.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
          return ctx.confirm(`Submit ${what} — a PRODUCTION environment?`);
        },
        send: () => createRecurringPayments({ environment: env, paths: t.paths, payload: prepared.payload, credentials: credentials.value, timeoutMs: t.timeoutMs }),
        completion: (outcome) => completionFor(outcome),
      });
    } catch (err) {
      if (err instanceof UsageError) return usage(err.message);
      return usage(`cannot use the submission ledger ${ledger.filePath}: ${(err as Error).message}; nothing was sent`);
    }
    switch (result.status) {
      case 'in-flight':
        return usage(`${input.name} is already being sent; nothing was sent`);
      case 'damaged':
        ctx.stderr(`paygate submit: ${damageText(result.damage, ledger)}\n`);
        return usage('nothing was sent; run the command again once you have checked (or pass --allow-resend)');
      case 'duplicate':
      case 'raced':
        return usage(resendRefusal(input.name, env.name, env.endpointId, result.earlier));
      case 'not-confirmed':
        return usage('not sent');
      case 'sent':
        break;
    }
    const outcome = result.outcome;
    if (result.recordError) ctx.stderr(`paygate submit: the answer could not be recorded in ${ledger.filePath} (${result.recordError}); the record stays "sending"\n`);
    if (o.format === 'json') ctx.stdout(`${JSON.stringify({ ...outcomeJson(outcome), submission: result.record.id })}\n`);
    else {
      ctx.stdout(outcomeText(outcome, what));
      if (outcome.outcome === 'unrecognised') ctx.stdout('  The request reached the gateway: check whether the payments exist before sending this file again.\n');
    }
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

export const submit: Command = {
  summary: 'lint, sign and send a recurring-payments file (create operation)',
  run: (args) => runSubmit(args, processContext()),
};
