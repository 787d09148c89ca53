import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GatewayOutcome, TemplateProblem } from '../../core/gateway';
import { said, typed, type Said } from '../../core/output';
import { runCustomReportTemplate, type ReportRun } from '../../core/report/runReport';
import { log, showErrorWithLog } from '../log';
import type { ResultsPanelApi } from '../results/register';
import { viewsOf } from '../results/views';
import type { ReportInfo } from '../../shared/reportInfo';
import { activeEnvironmentName } from '../environments/settings';
import { summary } from '../results/outcomeView';
import { resolveTarget, showTargetProblem, type Target, type TargetDeps, type TargetResult } from '../environments/target';
import type { ReportFiles } from './reportFiles';
import { optionsArg, type CommandArgs } from '../commandArgs';
import { documentFor } from '../diskDocument';
import { showError, showWarning, shown, withProgress } from '../say';

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
      reason:
        | 'untrusted'
        | 'no-file'
        | 'invalid-template'
        | 'unknown-environment'
        | 'no-credentials'
        | 'local-gateway-failed'
        | 'invalid-environment';
      message: string;
      problems?: TemplateProblem[];
    };

export interface ReportDeps extends TargetDeps {
  results: ResultsPanelApi;
  files: ReportFiles;
}

export function problemLine(file: string, p: TemplateProblem): string {
  const where = p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : '';
  return `${file}${where}: ${p.message}`;
}

export async function runReportCommand(deps: ReportDeps, ...args: CommandArgs): Promise<ReportResult> {
  const options = optionsArg<ReportOptions>(args);
  if (!vscode.workspace.isTrusted) {
    const message = 'Running reports is disabled in an untrusted workspace: trust this workspace to send requests to a gateway.';
    void showError(said`PayGate: ${typed.text(message)}`);
    return { status: 'refused', reason: 'untrusted', message };
  }
  const doc = await documentFor(args);
  if (!doc) {
    const message = 'Open a report template (*.report.json) to run it.';
    void showError(said`PayGate: ${typed.text(message)}`);
    return { status: 'refused', reason: 'no-file', message };
  }
  const name = path.basename(doc.uri.path);
  const envName = options.environment ?? activeEnvironmentName();
  const file = deps.files.next();
  const run = await withReportProgress(name, envName, (signal) =>
    runCustomReportTemplate(doc.getText(), {
      file,
      signal,
      target: async (template) => {
        log().info(
          said`Report ${typed.text(name)} (${typed.text(template.reportIdentifier)}, ${typed.text(template.reportFormat)}) from ${typed.text(envName)}`,
        );
        const resolved = await resolveTarget(deps, envName, 'report');
        return resolved.ok ? { ok: true, value: resolved.target } : { ok: false, refusal: resolved };
      },
    }),
  );
  const result = await tellReportRun(deps, run, { name, envName, file, pdfTarget: options.pdfTarget });
  if (result.status !== 'received' || result.format !== 'csv') deps.files.remove(file);
  return result;
}

/** The run under a cancellable progress notification; a cancelled run is `undefined`. */
async function withReportProgress<T>(name: string, envName: string, run: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  return withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: said`PayGate: running ${typed.text(name)} on ${typed.text(envName)}…`,
      cancellable: true,
    },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const answer = await run(abort.signal);
        return abort.signal.aborted ? undefined : answer;
      } finally {
        sub.dispose();
      }
    },
  );
}

type EditorReportRun = ReportRun<Target, Extract<TargetResult, { ok: false }>>;

