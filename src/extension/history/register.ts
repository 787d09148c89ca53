import * as vscode from 'vscode';
import type { ResultsPanelApi } from '../results/register';
import { SubmissionHistory } from './history';
import { clearHistoryCommand, openSubmissionCommand, SubmissionsTree, SUBMISSIONS_VIEW } from './view';

// The Submissions view over the history every submit records.
export function registerHistory(context: vscode.ExtensionContext, results: ResultsPanelApi): SubmissionHistory {
  const subs = context.subscriptions;
  const history = new SubmissionHistory(context.globalStorageUri.fsPath);
  const tree = new SubmissionsTree(history);
  subs.push(tree);
  subs.push(vscode.window.createTreeView(SUBMISSIONS_VIEW, { treeDataProvider: tree, showCollapseAll: true }));
  subs.push(vscode.commands.registerCommand('paygate.history.open', (arg) => openSubmissionCommand(history, results, arg)));
  subs.push(vscode.commands.registerCommand('paygate.history.clear', (arg) => clearHistoryCommand(history, arg)));
  return history;
}
