import { resolve } from 'node:path';
import type { CliContext } from '../context';
import { EXIT, field, inputError, saidOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { SECRET_ENV } from '../credentials';
import { submitFile } from '../submit/submitFile';
import type { PartsRun, SubmitOptions } from '../submit/types';
import { ourWords, said, typed } from '../../core/output';

// `paygate submit`: its definition, and a run of one file or several (parts). The steps of one file are in
// ../submit/: submitFile.ts (the core's use case with the terminal's prompts), report.ts (how it ended),
// refusals.ts (the guards' words).

export function submitCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'submit',
      summary: 'lint, sign and send a recurring-payments file (create operation)',
      description:
        'Lints FILE, then sends it to the create-recurring-payments operation (once; never retried). Nothing is sent ' +
        'when the file has lint errors, when the same content was already sent (or may have been) to the same ' +
        'environment and endpoint, or when any of its rows was (its client-orderid in such a submission: an edited, ' +
        "reordered or extended file): see 'paygate history' and 'paygate diff FILE --against last'. Nor when a row's card and " +
        'schedule were sent there under another client-orderid (same-payer), unless --allow-same-payer.',
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
        [
          EXIT.usage,
          'usage error, unreadable input, lint errors, a resend of the file or of some of its rows refused, or a same payer under another id refused (nothing sent)',
        ],
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
      '--allow-same-payer',
      'send rows whose card and schedule were already sent to the target under another client-orderid (same-payer): the same payers are charged again',
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
        saidOut(
          said`paygate submit: stopped at ${typed.text(files[i])}; the ${typed.count(rest)} ${ourWords(rest === 1 ? 'file after it was' : 'files after it were')} not sent\n`,
        ),
      );
    return code;
  }
  if (o.format === 'text')
    ctx.stdout(
      saidOut(
        said`${typed.count(files.length)} files: ${typed.count(run.sent)} sent and accepted, ${typed.count(run.skipped)} already accepted before (skipped)\n`,
      ),
    );
  return 0;
}
