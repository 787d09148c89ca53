// `paygate report TEMPLATE` with query options: the report's rows go through the query as the answer
// arrives (the report is still checked whole before the answer is believed, and still written to --out
// when given), so only the groups are held, whatever the report's size.

import { resolve } from 'node:path';
import { TextDecoder } from 'node:util';
import { runCustomReportToFile, type GatewayOutcome, type SavedReport } from '../core/gateway';
import type { ReportTemplate } from '../core/gateway/reportTemplate';
import { QueryStream } from '../core/query/stream';
import type { CliContext } from './context';
import { EXIT, inputError } from './output';
import { planProblemText, printQueryOutcome, querySpec, type QueryCliOptions } from './query';
import { withTemporaryReport } from './reportOut';

type Request = Omit<Parameters<typeof runCustomReportToFile>[0], 'file' | 'tap'>;

export interface ReportQuery {
  options: QueryCliOptions & { format: 'text' | 'json' | 'csv'; out?: string };
  template: ReportTemplate;
  what: string;
  /** How an answer that is no report is told (as `paygate report` tells it). */
  show(outcome: GatewayOutcome): number;
}

function decoderFor(encoding: string | undefined): TextDecoder {
  try {
    return new TextDecoder(encoding ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

export async function runReportQuery(ctx: CliContext, request: Request, q: ReportQuery): Promise<number> {
  const command = 'paygate report';
  const o = q.options;
  let view;
  if (o.view !== undefined) {
    view = q.template.views?.find((v) => v.name === o.view);
    if (!view) {
      const known = (q.template.views ?? []).map((v) => `"${v.name}"`).join(', ');
      return inputError(
        ctx,
        command,
        `the template has no view "${o.view}"${known ? ` (it has ${known})` : ' (it has none)'}; nothing was sent`,
      );
    }
  }
  const spec = querySpec(o, view);
  const stream = new QueryStream(spec, { delimiter: q.template.reportCsvDelimiter });
  const decoder = decoderFor(q.template.reportEncode);
  const tap = (chunk: Uint8Array) => {
    if (!stream.problem) stream.push(decoder.decode(chunk, { stream: true }));
  };
  const saved: SavedReport =
    o.out !== undefined
      ? await runCustomReportToFile({ ...request, file: resolve(ctx.cwd, o.out), tap })
      : await withTemporaryReport({ ...request, tap }, async (s) => s);
  if (!saved.saved) return q.show(saved.outcome);
  if (saved.format === 'pdf') {
    const where = o.out !== undefined ? ` (written to ${o.out})` : '';
    return inputError(ctx, command, `the report from ${q.what} is a PDF${where}: a query needs a CSV report`);
  }
  if (!stream.problem) stream.push(decoder.decode());
  const outcome = stream.end();
  if (!outcome)
    return inputError(ctx, command, `${planProblemText(stream.problem!, spec, o.view)}; the report came, but the query cannot run on it`);
  printQueryOutcome(ctx, `report from ${q.what}`, outcome, o);
  if (o.out !== undefined) ctx.stderr(`Report from ${q.what}: ${saved.rows ?? outcome.read} row(s) written to ${o.out}\n`);
  return EXIT.ok;
}
