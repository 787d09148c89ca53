import * as vscode from 'vscode';
import { ReportReconciliation, SETTLED_STATUSES, type Reconciliation } from '../../core/reconcile';
import type { CalendarDate } from '../../core/dates';
import { log } from '../log';
import type { PanelContent } from '../results/panel';
import type { ResultsPanelApi } from '../results/register';
import { feedReport, reportFileOf, type Batches } from './inputs';
import { reconciliationView, rowKey } from './view';
import { showError, showInfo, showWarning, shown } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';

// One reconciliation in the editor: the core's result shown in the results table, and the same findings as
// diagnostics on the batch files (information for ok/not-due, warning for the rest, never an error), which
// go when the view closes.

export const DIAGNOSTIC_SOURCE = 'paygate-reconcile';

interface Where {
  uri: vscode.Uri;
  line: number;
  reportLines: number[];
}

export async function showReconciliation(
  batches: Batches,
  report: PanelContent | vscode.Uri,
  deps: { results: ResultsPanelApi; diagnostics: vscode.DiagnosticCollection; today: CalendarDate },
): Promise<Reconciliation | undefined> {
  for (const s of batches.notes) log().warn(said`Reconcile: ${typed.text(s)}`);
  for (const s of batches.followed ?? []) log().info(said`Reconcile: ${typed.text(s)}`);
  if (batches.rows.length === 0) {
    void showWarning(
      said`PayGate: no batch to reconcile${batches.notes.length ? said` (${typed.text(batches.notes.join('; '))})` : said``}. Open a batch file or submit one first.`,
    );
    return undefined;
  }
  const file = reportFileOf(report);
  if (!file) {
    void showError(said`PayGate: this page shows no report to reconcile.`);
    return undefined;
  }
  const into = new ReportReconciliation(batches.rows, { today: deps.today, delimiter: file.delimiter });
  try {
    await feedReport(file, into);
  } catch (err) {
    void showError(said`PayGate: the report cannot be read: ${typed.text(errorMessage(err))}`);
    return undefined;
  }
  const result = into.end();
  if ('error' in result) {
    // The editor has no way to rename a report's columns: the useful next step is a report that has them.
    void showError(
      said`PayGate: the report cannot be reconciled: ${typed.text(result.error)}. Reconcile a transactions report: run one with PayGate: Run Report Template, or open one the gateway produced.`,
    );
    return undefined;
  }
  // A report the editor ran is named by its page, and its lines are not opened: its file is not the user's.
  const reportUri = file.ran ? undefined : file.uri;
  const reportName = reportUri ? reportUri.path.split('/').pop() : 'report';
  const where = new Map<string, Where>();
  for (const r of result.rows) {
    const uri = batches.files.get(r.file);
    if (uri) where.set(rowKey(r.file, r.line), { uri, line: r.line, reportLines: r.charges.map((c) => c.line) });
  }
  publishDiagnostics(result, batches, deps.diagnostics);
  const panel = await deps.results.showReconciliation(
    reconciliationView(result, said`Reconciliation: ${typed.text(reportName)}`),
    (key) => {
      const w = where.get(key);
      if (w) void reveal(w, reportUri);
    },
  );
  panel.onDidDispose(() => deps.diagnostics.clear());
  if (batches.notes.length > 0) void showWarning(said`PayGate: ${typed.text(batches.notes.join('; '))}.`);
  if (batches.followed?.length) void showInfo(said`PayGate: ${typed.text(batches.followed.join('; '))}.`);
  return result;
}

function publishDiagnostics(result: Reconciliation, batches: Batches, collection: vscode.DiagnosticCollection): void {
  collection.clear();
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const r of result.rows) {
    const line = Math.max(0, r.line - 1);
    const settled = SETTLED_STATUSES.includes(r.status);
    const d = new vscode.Diagnostic(
      new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
      // VS Code shows a diagnostic as it is: the reason's values are checked one by one here (a Said), not the line.
      shown(said`${typed.text(r.status)}: ${r.reason}`),
      settled ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning,
    );
    d.source = DIAGNOSTIC_SOURCE;
    d.code = r.status;
    const list = byFile.get(r.file) ?? [];
    list.push(d);
    byFile.set(r.file, list);
  }
  for (const [file, list] of byFile) {
    const uri = batches.files.get(file);
    if (uri) collection.set(uri, list);
  }
}

async function reveal(w: Where, reportUri: vscode.Uri | undefined): Promise<void> {
  const at = new vscode.Position(Math.max(0, w.line - 1), 0);
  await vscode.window.showTextDocument(w.uri, {
    selection: new vscode.Range(at, at),
    viewColumn: vscode.ViewColumn.One,
    preserveFocus: true,
  });
  if (reportUri && w.reportLines.length > 0) {
    const doc = await vscode.workspace.openTextDocument(reportUri);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
    editor.selections = w.reportLines.map(
      (l) => new vscode.Selection(l - 1, 0, l - 1, doc.lineAt(Math.min(l - 1, doc.lineCount - 1)).text.length),
    );
    editor.revealRange(new vscode.Range(w.reportLines[0] - 1, 0, w.reportLines[0] - 1, 0), vscode.TextEditorRevealType.InCenter);
  }
}
