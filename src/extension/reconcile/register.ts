import * as vscode from 'vscode';
import type { SubmissionRecord } from '../../core/ledger';
import { documentFor } from '../diskDocument';
import { gatewayToday, localStateDirOf } from '../environments/gatewayToday';
import { activeEnvironmentName } from '../environments/settings';
import type { Reconciliation } from '../../core/reconcile';
import type { EditorLedger } from '../ledger/editorLedger';
import type { PanelContent } from '../results/panel';
import type { ResultsPanelApi } from '../results/register';
import { batchesOf, documentBatch, ledgerBatches, type Batches } from './inputs';
import { showWarning } from '../say';
import { pickReport } from './pickReport';
import { DIAGNOSTIC_SOURCE, showReconciliation } from './run';
import { said } from '../../core/output';

// "PayGate: Reconcile with Report..." from the Command Palette (the open batch, else the ledger's accepted
// submissions to the active environment), from a report's page (that report) and from a Submissions entry
// (that submission's batch). docs/reconcile.md.

export const RECONCILE_COMMAND = 'paygate.reconcileWithReport';
const BATCH_LANGUAGE = 'paygate-recurring-csv';

function recordOf(arg: unknown): SubmissionRecord | undefined {
  const n = arg as { record?: SubmissionRecord } | undefined;
  return n && typeof n === 'object' && n.record && typeof n.record.file === 'string' ? n.record : undefined;
}

/** "Run a report now": the report command, then the CSV report it showed (a PDF cannot be reconciled). */
async function runReportNow(template: vscode.Uri, results: ResultsPanelApi): Promise<PanelContent | undefined> {
  const before = results.lastReport();
  const r = await vscode.commands.executeCommand<{ status: string; format?: string } | undefined>('paygate.runReport', template);
  if (r?.status !== 'received') return undefined;
  const shown = results.lastReport();
  if (r.format !== 'csv' || shown === undefined || shown === before) {
    void showWarning(
      said`PayGate: that template answers with a PDF, which cannot be reconciled: use a template with "reportFormat": "CSV".`,
    );
    return undefined;
  }
  return shown;
}

export function registerReconcile(
  context: vscode.ExtensionContext,
  deps: { ledger: EditorLedger; results: ResultsPanelApi; localStateDir: () => string },
): void {
  const diagnostics = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  const run = async (batches: Batches, report: PanelContent | vscode.Uri | undefined): Promise<Reconciliation | undefined> => {
    const chosen = report ?? (await pickReport({ runReport: (template) => runReportNow(template, deps.results) }));
    // A row the ledger saw sent starts on that day; any other on the gateway's today (the local gateway's own).
    const today = gatewayToday(deps.localStateDir).today;
    return chosen ? showReconciliation(batches, chosen, { results: deps.results, diagnostics, today }) : undefined;
  };
  const openBatch = async () => {
    const environment = activeEnvironmentName();
    const localStateDir = localStateDirOf(environment, deps.localStateDir);
    const to = { environment, ...(localStateDir !== undefined ? { localStateDir } : {}) };
    // The active tab's batch (one over 50 MB has no editor an extension sees: read from disk), else the ledger's.
    const doc = vscode.window.activeTextEditor?.document ?? (await documentFor([]));
    return doc?.languageId === BATCH_LANGUAGE ? documentBatch(doc, deps.ledger, to) : ledgerBatches(deps.ledger, to);
  };
  deps.results.onReconcileRequest((report) => void openBatch().then((b) => run(b, report)));
  context.subscriptions.push(
    diagnostics,
    vscode.commands.registerCommand(RECONCILE_COMMAND, async (arg?: unknown): Promise<Reconciliation | undefined> => {
      const record = recordOf(arg);
      const report = arg instanceof vscode.Uri ? arg : undefined;
      return run(record ? await batchesOf([record], deps.ledger) : await openBatch(), report);
    }),
  );
}
