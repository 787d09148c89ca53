import { resolve } from 'node:path';
import { DEFAULT_REPORT_ANSWER_LIMIT, type GatewayOutcome, type TemplateProblem } from '../../core/gateway';
import { runCustomReportTemplate, type ReportFace, type ReportRun } from '../../core/report/runReport';
import { SECRET_ENV } from '../credentials';
import { reportTarget, type CliReportTarget } from '../reportTarget';
import type { CliContext } from '../context';
import { readInput } from '../io';
import { said, typed } from '../../core/output';
import { EXIT, exitCodeFor, field, inputError, jsonOut, outcomeJson, outcomeText, saidOut } from '../output';
import { choiceOption, exits, paygateCommand, rawOption } from '../parser';
import { printSavedReport, withReportFile } from '../reportOut';
import { ReportPrint } from '../reportSpool';
import { addQueryOptions, asksForQuery, type QueryCliOptions } from '../query';
import { prepareReportQuery, type ReportQuery } from '../reportQuery';

export interface ReportOptions extends QueryCliOptions {
  env?: string;
  reportBaseUrl?: string;
  consumerKey?: string;
  consumerSecret?: string;
  out?: string;
  format: 'text' | 'json' | 'csv';
  raw?: true;
  maxAnswerBytes?: string;
  config?: string;
}

export function reportCommand(ctx: CliContext) {
  const cmd = paygateCommand(
    {
      name: 'report',
      summary: 'run a custom report template (CSV table, JSON, or a PDF file)',
      description:
        'Runs a custom report: TEMPLATE is the JSON body (*.report.json; no $schema needed: it is checked whole against the ' +
        'schema built into paygate, every problem with its line and column), signed with HMAC-SHA1. With a query option ' +
        "(--where, --group-by, --sum, --view …, as in paygate query) the report's rows go through the query as they arrive " +
        'and its answer is printed instead of the rows (--out still saves the report; --view names a view of TEMPLATE).',
      exits: [
        [EXIT.ok, 'report received'],
        [EXIT.rejected, 'rejected, server error, or an unrecognised answer'],
        [EXIT.usage, 'usage error, unreadable or invalid template (nothing sent)'],
        [EXIT.auth, 'authentication failed'],
        [EXIT.transport, 'transport error (connection refused, timeout, TLS), or an answer cut off or too large'],
      ],
    },
    ctx,
  )
    .argument('<TEMPLATE>', 'the report template (JSON); - reads standard input')
    .option('--env <NAME>', 'environment from paygate.config.json (default: its "environment", else local)')
    .option('--report-base-url <URL>', "override the environment's report base URL")
    .option('--consumer-key <K>', "override the environment's consumer key")
    .option('--consumer-secret <S>', `consumer secret (prefer $${SECRET_ENV.consumerSecret}: arguments are visible to others)`)
    .option(
      '-o, --out <FILE>',
      'write the report to FILE as it arrives, its raw bytes (the only place they go: standard output is always masked; a PDF ' +
        'report always goes to a file); FILE is written only when the answer is a report',
    )
    .addOption(
      choiceOption(
        '--format <FORMAT>',
        'text: a table; json: {"outcome":"report","contentType","columns","rows"}; csv: the report\'s records, every field ' +
          'quoted, card numbers masked, CVV columns left out, formulas neutralised unless --raw',
        ['text', 'json', 'csv'],
      ).default('text'),
    )
    .addOption(rawOption())
    .option(
      '--max-answer-bytes <N>',
      `read at most N bytes of the answer (default ${DEFAULT_REPORT_ANSWER_LIMIT}, 256 MiB); a longer answer is cut off and reported, never shown as a report`,
    )
    .option(
      '--config <FILE>',
      'configuration file (default ./paygate.config.json once trusted with paygate trust, else ~/.config/paygate/paygate.config.json)',
    );
  // The query options of `paygate query`, run over the report as it arrives (--view: a view of TEMPLATE).
  return addQueryOptions(cmd).action(exits((template, o) => runReportTemplate(template, o as ReportOptions, ctx)));
}

/** --max-answer-bytes as a number of bytes, or a usage message. */
function answerLimit(values: ReportOptions): number | { problem: string } {
  const n = values.maxAnswerBytes === undefined ? DEFAULT_REPORT_ANSWER_LIMIT : Number(values.maxAnswerBytes);
  if (!/^\d+$/.test(values.maxAnswerBytes ?? '1') || !Number.isSafeInteger(n) || n < 1)
    return { problem: `--max-answer-bytes must be a positive whole number of bytes, not "${values.maxAnswerBytes}"` };
  return n;
}

