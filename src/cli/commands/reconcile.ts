import { parseGatewayDate, todayLocal, type CalendarDate } from '../../core/dates';
import { runCustomReportTemplate } from '../../core/report/runReport';
import {
  parseColumnOverride,
  ReportReconciliation,
  SETTLED_STATUSES,
  type ColumnOverrides,
  type Reconciliation,
} from '../../core/reconcile';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { simulatedToday } from '../../local-gateway/simulatedDate';
import { loadCliConfig } from '../config';
import { localStateDir } from '../localGateway';
import { reportTarget } from '../reportTarget';
import { withReportFile } from '../reportOut';
import type { CliContext } from '../context';
import { reconcileCsvPieces, reconcileJsonPieces, reconcileTextPieces, reportFileLabel, reportRunLabel } from '../format/reconcile';
import { readInput } from '../io';
import { EXIT, field, inputError, saidOut } from '../output';
import { choiceOption, exits, paygateCommand, rawOption } from '../parser';
import { feedReport, ledgerBatches, namedBatches, type BatchSource } from '../reconcileInputs';
import { said, typed } from '../../core/output';

export interface ReconcileOptions {
  report?: string;
  template?: string;
  asOf?: string;
  from?: string;
  column: string[];
  format: 'text' | 'json' | 'csv';
  raw?: true;
  env?: string;
  state?: string;
  config?: string;
}

export function reconcileCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'reconcile',
      summary: 'hold batches against a transactions report (ok, missing, declined, extra…)',
      description:
        "Reconciles batches with a transactions report: every row's charges due in the window (the charge schedule) against " +
        'the report rows with its client-orderid. One status per row: extra, amount-unreadable, amount-mismatch, ' +
        'currency-mismatch, declined, missing, ok, not-due; report rows of no batch are unmatched. An amount is digits, ' +
        "optionally a dot and digits: 1,000 or 0x10 is amount-unreadable, never guessed. Without BATCH, the ledger's " +
        'accepted submissions to the environment are reconciled row by row (a row added, or whose card or schedule changed, since the send is named and left out; cvv2 emptied or rows reordered do not matter).',
      exits: [
        [EXIT.ok, 'every row ok or not-due, and no unmatched report row'],
        [EXIT.rejected, 'some row needs attention, or a report row matches no batch row'],
        [EXIT.usage, 'usage error, or an unreadable batch or report (file, line and column named)'],
      ],
    },
    ctx,
  )
    .argument('[BATCH...]', "batch files (default: the ledger's accepted submissions for the environment)")
    .option('--report <FILE>', 'the transactions report CSV (paygate report --out); - reads standard input')
    .option('--template <T>', 'run this report template now and reconcile with its answer')
    .option('--as-of <DATE>', "window end, DD.MM.YYYY (default the report's Date_of_report, else today)")
    .option('--from <DATE>', 'window start, DD.MM.YYYY (default the earliest start-date)')
    .option(
      '--column <ROLE=NAME>',
      'report column for a role: order, amount, currency, date, status, id (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .addOption(
      choiceOption('--format <FORMAT>', 'text; json: {"window","rows","unmatched","summary"}; csv', ['text', 'json', 'csv']).default(
        'text',
      ),
    )
    .addOption(rawOption())
    .option('--env <NAME>', 'environment (for the ledger and --template; default: the config\'s "environment", else local)')
    .option('--state <DIR>', 'the ledger directory (as paygate submit uses)')
    .option('--config <FILE>', 'configuration file (as paygate report uses)')
    .action(exits((batches: string[], o: ReconcileOptions) => reconcile(batches, o, ctx)));
}

function date(text: string | undefined, option: string): CalendarDate | undefined | { error: string } {
  if (text === undefined) return undefined;
  return parseGatewayDate(text) ?? { error: `${option} "${text}" is not a real date written DD.MM.YYYY` };
}