/** What came of a run, told in the editor: the template's problems, the target's, the report shown, or the outcome. */
async function tellReportRun(
  deps: ReportDeps,
  run: EditorReportRun | undefined,
  r: { name: string; envName: string; file: string; pdfTarget: ReportOptions['pdfTarget'] },
): Promise<ReportResult> {
  if (!run) return { status: 'failed', outcome: 'cancelled', message: 'Cancelled.' };
  const warnings = run.warnings.map((p) => problemLine(r.name, p));
  for (const l of warnings) log().warn(said`Report template: ${typed.text(l)}`);
  if (run.status === 'invalid-template') return templateProblems(r.name, run.problems);
  if (warnings.length > 0) void showWarning(said`PayGate: ${typed.text(warnings.join(' · '))}`);
  if (run.status === 'refused') {
    showTargetProblem(run.refusal);
    return { status: 'refused', reason: run.refusal.reason, message: run.refusal.message };
  }
  if (run.status === 'invalid-environment') {
    const message = `${run.problems.join('; ')}; nothing was sent`;
    void showError(said`PayGate: ${typed.text(message)}`);
    return { status: 'refused', reason: 'invalid-environment', message };
  }
  const { saved, template } = run;
  if (!saved.saved) return notAReport(saved.outcome, r.name, r.envName);
  const title = said`${typed.text(template.reportName || template.reportIdentifier)} (${typed.text(r.envName)})`;
  const info = reportInfo(r.name, r.envName, saved.bytes);
  if (saved.format === 'pdf') {
    const reportName = template.reportName || template.reportIdentifier;
    // A plain Uint8Array: the editor would send a Node Buffer to the page as JSON.
    const bytes = new Uint8Array(await fs.readFile(saved.file));
    return showPdf(deps, { title, reportName, template: r.name, environment: r.envName, bytes, target: r.pdfTarget });
  }
  log().info(said`Report ${typed.text(r.name)}: ${typed.count(saved.rows ?? 0)} rows, ${typed.count(saved.columns?.length ?? 0)} columns`);
  const uri = vscode.Uri.file(saved.file);
  deps.results
    .showReportFile({
      title,
      uri,
      info,
      views: viewsOf(template, r.name),
      delimiter: template.reportCsvDelimiter,
      encoding: template.reportEncode,
    })
    .then((panel) => deps.files.shownIn(panel, saved.file))
    .then(undefined, (err: unknown) => log().warn(said`Results panel: ${typed.text(String(err))}`));
  return { status: 'received', format: 'csv', columns: saved.columns ?? [], rowCount: saved.rows ?? 0 };
}

/** Every problem of a template at once (the ones the editor underlines), so fixing one does not reveal the next. */
function templateProblems(name: string, problems: TemplateProblem[]): ReportResult {
  const lines = problems.map((p) => problemLine(name, p));
  for (const l of lines) log().warn(said`Report template: ${typed.text(l)}`);
  const n = lines.length;
  void showErrorWithLog(
    said`PayGate: ${typed.text(name)} is not a valid report template (${typed.count(n)} problem${n === 1 ? said`` : said`s`}); nothing was sent. ${typed.text(lines.join(' · '))}`,
  );
  return { status: 'refused', reason: 'invalid-template', message: lines.join('\n'), problems };
}

/** An answer that is no report, told as every outcome is. */
function notAReport(outcome: GatewayOutcome, name: string, envName: string): ReportResult {
  const message =
    outcome.outcome === 'accepted'
      ? said`${typed.text(envName)} answered HTTP ${typed.count(outcome.status)} without a report`
      : summary(outcome, envName, []);
  log().warn(said`Report ${typed.text(name)}: ${message}`);
  if ('raw' in outcome) log().debug(said`Answer body: ${typed.text(outcome.raw.slice(0, 2000).replace(/\s+/g, ' '))}`);
  void showErrorWithLog(said`PayGate: ${message}`);
  return { status: 'failed', outcome: outcome.outcome, message: shown(message) };
}

/** The banner's facts, the same for a CSV and a PDF report. */
function reportInfo(template: string, environment: string, bytes: number): ReportInfo {
  return { template, environment, receivedAt: new Date().toISOString(), bytes };
}

/** A PDF answer opens in the pane like a CSV one; with `pdfTarget` it is also written there, as received. */
async function showPdf(
  deps: ReportDeps,
  r: {
    title: Said;
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
    log().info(said`Report PDF saved to ${typed.text(savedTo)} (${typed.count(r.bytes.length)} bytes)`);
  }
  log().info(said`Report ${typed.text(r.template)}: a PDF of ${typed.count(r.bytes.length)} bytes, shown in the pane`);
  deps.results
    .showPdf({
      title: r.title,
      info: reportInfo(r.template, r.environment, r.bytes.length),
      bytes: r.bytes,
      fileName,
    })
    .then(undefined, (err: unknown) => log().warn(said`PDF panel: ${typed.text(String(err))}`));
  return { status: 'received', format: 'pdf', savedTo, bytes: r.bytes.length, shown: true };
}
