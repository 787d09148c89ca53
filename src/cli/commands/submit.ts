import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { createRecurringPayments, type PathTemplates } from '../../core/gateway';
import { approvalsText } from '../../core/ledger/approvals';
import {
  alreadySentLines,
  LedgerWriteError,
  storePlace,
  type AlreadySentRow,
  type LedgerStore,
  type SubmissionRecord,
} from '../../core/ledger';
import { checkSigningCredentials, type SigningCredentials } from '../../core/oauth';
import { submitBatch, type SubmitResult, type SubmitTarget } from '../../core/submit/submitBatch';
import type { LocalGatewayUse } from '../../local-gateway';
import { loadCliConfig } from '../config';
import { createCredentials, SECRET_ENV } from '../credentials';
import { localGatewayRef, resolveTarget } from '../target';
import type { CliContext } from '../context';
import { displayPosition, readInput } from '../io';
import { damageText, describeEarlier, LedgerUrlError, openLedger } from '../ledger';
import { EXIT, exitCodeFor, field, inputError, jsonLine, outcomeJson, outcomeText, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';

export interface SubmitOptions {
  env?: string;
  baseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  rsaKey?: string;
  format: 'text' | 'json';
  yes?: true;
  /** true: send whatever the ledger says; a name: that one file of several (a run of parts). */
  allowResend?: true | string;
  state?: string;
  ledger?: string;
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
        // Every outcome by its name at its exit code (test/unit/cli-docs.test.ts holds this list to OUTCOMES).
        [EXIT.ok, 'accepted'],
        [
          EXIT.rejected,
          'rejected (validation-error, error; too-large: HTTP 413, refused before processing, nothing created), declined, server-error, or an unrecognised answer (unrecognised)',
        ],
        [EXIT.usage, 'usage error, unreadable input, lint errors, or a resend of the file or of some of its rows refused (nothing sent)'],
        [EXIT.auth, 'authentication failed (auth-failed)'],
        [EXIT.transport, 'transport-error before anything was sent (connection refused, DNS, TLS, connect timeout)'],
        [
          EXIT.unknown,
          'outcome unknown: the request went out and no full answer came back; the payments may exist, check before sending again',
        ],
      ],
    },
    ctx,
  )
    .argument(
      '[FILE...]',
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
      '--allow-resend [PART]',
      'send even though the ledger says this content, or some of its rows, was (or may have been) sent before: their payments may be created twice. ' +
        'With several files, PART names the one to send again; a file the ledger records as accepted at the target is skipped either way',
    )
    .option(
      '--state <DIR>',
      'the submission ledger directory (default $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate; the editor uses the same)',
    )
    .option(
      '--ledger <URL>',
      'the team ledger, shared by every member (postgres://ROLE@HOST:PORT/DATABASE; default $PAYGATE_LEDGER_URL; the team key from $PAYGATE_LEDGER_KEY_FILE); without either, the file ledger of --state',
    )
    .option(
      '--config <FILE>',
      'configuration file (default ./paygate.config.json once trusted with paygate trust, else ~/.config/paygate/paygate.config.json)',
    )
    .action(
      exits(async (files, o) => {
        // `--allow-resend FILE` with one file: the option took the file as its PART.
        if (files.length === 0 && typeof o.allowResend === 'string') return submitFiles([o.allowResend], { ...o, allowResend: true }, ctx);
        if (files.length === 0) return usageError(ctx, 'paygate submit', 'no FILE given');
        return submitFiles(files, o, ctx);
      }),
    );
}

/** What the CLI resolves before a send: the core's target with its credentials and its local gateway. */
interface CliTarget extends SubmitTarget {
  paths: PathTemplates;
  credentials: SigningCredentials;
  timeoutMs: number;
  local?: LocalGatewayUse;
  release: () => Promise<void>;
}

/** Config, environment, overrides and signing credentials; a usage message when any is missing or wrong. */
async function cliTarget(o: SubmitOptions, ctx: CliContext): Promise<{ ok: true; value: CliTarget } | { ok: false; refusal: string }> {
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return { ok: false, refusal: config.message };
  const overrides = { env: o.env, baseUrl: o.baseUrl, endpointId: o.endpointId, consumerKey: o.consumerKey };
  const target = await resolveTarget(config.value.config, overrides, 'create', { env: ctx.env, command: 'paygate submit' });
  if (!target.ok) return { ok: false, refusal: target.message };
  const t = target.value;
  const credentials = createCredentials(ctx, t, o.rsaKey);
  const usable = credentials.ok ? checkSigningCredentials(credentials.value) : undefined;
  if (!credentials.ok || !usable?.ok) {
    await t.release();
    return { ok: false, refusal: credentials.ok ? `cannot sign: ${usable?.ok === false ? usable.reason : ''}` : credentials.message };
  }
  return { ok: true, value: { ...t, signatureMethod: credentials.value.signatureMethod, credentials: credentials.value } };
}

