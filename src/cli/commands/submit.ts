import { createCredentials, loadCliConfig, resolveTarget, SECRET_ENV } from '../config';
import type { CliContext } from '../context';
import { displayPosition, readInput } from '../io';
import { EXIT, exitCodeFor, inputError, outcomeJson, outcomeText } from '../output';
import { choiceOption, exits, paygateCommand, runCommand } from '../parser';
import { createRecurringPayments } from '../../core/gateway';
import { checkSigningCredentials } from '../../core/oauth';
import { lint } from '../../core/rules/lint';
import { maskText } from '../../core/mask';

export interface SubmitOptions {
  env?: string;
  baseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  rsaKey?: string;
  format: 'text' | 'json';
  yes?: true;
  config?: string;
}

export function submitCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'submit',
      summary: 'lint, sign and send a recurring-payments file (create operation)',
      description:
        'Lints FILE, then sends it to the create-recurring-payments operation (once; never retried). Nothing is sent ' +
        'when the file has lint errors.',
      notes:
        `Secrets: $${SECRET_ENV.rsaKeyFile}, $${SECRET_ENV.rsaKeyPassphrase}, $${SECRET_ENV.consumerSecret} (HMAC-SHA1 instead of RSA).\n` +
        "The local environment needs none: it uses the local gateway's demo merchant.",
      exits: [
        [EXIT.ok, 'accepted'],
        [EXIT.rejected, 'rejected (validation-error, error), server error, or an unrecognised answer'],
        [EXIT.usage, 'usage error, unreadable input, or lint errors (nothing sent)'],
        [EXIT.auth, 'authentication failed'],
        [EXIT.transport, 'transport error (connection refused, timeout, TLS)'],
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
    .addOption(choiceOption('--format <FORMAT>', 'json: {"outcome","status","fields","errorId"?}', ['text', 'json']).default('text'))
    .option('-y, --yes', 'do not ask before sending to a production environment')
    .option('--config <FILE>', 'configuration file (default ./paygate.config.json)')
    .action(exits((file, o) => submitFile(file, o, ctx)));
}

export const runSubmit = (args: string[], ctx: CliContext) => runCommand(submitCommand, args, ctx);

export async function submitFile(file: string, values: SubmitOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate submit', message);

  const input = await readInput(file, ctx);
  if (!input.ok) return usage(input.message);
  const result = lint(input.text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    for (const d of errors) {
      const p = displayPosition(d.range.start, result.batch.csv.bom);
      ctx.stderr(`${input.name}:${p.line}:${p.column}: error ${d.code} ${maskText(d.message)}\n`);
    }
    return usage(`${errors.length} lint error(s) in ${input.name}; nothing was sent (see 'paygate lint', 'paygate fix')`);
  }
  const rows = result.batch.rows.length;

  const config = loadCliConfig(ctx.cwd, values.config);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(config.value.config, {
    env: values.env, baseUrl: values.baseUrl, endpointId: values.endpointId, consumerKey: values.consumerKey,
  }, 'create');
  if (!target.ok) return usage(target.message);
  const t = target.value;
  try {
    const credentials = createCredentials(ctx, t, values.rsaKey);
    if (!credentials.ok) return usage(credentials.message);
    const usable = checkSigningCredentials(credentials.value);
    if (!usable.ok) return usage(`cannot sign: ${usable.reason}`);
    const env = t.environment;
    const what = `${input.name} (${rows} row${rows === 1 ? '' : 's'}) to ${env.name}, endpoint ${env.endpointId}`;
    if (env.production && values.yes !== true) {
      if (!ctx.interactive) return usage(`"${env.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
      if (!(await ctx.confirm(`Submit ${what} — a PRODUCTION environment?`))) return usage('not sent');
    }
    const outcome = await createRecurringPayments({ environment: env, paths: t.paths, csvText: input.text, credentials: credentials.value, timeoutMs: t.timeoutMs });
    ctx.stdout(values.format === 'json' ? `${JSON.stringify(outcomeJson(outcome))}\n` : outcomeText(outcome, what));
    return exitCodeFor(outcome);
  } finally {
    await t.release();
  }
}