/** The terminal's part of the report use case: the config's environment and its credentials, the query's checks. */
function cliReportFace(
  ctx: CliContext,
  values: ReportOptions,
  run: { file: string; maxAnswerBytes: number; query: { current?: ReportQuery }; print: ReportPrint | undefined },
): ReportFace<CliReportTarget, string> {
  return {
    // What is printed is made from the answer's one parse, as it arrives (reportSpool.ts).
    onRecord: run.print?.record,
    file: resolve(ctx.cwd, run.file),
    maxAnswerBytes: run.maxAnswerBytes,
    check: (template) => {
      if (run.print) run.print.delimiter = template.reportCsvDelimiter || ',';
      if (!asksForQuery(values)) return undefined;
      const query = prepareReportQuery(ctx, values, template);
      if ('problem' in query) return query.problem;
      run.query.current = query;
      return undefined;
    },
    tap: (chunk) => run.query.current?.tap(chunk),
    target: () => reportTarget(ctx, values, 'paygate report'),
  };
}

export async function runReportTemplate(templatePath: string, values: ReportOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate report', message);
  const maxAnswerBytes = answerLimit(values);
  if (typeof maxAnswerBytes !== 'number') return usage(maxAnswerBytes.problem);
  // `-` is not standard output for --out: it would be a file named "-" holding the report, and nothing on
  // the pipe a reader wrote `--out - |` for. The report's CSV goes to standard output with --format csv.
  if (values.out === '-')
    return usage('--out - is not standard output: print the report as received with --format csv (a PDF report needs a file)');
  const input = await readInput(templatePath, ctx);
  if (!input.ok) return usage(input.message);
  const out = values.out;
  // The answer goes to --out as received, except JSON, which is written there from a temporary file.
  const direct = out !== undefined && (values.format !== 'json' || asksForQuery(values));
  const query: { current?: ReportQuery } = {};
  // Printed (not written to --out as received, nor asked questions of): made as it arrives.
  const print = direct || asksForQuery(values) ? undefined : new ReportPrint(values.format, values.raw === true);
  try {
    return await withReportFile(direct ? out : undefined, async (file) => {
      const run = await runCustomReportTemplate(input.text, cliReportFace(ctx, values, { file, maxAnswerBytes, query, print }));
      return tellReportRun(ctx, run, { values, name: input.name, query: query.current, print });
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined) throw err;
    if (direct) return usage(`${field(out)}: cannot write the report: ${code}`);
    return usage(`cannot write the report (to a temporary file${out === undefined ? '' : ` or to ${field(out)}`}): ${code}`);
  } finally {
    print?.close();
  }
}

/** What came of a report run, told on the terminal: problems, the report (printed or written), or the outcome. */
async function tellReportRun(
  ctx: CliContext,
  run: ReportRun<CliReportTarget, string>,
  o: { values: ReportOptions; name: string; query: ReportQuery | undefined; print: ReportPrint | undefined },
): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate report', message);
  const place = (p: TemplateProblem) =>
    p.line !== undefined ? said`${typed.text(o.name)}:${typed.count(p.line)}:${typed.count(p.column ?? 1)}` : said`${typed.text(o.name)}`;
  for (const p of run.status === 'invalid-template' ? run.problems : [])
    ctx.stderr(saidOut(said`${place(p)}: error ${typed.text(p.message)}\n`));
  for (const p of run.warnings) ctx.stderr(saidOut(said`${place(p)}: warning ${typed.text(p.message)}\n`));
  if (run.status === 'invalid-template') {
    const n = run.problems.length;
    return usage(`${o.name} is not a valid report template (${n} problem${n === 1 ? '' : 's'}); nothing was sent`);
  }
  if (run.status === 'refused') return usage(run.refusal);
  if (run.status === 'invalid-environment') return usage(`${run.problems.join('; ')}; nothing was sent`);
  const what = `${o.name} on ${field(run.target.environment.name)}`;
  const { saved } = run;
  const { values } = o;
  if (!saved.saved) return show(ctx, saved.outcome, values.format, what);
  if (o.query) return o.query.finish(saved, what);
  if (values.out !== undefined && values.format !== 'json') {
    // `what` is free text (the template's name and the environment's); the size and the row count are counts.
    const to = typed.text(values.out);
    ctx.stdout(
      saidOut(
        saved.format === 'pdf'
          ? said`PDF report (${typed.count(saved.bytes)} bytes) from ${typed.text(what)} written to ${to}\n`
          : said`Report from ${typed.text(what)}: ${saved.rows === undefined ? typed.text(saved.rows) : typed.count(saved.rows)} row(s) written to ${to}\n`,
      ),
    );
    return EXIT.ok;
  }
  // Printed from what was made as it arrived, in pieces: memory stays flat.
  return printSavedReport(ctx, saved, {
    format: values.format,
    out: values.out,
    what,
    templateName: o.name,
    print: o.print ?? new ReportPrint(values.format, values.raw === true),
  });
}

/** An answer that is no report: told as every command tells an outcome. */
function show(ctx: CliContext, o: GatewayOutcome, format: 'text' | 'json' | 'csv', what: string): number {
  ctx.stdout(format === 'json' ? jsonOut(outcomeJson(o)) : saidOut(outcomeText(o, said`${typed.text(what)}`)));
  if (format === 'csv') ctx.stderr(saidOut(said`paygate report: no report received (${typed.text(o.outcome)})\n`));
  return exitCodeFor(o);
}