export async function reconcile(files: string[], o: ReconcileOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate reconcile', message);
  if ((o.report === undefined) === (o.template === undefined))
    return usage('give the report: --report FILE (or -), or --template T to run one now');
  const asOf = date(o.asOf, '--as-of');
  const from = date(o.from, '--from');
  for (const d of [asOf, from]) if (d && 'error' in d) return usage(d.error);
  const columns: ColumnOverrides = {};
  for (const c of o.column) {
    const parsed = parseColumnOverride(c);
    if ('error' in parsed) return usage(parsed.error);
    columns[parsed.role] = parsed.name;
  }
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return usage(config.message);
  const environment = o.env ?? config.value.config.environment;
  // `local` is one local gateway: the one of the local state directory, with its own (simulated) date.
  const localDir = environment === LOCAL_ENVIRONMENT ? localStateDir(ctx) : undefined;
  const to = { environment, state: o.state, ...(localDir !== undefined ? { localStateDir: localDir } : {}) };

  let batches: BatchSource[];
  if (files.length > 0) {
    const named = await namedBatches(files, to, ctx);
    if ('error' in named) return usage(named.error);
    batches = named;
  } else {
    const found = await ledgerBatches(to, ctx);
    if ('error' in found) return usage(found.error);
    for (const c of found.changed) ctx.stderr(saidOut(said`paygate reconcile: ${typed.text(c)}\n`));
    if (found.batches.length === 0)
      return usage(`no accepted submission to ${environment} in ${found.ledger} to reconcile; name the batch files`);
    batches = found.batches;
  }
  // A row sent on a known day starts then; any other starts on the gateway's today (the local gateway's own).
  const today = (localDir !== undefined ? simulatedToday(localDir) : undefined) ?? todayLocal();
  const into = new ReportReconciliation(
    batches.flatMap((b) => b.rows),
    {
      columns,
      columnHint: (role) => `set it with --column ${role}=NAME`,
      from: from as CalendarDate | undefined,
      asOf: asOf as CalendarDate | undefined,
      today,
    },
  );
  const report = o.report !== undefined ? reportFileLabel(o.report === '-' ? '<stdin>' : o.report) : reportRunLabel(o.template!);
  if (o.report !== undefined) {
    const fed = await feedReport(o.report, into, ctx);
    if (fed) return usage(fed.error);
  } else {
    const ran = await runTemplate(o.template!, o, ctx, into);
    if (ran !== undefined) return ran;
  }
  const result = into.end();
  if ('error' in result) return usage(`${report.title}: ${field(result.error)}`);
  const formats = {
    json: reconcileJsonPieces,
    csv: (r: Reconciliation) => reconcileCsvPieces(r, o.raw === true),
    text: (r: Reconciliation) => reconcileTextPieces(r, report),
  };
  // Printed a piece at a time: the output of a large reconciliation is never held whole.
  for (const piece of formats[o.format](result)) ctx.stdout(piece);
  return settled(result) ? EXIT.ok : EXIT.rejected;
}

const settled = (r: Reconciliation) => r.unmatched.length === 0 && r.rows.every((x) => SETTLED_STATUSES.includes(x.status));

/** Runs the template now (the report use case, as `paygate report` runs it) and streams its CSV in; an exit code when it cannot. */
async function runTemplate(file: string, o: ReconcileOptions, ctx: CliContext, into: ReportReconciliation): Promise<number | undefined> {
  const usage = (message: string) => inputError(ctx, 'paygate reconcile', message);
  const input = await readInput(file, ctx);
  if (!input.ok) return usage(input.message);
  const told = await withReportFile(undefined, async (report) => {
    const run = await runCustomReportTemplate(input.text, { file: report, target: () => reportTarget(ctx, o, 'paygate reconcile') });
    if (run.status === 'invalid-template') return `${input.name} is not a valid report template (see paygate report ${input.name})`;
    if (run.status === 'refused') return run.refusal;
    if (run.status === 'invalid-environment') return `${run.problems.join('; ')}; nothing was sent`;
    if (!run.saved.saved || run.saved.format !== 'csv') {
      const what = run.saved.saved ? 'a PDF' : run.saved.outcome.outcome;
      return `${input.name}: no CSV report came back (${what}); see paygate report ${input.name}`;
    }
    // Read once, from the file, by the one reader.
    return (await feedReport(run.saved.file, into, ctx, run.template.reportEncode))?.error;
  });
  return told === undefined ? undefined : usage(told);
}
