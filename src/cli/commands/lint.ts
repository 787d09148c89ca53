import { resolve } from 'node:path';
import { gitTrackings } from '../../core/git';
import { cardDataInGit } from '../../core/rules/cardDataInGit';
import type { LintDiagnostic } from '../../core/rules/types';
import { lint as lintText } from '../../core/rules/lint';
import { LintedRows } from '../../core/ledgerLint/lintedRows';
import type { CliContext } from '../context';
import { ledgerIsPresent } from '../ledgerPlace';
import type * as LintLedger from '../lintLedger';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../core/payload';
import { configMayNameLimit } from '../payloadLimit';
import { formatLint, LINT_FORMATS, lintExitCode, type FileLint, type LintFormat } from '../format';
import { maxBytesOption, readInput } from '../io';
import { saidOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { version } from '../version';
import { said, typed } from '../../core/output';

export interface LintOptions {
  format: LintFormat;
  /** False with --no-git: skip asking git whether a file with card numbers is tracked or unignored. */
  git?: boolean;
  /** False with --no-ledger: skip already-sent and cvv-after-send. */
  ledger?: boolean;
  env?: string;
  state?: string;
  config?: string;
  maxBytes?: string;
}

/**
 * Problems listed per file; the rest are counted (in the summary and the file's `omitted`). A file
 * broken on every line would otherwise hold millions of diagnostics in memory and flood the log.
 */
export const MAX_LISTED = 10_000;

export function lintCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'lint',
      summary: 'check recurring-payment CSV files (text, JSON, SARIF or GitHub annotations)',
      description:
        'Checks recurring-payment CSV files against the rule book. Output is sorted by file, line, column and code. At most ' +
        '10,000 problems are listed per file (by position); the rest are counted in the summary (and in JSON as "omitted").',
      exits: [
        [0, 'no errors (warnings allowed)'],
        [1, 'errors found'],
        [2, 'usage error or unreadable file'],
      ],
    },
    ctx,
  )
    .argument('<FILE...>', 'files to check; - reads standard input')
    .addOption(
      choiceOption(
        '--format <FORMAT>',
        'text: one problem per line, file:line:column: severity code message; json: {"files":[{"file","diagnostics":[...]}],"summary":{"errors","warnings"}}; ' +
          'sarif: SARIF 2.1.0 for code scanning (paths relative to the working directory); github: GitHub Actions annotations',
        LINT_FORMATS,
      ).default('text'),
    )
    .option(
      '--max-bytes <N>',
      'read files up to N bytes (default 512M; K, M, G suffixes); only regular files (or - for standard input) are read',
    )
    .option('--no-git', 'do not check whether git tracks (or would take) a file holding full card numbers (card-data-in-git)')
    .option(
      '--no-ledger',
      'do not read the submission ledger (already-sent, cvv-after-send); without a ledger (as in CI) neither is checked anyway',
    )
    .option(
      '--env <NAME>',
      'the environment whose sends already-sent looks for, and whose maximum payload batch-too-large weighs (default: as paygate submit chooses it)',
    )
    .option('--state <DIR>', 'the submission ledger directory (default: as paygate submit chooses it)')
    .option('--config <FILE>', 'configuration file (as paygate submit reads it)')
    .action(exits((files, o) => lintFiles(files, o, ctx)));
}

/** lintLedger.ts, loaded when first needed (in the build, dist/cli-ledger.js). */
function loadLintLedger(): typeof LintLedger {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../lintLedger') as typeof LintLedger;
}

export async function lintFiles(paths: string[], values: LintOptions, ctx: CliContext): Promise<number> {
  const maxBytes = maxBytesOption(values.maxBytes);
  if (maxBytes === null)
    return usageError(ctx, 'paygate lint', `--max-bytes must be a whole number of bytes (e.g. 1073741824 or 1G), not "${values.maxBytes}"`);
  const files: FileLint[] = [];
  const failures: string[] = [];
  // The active environment's maximum payload; a configuration is read (from lint's ledger bundle) only when there is one.
  const limit = configMayNameLimit(ctx, values) ? loadLintLedger().activeMaxPayload(ctx, values) : { max: DEFAULT_MAX_PAYLOAD_BYTES };
  if (limit.problem)
    ctx.stderr(
      saidOut(
        said`paygate lint: batch-too-large uses the local gateway's maximum (${typed.count(limit.max)} bytes): ${typed.text(limit.problem)}\n`,
      ),
    );
  // The ledger's modules load only when there is a ledger to read (CI has none: lint starts as quickly). A
  // plain require: the build keeps it a require of dist/cli-ledger.js (esbuild.js), out of lint's bundle.
  const ledger = values.ledger !== false && ledgerIsPresent(ctx, values.state) ? loadLintLedger().ledgerFor(values, ctx) : undefined;

  /** Files holding full card numbers: git is asked about them all at once, after the lint. */
  const holding: { diagnostics: LintDiagnostic[]; path: string; tracked: LintDiagnostic; unignored: LintDiagnostic }[] = [];
  for (const path of paths) {
    const input = await readInput(path, ctx, { maxBytes });
    if (!input.ok) {
      ctx.stderr(saidOut(said`paygate lint: ${typed.text(input.message)}\n`));
      failures.push(input.message);
      continue;
    }
    // The card number is looked for in the lint's own pass over the rows; git is asked only when there is one.
    const askGit = values.git !== false && path !== '-';
    // With a ledger, what its checks need of the rows is kept as the lint reads them (lintedRows.ts).
    const rows = ledger ? new LintedRows() : undefined;
    const onRow = rows?.onRow;
    const result = lintText(input.text, { maxDiagnostics: MAX_LISTED, findCardNumber: askGit, onRow, maxPayloadBytes: limit.max });
    const diagnostics = result.diagnostics;
    const omitted = ledger && rows ? await ledger.add(result, input.name, MAX_LISTED, rows) : result.omitted;
    files.push({
      file: input.name,
      stdin: path === '-',
      text: input.text,
      diagnostics,
      ...(omitted && { omitted }),
    });
    // Both wordings now, so the parsed file can be let go before git answers.
    if (askGit && result.cardNumber)
      holding.push({
        diagnostics,
        path: resolve(ctx.cwd, path),
        tracked: cardDataInGit(result.batch, 'tracked', input.name, result.cardNumber)!,
        unignored: cardDataInGit(result.batch, 'unignored', input.name, result.cardNumber)!,
      });
  }
  const trackings = await gitTrackings(
    holding.map((h) => h.path),
    ctx.env,
  );
  for (const h of holding) {
    const tracking = trackings.get(h.path);
    if (tracking === 'tracked') h.diagnostics.push(h.tracked);
    if (tracking === 'unignored') h.diagnostics.push(h.unignored);
  }
  // Nothing was read: the "cannot read" lines say it all; a text summary of 0 files would read as a clean run.
  // The machine formats still print their document (SARIF records the failure in it).
  if (files.length === 0 && values.format === 'text') return lintExitCode(files, failures);
  ctx.stdout(formatLint(values.format, files, { cwd: ctx.cwd, version, failures }));
  return lintExitCode(files, failures);
}