const whatIsSent = (name: string, rows: number, t: CliTarget) =>
  `${name} (${rows} row${rows === 1 ? '' : 's'}) to ${field(t.environment.name)}, endpoint ${field(t.environment.endpointId)}`;

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
  const named = typeof o.allowResend === 'string' ? resolve(ctx.cwd, o.allowResend) : undefined;
  if (named !== undefined && !files.some((f) => f !== '-' && resolve(ctx.cwd, f) === named))
    return inputError(
      ctx,
      'paygate submit',
      `--allow-resend ${field(o.allowResend as string)}: not one of the files given; nothing was sent`,
    );
  // Which file may be sent again: every one (a bare --allow-resend), the one named, or none.
  const allowFor = (file: string) => o.allowResend === true || (named !== undefined && file !== '-' && resolve(ctx.cwd, file) === named);
  const forFile = (file: string): SubmitOptions => {
    const { allowResend: _, ...rest } = o;
    return allowFor(file) ? { ...rest, allowResend: true } : rest;
  };
  if (files.length === 1) return submitFile(files[0], forFile(files[0]), ctx);
  if (files.includes('-')) return inputError(ctx, 'paygate submit', '- (standard input) cannot be one of several files');
  const run: PartsRun = { skipped: 0, sent: 0 };
  for (let i = 0; i < files.length; i++) {
    const code = await submitFile(files[i], forFile(files[i]), ctx, run);
    if (code === 0) continue;
    const rest = files.length - i - 1;
    if (rest > 0)
      ctx.stderr(
        `paygate submit: stopped at ${field(files[i])}; the ${rest} file${rest === 1 ? '' : 's'} after it ${rest === 1 ? 'was' : 'were'} not sent\n`,
      );
    return code;
  }
  if (o.format === 'text')
    ctx.stdout(`${files.length} files: ${run.sent} sent and accepted, ${run.skipped} already accepted before (skipped)\n`);
  return 0;
}

/**
 * The core's submit use case with the terminal's prompts and words: lint gate → target → resend guard →
 * confirmation → ledger "sending" (on disk) → one POST → ledger completed → answer. Returns the exit code.
 * The logic behind `paygate submit`, for any argument parser.
 */
