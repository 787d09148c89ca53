// `paygate report TEMPLATE` with query options: the report's rows go through the query as the answer
// arrives (the report is still checked whole before the answer is believed, and still written to --out
// when given), so only the groups are held, whatever the report's size.

import type { SavedReport } from '../core/gateway';
import type { ReportTemplate } from '../core/gateway/reportTemplate';
import { describeProblem, parseExpression } from '../core/query';
import { QueryStream } from '../core/query/stream';
import { textDecoder } from '../core/textFile';
import type { CliContext } from './context';
import { EXIT, inputError, saidOut } from './output';
import { maxGroupsProblem, planProblemText, printQueryOutcome, querySpec, tooManyGroupsText, type QueryCliOptions } from './query';
import { said, typed } from '../core/output';

type Options = QueryCliOptions & { format: 'text' | 'json' | 'csv'; out?: string };

/** A query ready to run over a report as it arrives: `tap` sees the answer, `finish` prints the groups. */
export interface ReportQuery {
  tap(chunk: Uint8Array): void;
  /** Prints the query's outcome over a saved CSV report (a PDF is refused); the exit code. */
  finish(saved: Extract<SavedReport, { saved: true }>, what: string): number;
}

/**
 * The query of the options over the template, checked before anything is sent: the view exists and the
 * expression is well formed (its columns are checked when the report's header comes). A message when not.
 */
export function prepareReportQuery(ctx: CliContext, o: Options, template: ReportTemplate): ReportQuery | { problem: string } {
  const view = o.view === undefined ? undefined : template.views?.find((v) => v.name === o.view);
  if (o.view !== undefined && !view) {
    const known = (template.views ?? []).map((v) => `"${v.name}"`).join(', ');
    return { problem: `the template has no view "${o.view}"${known ? ` (it has ${known})` : ' (it has none)'}; nothing was sent` };
  }
  const bad = maxGroupsProblem(o);
  if (bad !== undefined) return { problem: `${bad}; nothing was sent` };
  const spec = querySpec(o, view);
  const syntax = spec.where === undefined ? undefined : parseExpression(spec.where, undefined);
  if (syntax && !syntax.ok)
    return {
      problem: `${o.view === undefined ? '--where' : `view "${o.view}": where`}: ${describeProblem(spec.where!, syntax.problem)}\nnothing was sent`,
    };
  const stream = new QueryStream(spec, { delimiter: template.reportCsvDelimiter });
  const decoder = textDecoder(template.reportEncode);
  const command = 'paygate report';
  return {
    tap: (chunk) => {
      if (!stream.problem) stream.push(decoder.decode(chunk, { stream: true }));
    },
    finish: (saved, what) => {
      if (saved.format === 'pdf') {
        const where = o.out !== undefined ? ` (written to ${o.out})` : '';
        return inputError(ctx, command, `the report from ${what} is a PDF${where}: a query needs a CSV report`);
      }
      if (!stream.problem) stream.push(decoder.decode());
      const outcome = stream.end();
      if (!outcome)
        return inputError(
          ctx,
          command,
          `${planProblemText(stream.problem!, spec, o.view)}; the report came, but the query cannot run on it`,
        );
      if (outcome.tooManyGroups) return inputError(ctx, command, `the report from ${what}: ${tooManyGroupsText(outcome.tooManyGroups)}`);
      printQueryOutcome(ctx, `report from ${what}`, outcome, o);
      if (o.out !== undefined)
        ctx.stderr(
          saidOut(
            said`Report from ${typed.text(what)}: ${typed.count(saved.rows ?? outcome.read)} row(s) written to ${typed.text(o.out)}\n`,
          ),
        );
      return EXIT.ok;
    },
  };
}
