import * as vscode from 'vscode';
import type { ResultsPanelApi } from '../../webview/register';
import { log } from '../log';
import { SubmitCodeLensProvider, RECURRING_CSV_LANGUAGE } from './codeLens';
import { affectsGatewaySettings, configuredEnvironments, SECTION } from './environments';
import { SubmissionHistory } from './history';
import { clearHistoryCommand, openSubmissionCommand, SubmissionsTree, SUBMISSIONS_VIEW } from './historyView';
import { LocalGatewayManager, type LocalGatewayInfo } from './localGateway';
import { ReadOnlyDocuments } from './readOnlyDocs';
import { runReportCommand } from './report';
import { setConsumerSecretCommand, setRsaPrivateKeyCommand, type SetConsumerSecretArgs, type SetRsaKeyArgs } from './secrets';
import { showSignatureDetailsCommand } from './signatureDetails';
import { EnvironmentStatus, selectEnvironmentCommand } from './statusBar';
import { submitCommand } from './submit';
import { newReportTemplateCommand } from './templates';

// Submit / report / signature details / environments / secrets / history / local gateway. Every command
// takes optional arguments (a Uri or path, an options object) so tests and automation can drive it
// without dialogs, and returns a result value describing what it did.

export interface GatewayDeps {
  results: ResultsPanelApi;
}

const LOCAL_RUNNING_CONTEXT = 'paygate.localGatewayRunning';

/** A string argument names the environment; an object is taken as the command's options. */
function envArgs<T extends { environment?: string }>(arg: unknown): T {
  if (typeof arg === 'string') return { environment: arg } as T;
  return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as T) : ({} as T);
}

function logSettingsProblems(): void {
  for (const p of configuredEnvironments().problems) log().warn(`Settings: ${p}`);
}

export async function registerGateway(context: vscode.ExtensionContext, deps: GatewayDeps): Promise<void> {
  const subs = context.subscriptions;
  const local = new LocalGatewayManager(LocalGatewayManager.stateDirOf(context), log());
  const history = new SubmissionHistory(context.globalStorageUri.fsPath);
  const docs = new ReadOnlyDocuments();
  const status = new EnvironmentStatus(local);
  const lenses = new SubmitCodeLensProvider();
  const tree = new SubmissionsTree(history);
  // `local` is stopped with the extension: LocalGatewayManager.dispose closes the server.
  subs.push(local, docs, status, lenses, tree);
  subs.push(vscode.window.createTreeView(SUBMISSIONS_VIEW, { treeDataProvider: tree, showCollapseAll: true }));
  subs.push(vscode.languages.registerCodeLensProvider({ language: RECURRING_CSV_LANGUAGE }, lenses));

  const target = { secrets: context.secrets, local };
  const register = (id: string, fn: (...args: unknown[]) => unknown) => subs.push(vscode.commands.registerCommand(id, fn));

  register('paygate.submit', (...args) => submitCommand({ ...target, history, results: deps.results }, ...args));
  register('paygate.runReport', (...args) => runReportCommand({ ...target, results: deps.results }, ...args));
  register('paygate.showSignatureDetails', (...args) => showSignatureDetailsCommand({ ...target, docs }, ...args));
  register('paygate.selectEnvironment', (arg) => selectEnvironmentCommand(status, arg));
  register('paygate.setConsumerSecret', (arg) => setConsumerSecretCommand(context.secrets, envArgs<SetConsumerSecretArgs>(arg)));
  register('paygate.setRsaPrivateKey', (arg) => setRsaPrivateKeyCommand(context.secrets, envArgs<SetRsaKeyArgs>(arg)));
  register('paygate.newReportTemplate', (...args) => newReportTemplateCommand(...args));
  register('paygate.history.open', (arg) => openSubmissionCommand(history, docs, arg));
  register('paygate.history.clear', (arg) => clearHistoryCommand(history, arg));

  register('paygate.startLocalGateway', async (): Promise<LocalGatewayInfo> => {
    try {
      await local.ensureStarted();
    } catch (err) {
      const message = `The local gateway could not start: ${err instanceof Error ? err.message : String(err)}`;
      log().error(message);
      void vscode.window.showErrorMessage(`PayGate: ${message}`);
      return local.info();
    }
    const info = local.info();
    void vscode.window.showInformationMessage(`PayGate: local gateway running at ${info.baseUrl} (reports ${info.reportBaseUrl}).`);
    return info;
  });
  register('paygate.stopLocalGateway', async (): Promise<boolean> => {
    const stopped = await local.stop();
    void vscode.window.showInformationMessage(stopped ? 'PayGate: local gateway stopped.' : 'PayGate: the local gateway was not running.');
    return stopped;
  });

  const syncLocal = () => {
    void vscode.commands.executeCommand('setContext', LOCAL_RUNNING_CONTEXT, local.running !== undefined);
    status.refresh();
  };
  subs.push(local.onDidChange(syncLocal));
  syncLocal();

  subs.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsGatewaySettings(e)) return;
      status.refresh();
      lenses.refresh();
      if (e.affectsConfiguration(`${SECTION}.environments`)) logSettingsProblems();
      // The embedded gateway serves the paths and port it started with; the next use starts it anew.
      if ((e.affectsConfiguration(`${SECTION}.paths`) || e.affectsConfiguration(`${SECTION}.localGateway.port`)) && local.running) {
        void local.stop();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => lenses.refresh()),
  );
  logSettingsProblems();
}
