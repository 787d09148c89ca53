import type { Command } from '../command';
import { parseCommandArgs, oneOf, stringValue } from '../args';
import { createCredentials, loadCliConfig, processContext, resolveTarget, type CliContext } from '../config';
import { displayPosition, readInput } from '../io';
import { createRecurringPayments, type GatewayOutcome } from '../../core/gateway';
import { checkSigningCredentials } from '../../core/oauth';
import { lint } from '../../core/rules/lint';
import { maskFields, maskText } from '../../core/mask';

const HELP = `Usage: paygate submit FILE [--env NAME] [--base-url URL] [--endpoint-id ID] [--consumer-key K]
                      [--rsa-key PEMFILE] [--format text|json] [--yes] [--config FILE]

Lints FILE, then sends it to the create-recurring-payments operation (once; never retried).
Nothing is sent when the file has lint errors.

Options:
  --env NAME          environment from paygate.config.json (default: its "environment", else local)
  --base-url URL      override the environment's base URL
  --endpoint-id ID    override the environment's endpoint id
  --consumer-key K    override the environment's consumer key
  --rsa-key PEMFILE   RSA private key (PKCS#1 or PKCS#8 PEM); default $PAYGATE_RSA_KEY_FILE
  --format text|json  output (default text); json: {"outcome","status","fields","errorId"?}
  --yes               do not ask before sending to a production environment
  --config FILE       configuration file (default ./paygate.config.json once trusted
                      with 'paygate trust', else ~/.config/paygate/paygate.config.json)
  -h, --help          this help

Secrets: $PAYGATE_RSA_KEY_FILE, $PAYGATE_RSA_KEY_PASSPHRASE, $PAYGATE_CONSUMER_SECRET (HMAC-SHA1 instead of RSA).
The local environment needs none: it uses the local gateway's demo merchant.
Exit status: 0 accepted, 1 rejected or server error, 2 usage error or lint errors (nothing sent),
3 authentication failed, 4 transport error.`;

export const EXIT = { ok: 0, rejected: 1, usage: 2, auth: 3, transport: 4 } as const;

export function exitCodeFor(o: GatewayOutcome): number {
  switch (o.outcome) {
    case 'accepted':
    case 'report':
      return EXIT.ok;
    case 'auth-failed':
      return EXIT.auth;
    case 'transport-error':
      return EXIT.transport;
    default:
      return EXIT.rejected;
  }
}

/** The contract's JSON: {"outcome","status","fields","errorId"?}, plus a message where there are no fields. */
export function outcomeJson(o: GatewayOutcome): Record<string, unknown> {
  switch (o.outcome) {
    case 'accepted':
      return { outcome: o.outcome, status: o.status, fields: maskFields(o.fields) };
    case 'validation-error':
    case 'error':
      return { outcome: o.outcome, status: o.status, fields: maskFields(o.fields) };
    case 'server-error':
      return { outcome: o.outcome, status: o.status, fields: maskFields(o.fields), ...(o.errorId !== undefined ? { errorId: o.errorId } : {}) };
    case 'auth-failed':
      return { outcome: o.outcome, status: o.status, fields: {}, message: o.message };
    case 'transport-error':
      return { outcome: o.outcome, status: null, fields: {}, kind: o.kind, message: o.message };
    case 'unrecognised':
      return { outcome: o.outcome, status: o.status, fields: {}, contentType: o.contentType, raw: maskText(o.raw) };
    case 'report':
      return o.format === 'csv'
        ? { outcome: o.outcome, contentType: o.contentType, columns: o.columns, rows: o.rows }
        : { outcome: o.outcome, contentType: o.contentType, format: 'pdf', bytes: o.bytes.length };
  }
}

function fieldLines(fields: Record<string, string>): string {
  const masked = maskFields(fields);
  const width = Math.max(0, ...Object.keys(masked).map((k) => k.length));
  return Object.entries(masked).map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('');
}

/** A person's summary of an answer; `what` names the request ("examples/valid.rpcsv (4 rows) to local"). */
export function outcomeText(o: GatewayOutcome, what: string): string {
  switch (o.outcome) {
    case 'accepted':
      return `Accepted: ${what} (HTTP ${o.status}${Object.keys(o.fields).length === 0 ? ', empty answer' : ''})\n${fieldLines(o.fields)}`;
    case 'validation-error':
    case 'error':
      return `Rejected (${o.outcome}${o.errorCode !== undefined ? `, code ${o.errorCode}` : ''}): ${what}\n  ${maskText(o.errorMessage ?? '(no error-message)')}\n${fieldLines(o.fields)}`;
    case 'server-error':
      return `Server error (HTTP ${o.status}${o.errorId !== undefined ? `, error ID ${o.errorId}` : ', no error ID'}): ${what}\n${fieldLines(o.fields) || `  ${maskText(o.raw.trim()).slice(0, 500)}\n`}`;
    case 'auth-failed':
      return `Authentication failed (HTTP ${o.status}): ${what}\n  ${o.message}\n  Check the consumer key and the ${o.operation === 'create' ? 'RSA private key (or consumer secret)' : 'consumer secret'} of this environment.\n`;
    case 'transport-error':
      return `Not delivered (${o.kind}): ${what}\n  ${o.message}\n`;
    case 'unrecognised':
      return `Unrecognised answer (HTTP ${o.status}, ${o.contentType || 'no content type'}): ${what}\n${maskText(o.raw).split(/\r?\n/).slice(0, 20).map((l) => `  | ${l}\n`).join('')}`;
    case 'report':
      return `Report received (${o.format.toUpperCase()}, ${o.contentType || 'no content type'}): ${what}\n`;
  }
}

export async function runSubmit(args: string[], ctx: CliContext): Promise<number> {
  const usage = (message: string) => {
    ctx.stderr(`paygate submit: ${message}\n`);
    return EXIT.usage;
  };
  const parsed = parseCommandArgs(args, {
    env: { type: 'string' }, 'base-url': { type: 'string' }, 'endpoint-id': { type: 'string' }, 'consumer-key': { type: 'string' },
    'rsa-key': { type: 'string' }, format: { type: 'string' }, yes: { type: 'boolean', short: 'y' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' },
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

  const input = await readInput(positionals[0]);
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

  const config = loadCliConfig(ctx.cwd, stringValue(values, 'config'), ctx.env);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(config.value.config, {
    env: stringValue(values, 'env'), baseUrl: stringValue(values, 'base-url'), endpointId: stringValue(values, 'endpoint-id'), consumerKey: stringValue(values, 'consumer-key'),
  }, 'create');
  if (!target.ok) return usage(target.message);
  const t = target.value;
  try {
    const credentials = createCredentials(ctx, t, stringValue(values, 'rsa-key'));
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
    ctx.stdout(format.value === 'json' ? `${JSON.stringify(outcomeJson(outcome))}\n` : outcomeText(outcome, what));
    return exitCodeFor(outcome);
  } finally {
    await t.release();
  }
}

export const submit: Command = {
  summary: 'lint, sign and send a recurring-payments file (create operation)',
  run: (args) => runSubmit(args, processContext()),
};
