import { resolve } from 'node:path';
import {
  DEFAULT_REPORT_ANSWER_LIMIT,
  environmentProblems,
  parseReportTemplate,
  runCustomReportToFile,
  type GatewayOutcome,
  type SavedReport,
  type TemplateProblem,
} from '../../core/gateway';
import { loadCliConfig } from '../config';
import { reportCredentials, SECRET_ENV } from '../credentials';
import { resolveTarget } from '../target';
import type { CliContext } from '../context';
import { readInput } from '../io';
import { EXIT, exitCodeFor, field, inputError, jsonLine, outcomeJson, outcomeText } from '../output';
import { choiceOption, exits, paygateCommand, rawOption, runCommand } from '../parser';
import { printSavedReport, withTemporaryReport } from '../reportOut';
import { addQueryOptions, asksForQuery, querySpec, type QueryCliOptions } from '../query';
import { runReportQuery } from '../reportQuery';
import { parseExpression, describeProblem } from '../../core/query';

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

export const runReport = (args: string[], ctx: CliContext) => runCommand(reportCommand, args, ctx);

export async function runReportTemplate(templatePath: string, values: ReportOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => inputError(ctx, 'paygate report', message);
  const maxAnswerBytes = values.maxAnswerBytes === undefined ? DEFAULT_REPORT_ANSWER_LIMIT : Number(values.maxAnswerBytes);
  if (!/^\d+$/.test(values.maxAnswerBytes ?? '1') || !Number.isSafeInteger(maxAnswerBytes) || maxAnswerBytes < 1) {
    return usage(`--max-answer-bytes must be a positive whole number of bytes, not "${values.maxAnswerBytes}"`);
  }

  // `-` is not standard output for --out: it would be a file named "-" holding the report, and nothing on
  // the pipe a reader wrote `--out - |` for. The report's CSV goes to standard output with --format csv.
  if (values.out === '-')
    return usage('--out - is not standard output: print the report as received with --format csv (a PDF report needs a file)');
  const input = await readInput(templatePath, ctx);
  if (!input.ok) return usage(input.message);
  const template = parseReportTemplate(input.text);
  const place = (p: TemplateProblem) => `${input.name}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}`;
  for (const p of template.ok ? [] : template.problems) ctx.stderr(`${place(p)}: error ${field(p.message)}\n`);
  for (const p of template.warnings) ctx.stderr(`${place(p)}: warning ${field(p.message)}\n`);
  if (!template.ok) {
    const n = template.problems.length;
    return usage(`${input.name} is not a valid report template (${n} problem${n === 1 ? '' : 's'}); nothing was sent`);
  }

  const query = asksForQuery(values);
  // A bad expression is told before anything is sent; its columns are checked when the report's header comes.
  const where = query
    ? querySpec(
        values,
        template.template.views?.find((v) => v.name === values.view),
      ).where
    : undefined;
  const syntax = where === undefined ? undefined : parseExpression(where, undefined);
  if (syntax && !syntax.ok)
    return usage(
      `${values.view === undefined ? '--where' : `view "${values.view}": where`}: ${describeProblem(where!, syntax.problem)}\nnothing was sent`,
    );

  const config = loadCliConfig(ctx.cwd, values.config, ctx.env);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(
    config.value.config,
    {
      env: values.env,
      reportBaseUrl: values.reportBaseUrl,
      consumerKey: values.consumerKey,
    },
    'report',
    { env: ctx.env, command: 'paygate report' },
  );
  if (!target.ok) return usage(target.message);
  const t = target.value;
  try {
    const problems = environmentProblems(t.environment, t.paths, 'report');
    if (problems.length > 0) return usage(`${problems.join('; ')}; nothing was sent`);
    const credentials = reportCredentials(ctx, t, values.consumerSecret);
    if (!credentials.ok) return usage(credentials.message);
    const what = `${input.name} on ${field(t.environment.name)}`;
    const out = values.out;
    const request = {
      environment: t.environment,
      paths: t.paths,
      template: template.template,
      credentials: credentials.value,
      timeoutMs: t.timeoutMs,
      maxAnswerBytes,
    };
    if (query) {
      try {
        return await runReportQuery(ctx, request, {
          options: values,
          template: template.template,
          what,
          show: (o) => show(ctx, o, values.format, what),
        });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === undefined) throw err;
        return usage(`cannot write the report (to a temporary file${out === undefined ? '' : ` or to ${out}`}): ${code}`);
      }
    }
    if (out !== undefined && values.format !== 'json') {
      // Streamed to the file as it arrives: a large report costs disk, not memory.
      let saved: SavedReport;
      try {
        saved = await runCustomReportToFile({ ...request, file: resolve(ctx.cwd, out) });
      } catch (err) {
        return usage(`${field(out)}: cannot write the report: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      if (!saved.saved) return show(ctx, saved.outcome, values.format, what);
      ctx.stdout(
        saved.format === 'pdf'
          ? `PDF report (${saved.bytes} bytes) from ${what} written to ${field(out)}\n`
          : `Report from ${what}: ${saved.rows} row(s) written to ${field(out)}\n`,
      );
      return EXIT.ok;
    }
    // Every other way through a temporary file, printed from there in pieces: memory stays flat.
    try {
      return await withTemporaryReport(request, async (saved) =>
        saved.saved
          ? printSavedReport(ctx, saved, {
              format: values.format,
              raw: values.raw === true,
              out,
              what,
              templateName: input.name,
              delimiter: template.template.reportCsvDelimiter,
              encoding: template.template.reportEncode,
            })
          : show(ctx, saved.outcome, values.format, what),
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === undefined) throw err;
      return usage(`cannot write the report (to a temporary file${out === undefined ? '' : ` or to ${field(out)}`}): ${code}`);
    }
  } finally {
    await t.release();
  }
}

/** An answer that is no report: told as every command tells an outcome. */
function show(ctx: CliContext, o: GatewayOutcome, format: 'text' | 'json' | 'csv', what: string): number {
  ctx.stdout(format === 'json' ? jsonLine(outcomeJson(o)) : outcomeText(o, what));
  if (format === 'csv') ctx.stderr(`paygate report: no report received (${o.outcome})\n`);
  return exitCodeFor(o);
}