export async function submitFile(file: string, o: SubmitOptions, ctx: CliContext, parts?: PartsRun): Promise<number> {
  const input = await readInput(file, ctx);
  if (!input.ok) return inputError(ctx, 'paygate submit', input.message);
  let ledger: LedgerStore;
  try {
    ledger = openLedger(ctx, o.state, o.ledger);
  } catch (err) {
    if (err instanceof LedgerUrlError) return inputError(ctx, 'paygate submit', `${err.message}; nothing was sent`);
    throw err;
  }
  const result = await submitBatch(input.text, input.name, {
    face: 'cli',
    pid: process.pid,
    host: hostname(),
    ledger,
    file: file === '-' ? input.name : resolve(ctx.cwd, file),
    target: () => cliTarget(o, ctx),
    localGateway: async (t) => {
      if (!t.local) return undefined;
      const ref = await localGatewayRef(t.local);
      if (!ref.ok) throw new Error(ref.message);
      return ref.value;
    },
    allowResend: o.allowResend === true,
    // A run of parts never sends again a part the ledger records as accepted, --allow-resend or not.
    keepAccepted: parts !== undefined,
    confirmSend: async (t, prepared) => {
      if (!t.environment.production || o.yes === true) return true;
      // A run of parts is asked once, at its first send.
      if (parts?.confirmed !== undefined) return parts.confirmed;
      if (!ctx.interactive)
        throw new UsageError(`"${t.environment.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
      const what = `${whatIsSent(input.name, prepared.rowCount, t)}${parts ? ' and the files after it' : ''}`;
      const yes = await ctx.confirm(`Submit ${what} — a PRODUCTION environment?`);
      if (parts) parts.confirmed = yes;
      return yes;
    },
    send: (t, prepared) =>
      createRecurringPayments({
        environment: t.environment,
        paths: t.paths,
        payload: prepared.payload,
        credentials: t.credentials,
        timeoutMs: t.timeoutMs,
      }),
  });
  return reportResult(result, input.name, ledger, o, ctx, parts);
}

/** What the terminal says of how a submit ended, and the exit code. */
function reportResult(
  result: SubmitResult<CliTarget, string>,
  name: string,
  ledger: LedgerStore,
  o: SubmitOptions,
  ctx: CliContext,
  parts?: PartsRun,
): number {
  const usage = (message: string) => inputError(ctx, 'paygate submit', message);
  switch (result.status) {
    case 'refused':
      return refusedBeforeSending(result, name, ctx);
    case 'no-target':
      return usage(result.refusal);
    case 'failed':
      return failedBeforeSending(result.error, ledger, ctx);
    case 'in-flight':
      return usage(`${name} is already being sent; nothing was sent`);
    case 'damaged':
      ctx.stderr(`paygate submit: ${damageText(result.damage, ledger)}\n`);
      return usage(
        `${name} may have been sent before (the ledger's record of it may be in the damaged part); nothing was sent. ` +
          `Check in the gateway whether the payments exist; if you are sure they do not, pass ${allowResendFor(name, parts)}.`,
      );
    case 'duplicate':
      // A part of a run whose content was accepted at the target before: skipped, not refused.
      if (parts && result.earlier.outcome === 'accepted') return skipAccepted(ctx, o, name, result.earlier, parts);
      return usage(resendRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.earlier, parts));
    case 'raced':
      return usage(resendRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.earlier, parts));
    case 'already-sent':
      for (const line of alreadySentLines(name, result.rows)) ctx.stderr(`${field(line)}\n`);
      return usage(rowsRefusal(name, result.target.environment.name, result.target.environment.endpointId, result.rows, parts));
    case 'not-confirmed':
      return usage('not sent');
    case 'sent':
      if (result.recordError)
        ctx.stderr(
          `paygate submit: the answer could not be recorded in ${storePlace(ledger)} (${result.recordError}); the record stays "sending"\n`,
        );
      if (parts && result.outcome.outcome === 'accepted') parts.sent++;
      if (o.format === 'json')
        ctx.stdout(jsonLine({ ...(parts ? { file: name } : {}), ...outcomeJson(result.outcome), submission: result.record.id }));
      else ctx.stdout(outcomeText(result.outcome, whatIsSent(name, result.prepared.rowCount, result.target)));
      if (result.approvals && o.format === 'text') ctx.stdout(`Approved by ${field(approvalsText(result.approvals))}\n`);
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
    ctx.stderr(`paygate submit: ${field(result.message)}; nothing was sent\n`);
    return EXIT.transport;
  }
  for (const d of prepared.errors) {
    const p = displayPosition(d.range.start, prepared.lint.batch.csv.bom);
    ctx.stderr(`${name}:${p.line}:${p.column}: error ${d.code} ${field(d.message)}\n`);
  }
  const hint = prepared.errors.length > 0 ? " (see 'paygate lint', 'paygate fix')" : '';
  return inputError(ctx, 'paygate submit', `${result.message}${hint}`);
}

/** A prompt that could not be asked, or a ledger that could not be read or written whole: nothing was sent. */
function failedBeforeSending(error: unknown, ledger: LedgerStore, ctx: CliContext): number {
  if (error instanceof UsageError) return inputError(ctx, 'paygate submit', error.message);
  if (ledger.kind === 'team')
    // Fail closed: the team ledger decides, so without it nothing goes out (and the file ledger is not asked instead).
    return inputError(
      ctx,
      'paygate submit',
      `nothing was sent: ${(error as Error).message}. Check the server and --ledger / $PAYGATE_LEDGER_URL ('paygate ledger status' tries it), then submit again`,
    );
  const reason = error instanceof LedgerWriteError ? error.reason : (error as Error).message;
  return inputError(ctx, 'paygate submit', `nothing was sent: the submission ledger ${ledger.filePath} could not be used (${reason})`);
}

/** A part whose content was accepted at the target before: said, counted, not sent. */
function skipAccepted(ctx: CliContext, o: SubmitOptions, name: string, earlier: SubmissionRecord, parts: PartsRun): number {
  parts.skipped++;
  if (o.format === 'json') ctx.stdout(jsonLine({ file: name, skipped: 'already-accepted', submission: earlier.id }));
  else ctx.stdout(`${field(name)}: already accepted (${field(describeEarlier(earlier))}); skipped\n`);
  return 0;
}

/**
 * The way on that a refusal offers: --allow-resend; in a run of parts, naming that part, which sends it
 * alone again (the parts the ledger records as accepted are skipped either way).
 */
function allowResendFor(file: string, parts?: PartsRun): string {
  return parts
    ? `--allow-resend ${field(file)} to send this part again (and the parts after it; the parts recorded as accepted are skipped either way)`
    : '--allow-resend';
}

function rowsRefusal(file: string, environment: string, endpointId: string, rows: readonly AlreadySentRow[], parts?: PartsRun): string {
  const n = rows.length;
  return (
    `${file}: ${n} row${n === 1 ? ' was' : 's were'} already sent to ${environment}, endpoint ${endpointId} (listed above). ` +
    'Nothing was sent. Sending them again may create their payments twice: remove them from the file ' +
    `('paygate diff ${file} --against last' shows what changed since the last send), or, if you are sure, pass ${allowResendFor(file, parts)}.`
  );
}

/** A usage problem found inside the guarded flow (it ends the command with exit 2, nothing sent). */
class UsageError extends Error {}

function resendRefusal(file: string, environment: string, endpointId: string, earlier: SubmissionRecord, parts?: PartsRun): string {
  return (
    `${file}: the same content was already sent to ${environment}, endpoint ${endpointId}: ${describeEarlier(earlier)}.\n` +
    `Nothing was sent. Sending it again may create the payments twice; check in the gateway whether they exist, and if you are sure they do not, pass ${allowResendFor(file, parts)} ('paygate history' lists what was sent).`
  );
}
