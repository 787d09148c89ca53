import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseReportTemplate, runCustomReport, type GatewayOutcome, type TemplateProblem } from '../../core/gateway';
import { log, showErrorWithLog } from '../log';
import type { ResultsPanelApi } from '../results/register';
import { viewsOf } from '../results/views';
import type { ReportInfo } from '../../shared/reportInfo';
import { activeEnvironmentName } from '../environments/settings';
import { summary } from '../submit/outcomeView';
import { resolveTarget, showTargetProblem, type TargetDeps } from '../environments/target';
import { documentFor, optionsArg, type CommandArgs } from '../commandArgs';
import { showError, showWarning } from '../say';

// Run Report Template: the *.report.json is checked by the same zod schema the CLI uses, signed with
// HMAC-SHA1 (the report operation's stated method) and sent; a CSV answer opens in the results panel,
// a PDF in the PDF report panel (drawn by pdf.js, saved from there with "Save PDF…").

export interface ReportOptions {
  environment?: string;
  /** Where a PDF answer is also written, without asking (tests, automation); it opens in the pane either way. */
  pdfTarget?: vscode.Uri | string;
}

export type ReportResult =
  | { status: 'received'; format: 'csv'; columns: string[]; rowCount: number }
  | { status: 'received'; format: 'pdf'; savedTo?: string; bytes: number; shown: boolean }
  | { status: 'failed'; outcome: GatewayOutcome['outcome'] | 'cancelled'; message: string }
  | {
      status: 'refused';
      reason: 'untrusted' | 'no-file' | 'invalid-template' | 'unknown-environment' | 'no-credentials' | 'local-gateway-failed';
      message: string;
      problems?: TemplateProblem[];
    };

export interface ReportDeps extends TargetDeps {
  results: ResultsPanelApi;
}

export function problemLine(file: string, p: TemplateProblem): string {
  const where = p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : '';
  return `${file}${where}: ${p.message}`;
}

export async function runReportCommand(deps: ReportDeps, ...args: CommandArgs): Promise<ReportResult> {
  const options = optionsArg<ReportOptions>(args);
  if (!vscode.workspace.isTrusted) {
    const message = 'Running reports is disabled in an untrusted workspace: trust this workspace to send requests to a gateway.';
    void showError(`PayGate: ${message}`);
    return { status: 'refused', reason: 'untrusted', message };
  }
  const doc = await documentFor(args);
  if (!doc) {
    const message = 'Open a report template (*.report.json) to run it.';
    void showError(`PayGate: ${message}`);
    return { status: 'refused', reason: 'no-file', message };
  }
  const name = path.basename(doc.uri.path);
  const parsed = parseReportTemplate(doc.getText());
  const warnings = parsed.warnings.map((p) => problemLine(name, p));
  for (const l of warnings) log().warn(`Report template: ${l}`);
  if (!parsed.ok) {
    const lines = parsed.problems.map((p) => problemLine(name, p));
    for (const l of lines) log().warn(`Report template: ${l}`);
    // Every problem at once (the same ones the editor underlines through the JSON Schema), so fixing one does not reveal the next.
    const n = lines.length;
    void showErrorWithLog(
      `PayGate: ${name} is not a valid report template (${n} problem${n === 1 ? '' : 's'}); nothing was sent. ${lines.join(' · ')}`,
    );
    return { status: 'refused', reason: 'invalid-template', message: lines.join('\n'), problems: parsed.problems };
  }
  if (warnings.length > 0) void showWarning(`PayGate: ${warnings.join(' · ')}`);
  const template = parsed.template;

  const envName = options.environment ?? activeEnvironmentName();
  const resolved = await resolveTarget(deps, envName, 'report');
  if (!resolved.ok) {
    showTargetProblem(resolved);
    return { status: 'refused', reason: resolved.reason, message: resolved.message };
  }
  const target = resolved.target;
  log().info(`Report ${name} (${template.reportIdentifier}, ${template.reportFormat}) from ${envName}`);

  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `PayGate: running ${name} on ${envName}…`, cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const answer = await runCustomReport({ ...target, template, signal: abort.signal });
        return abort.signal.aborted ? undefined : answer;
      } finally {
        sub.dispose();
      }
    },
  );
  if (!outcome) return { status: 'failed', outcome: 'cancelled', message: 'Cancelled.' };

  if (outcome.outcome === 'report') {
    const title = `${template.reportName || template.reportIdentifier} (${envName})`;
    if (outcome.format === 'csv') {
      log().info(`Report ${name}: ${outcome.rows.length} rows, ${outcome.columns.length} columns`);
      deps.results
        .showReport({
          title,
          columns: outcome.columns,
          rows: outcome.rows,
          info: reportInfo(name, envName, Buffer.byteLength(outcome.text)),
          views: viewsOf(template, name),
        })
        .then(undefined, (err: unknown) => log().warn(`Results panel: ${String(err)}`));
      return { status: 'received', format: 'csv', columns: outcome.columns, rowCount: outcome.rows.length };
    }
    const reportName = template.reportName || template.reportIdentifier;
    return showPdf(deps, { title, reportName, template: name, environment: envName, bytes: outcome.bytes, target: options.pdfTarget });
  }

  const message =
    outcome.outcome === 'accepted' ? `${envName} answered HTTP ${outcome.status} without a report` : summary(outcome, envName, []);
  log().warn(`Report ${name}: ${message}`);
  if ('raw' in outcome) log().debug(`Answer body: ${outcome.raw.slice(0, 2000).replace(/\s+/g, ' ')}`);
  void showErrorWithLog(`PayGate: ${message}`);
  return { status: 'failed', outcome: outcome.outcome, message };
}

/** The banner's facts, the same for a CSV and a PDF report. */
function reportInfo(template: string, environment: string, bytes: number): ReportInfo {
  return { template, environment, receivedAt: new Date().toISOString(), bytes };
}

/** A PDF answer opens in the pane like a CSV one; with `pdfTarget` it is also written there, as received. */
async function showPdf(
  deps: ReportDeps,
  r: {
    title: string;
    reportName: string;
    template: string;
    environment: string;
    bytes: Uint8Array;
    target: vscode.Uri | string | undefined;
  },
): Promise<ReportResult> {
  const fileName = `${r.reportName.replace(/[^\w.-]+/g, '_') || 'report'}.pdf`;
  let savedTo: string | undefined;
  if (r.target !== undefined) {
    const target = typeof r.target === 'string' ? vscode.Uri.file(r.target) : r.target;
    if (target.scheme === 'file') await fs.writeFile(target.fsPath, r.bytes);
    else await vscode.workspace.fs.writeFile(target, r.bytes);
    savedTo = target.fsPath;
    log().info(`Report PDF saved to ${savedTo} (${r.bytes.length} bytes)`);
  }
  log().info(`Report ${r.template}: a PDF of ${r.bytes.length} bytes, shown in the pane`);
  deps.results
    .showPdf({
      title: r.title,
      info: reportInfo(r.template, r.environment, r.bytes.length),
      bytes: r.bytes,
      fileName,
    })
    .then(undefined, (err: unknown) => log().warn(`PDF panel: ${String(err)}`));
  return { status: 'received', format: 'pdf', savedTo, bytes: r.bytes.length, shown: true };
}
