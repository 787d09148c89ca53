import * as vscode from 'vscode';
import { log } from '../log';
import type { FeatureHost } from '../lazy';
import type { ResultsPanelApi } from '../results/register';
import { CompareDocuments, compareWithLastSentCommand } from './compare';
import { SubmissionHistory } from './history';
import { importLegacyHistory } from './legacy';
import { clearHistoryCommand, openSubmissionCommand, SHOW_OLDER_COMMAND, SubmissionsTree, SUBMISSIONS_VIEW } from './view';

// The Submissions view over the shared submission ledger.
export function registerHistory(context: vscode.ExtensionContext, results: ResultsPanelApi, host: FeatureHost): SubmissionHistory {
  const subs = context.subscriptions;
  const history = new SubmissionHistory();
  subs.push(history);
  // Records of the editor's former history file join the ledger once, so the resend guard still knows them.
  importLegacyHistory(context.globalStorageUri.fsPath, history.current).then(
    (n) => n > 0 && log().info(`Submission history: ${n} earlier record(s) moved into the ledger ${history.filePath}`),
    (err: unknown) => log().warn(`Submission history: the former history file could not be imported: ${String(err)}`),
  );
  const tree = new SubmissionsTree(history);
  subs.push(tree);
  // The view itself is registered at activation (extension.ts); it shows this tree from now on.
  host.tree(SUBMISSIONS_VIEW, tree);
  subs.push(
    vscode.commands.registerCommand('paygate.history.open', (arg) =>
      openSubmissionCommand(history, results, arg, (id) => tree.shownRecord(id)),
    ),
  );
  subs.push(vscode.commands.registerCommand(SHOW_OLDER_COMMAND, () => tree.showOlder()));
  subs.push(vscode.commands.registerCommand('paygate.history.clear', (arg) => clearHistoryCommand(history, arg)));
  const compared = new CompareDocuments();
  subs.push(
    compared,
    vscode.commands.registerCommand('paygate.compareWithLastSent', (...args: unknown[]) =>
      // eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
      compareWithLastSentCommand(history, compared, ...args),
    ),
  );
  return history;
}
