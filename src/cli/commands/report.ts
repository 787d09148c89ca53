import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from '../command';
import { maskText } from '../../core/mask';
import { parseCommandArgs, oneOf, stringValue } from '../args';
import { loadCliConfig, processContext, reportCredentials, resolveTarget, type CliContext } from '../config';
import { readInput } from '../io';
import { parseReportTemplate, runCustomReport, type GatewayOutcome } from '../../core/gateway';
import { EXIT, exitCodeFor, outcomeJson, outcomeText } from './submit';

const HELP = `Usage: paygate report TEMPLATE [--env NAME] [--report-base-url URL] [--consumer-key K]
                      [--consumer-secret S] [--out FILE] [--format text|json|csv] [--config FILE]

Runs a custom report: TEMPLATE is the JSON body (*.report.json, see schemas/report-template.schema.json),
signed with HMAC-SHA1.

Options:
  --env NAME              environment from paygate.config.json (default: its "environment", else local)
  --report-base-url URL   override the environment's report base URL
  --consumer-key K        override the environment's consumer key
  --consumer-secret S     consumer secret (prefer $PAYGATE_CONSUMER_SECRET: arguments are visible to others)
  --out FILE              write the report to FILE (a PDF report always goes to a file)
  --format text|json|csv  text (default): a table; json: {"outcome":"report","contentType","columns","rows"};
                          csv: the report's CSV as received
  --config FILE           configuration file (default ./paygate.config.json once trusted
                          with 'paygate trust', else ~/.config/paygate/paygate.config.json)
  -h, --help              this help

Exit status: 0 report received, 1 rejected or server error, 2 usage error, 3 authentication failed,
4 transport error.`;

const MAX_CELL = 40;

function cell(value: string): string {
  const flat = maskText(value).replace(/\r\n|\r|\n/g, ' ⏎ ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** A plain aligned table for terminals; cells are shortened and line breaks shown as ⏎. */
export function formatTable(columns: string[], rows: string[][]): string {
  const all = [columns, ...rows].map((r) => columns.map((_, i) => cell(r[i] ?? '')));
  const widths = columns.map((_, i) => Math.max(...all.map((r) => [...r[i]].length)));
  const line = (r: string[]) => r.map((v, i) => v + ' '.repeat(widths[i] - [...v].length)).join('  ').trimEnd();
  const [head, ...body] = all;
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].map((l) => `${l}\n`).join('');
}

export async function runReport(args: string[], ctx: CliContext): Promise<number> {
  const usage = (message: string) => {
    ctx.stderr(`paygate report: ${message}\n`);
    return EXIT.usage;
  };
  const parsed = parseCommandArgs(args, {
    env: { type: 'string' }, 'report-base-url': { type: 'string' }, 'consumer-key': { type: 'string' }, 'consumer-secret': { type: 'string' },
    out: { type: 'string', short: 'o' }, format: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usage(`${parsed.message}\n${HELP}`);
  const { values, positionals } = parsed;
  if (values.help) {
    ctx.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  const format = oneOf(stringValue(values, 'format'), ['text', 'json', 'csv'] as const, '--format', 'text');
  if (!format.ok) return usage(format.message);
  if (positionals.length !== 1) return usage(`${positionals.length === 0 ? 'no TEMPLATE given' : 'one TEMPLATE at a time'}\n${HELP}`);

  const input = await readInput(positionals[0]);
  if (!input.ok) return usage(input.message);
  const template = parseReportTemplate(input.text);
  if (!template.ok) {
    for (const p of template.problems) ctx.stderr(`${input.name}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: error ${p.message}\n`);
    return usage(`${input.name} is not a valid report template; nothing was sent`);
  }

  const config = loadCliConfig(ctx.cwd, stringValue(values, 'config'), ctx.env);
  if (!config.ok) return usage(config.message);
  const target = await resolveTarget(config.value.config, {
    env: stringValue(values, 'env'), reportBaseUrl: stringValue(values, 'report-base-url'), consumerKey: stringValue(values, 'consumer-key'),
  }, 'report');
  if (!target.ok) return usage(target.message);
  const t = target.value;
  try {
    const credentials = reportCredentials(ctx, t, stringValue(values, 'consumer-secret'));
    if (!credentials.ok) return usage(credentials.message);
    const outcome = await runCustomReport({ environment: t.environment, paths: t.paths, template: template.template, credentials: credentials.value, timeoutMs: t.timeoutMs });
    const what = `${input.name} on ${t.environment.name}`;
    const out = stringValue(values, 'out');
    return await show(ctx, outcome, what, format.value, out, input.name);
  } finally {
    await t.release();
  }
}

async function show(ctx: CliContext, o: GatewayOutcome, what: string, format: 'text' | 'json' | 'csv', out: string | undefined, templateName: string): Promise<number> {
  if (o.outcome !== 'report') {
    ctx.stdout(format === 'json' ? `${JSON.stringify(outcomeJson(o))}\n` : outcomeText(o, what));
    if (format === 'csv') ctx.stderr(`paygate report: no report received (${o.outcome})\n`);
    return exitCodeFor(o);
  }
  if (o.format === 'pdf') {
    const file = out ?? `${basename(templateName).replace(/(\.report)?\.json$/i, '') || 'report'}.pdf`;
    await writeFile(resolve(ctx.cwd, file), o.bytes);
    if (format === 'json') ctx.stdout(`${JSON.stringify({ ...outcomeJson(o), file })}\n`);
    else ctx.stdout(`PDF report (${o.bytes.length} bytes) from ${what} written to ${file}\n`);
    return EXIT.ok;
  }
  if (out !== undefined) {
    await writeFile(resolve(ctx.cwd, out), format === 'json' ? `${JSON.stringify(outcomeJson(o))}\n` : o.text, 'utf8');
    ctx.stdout(format === 'json' ? `${JSON.stringify({ ...outcomeJson(o), file: out })}\n` : `Report from ${what}: ${o.rows.length} row(s) written to ${out}\n`);
    return EXIT.ok;
  }
  if (format === 'json') ctx.stdout(`${JSON.stringify(outcomeJson(o))}\n`);
  else if (format === 'csv') ctx.stdout(o.text);
  else ctx.stdout(`${formatTable(o.columns, o.rows)}${o.rows.length} row(s) — report from ${what}\n`);
  return EXIT.ok;
}

export const report: Command = {
  summary: 'run a custom report template (CSV table, JSON, or a PDF file)',
  run: (args) => runReport(args, processContext()),
};
