import * as vscode from 'vscode';
import type { EnvironmentsApi } from '../environments/register';
import type { ResultsPanelApi } from '../results/register';
import { ReportFiles } from './reportFiles';
import { runReportCommand } from './run';
import { newReportTemplateCommand } from './templates';

// Custom transactions reports: run a template, write a new one.
export function registerReport(context: vscode.ExtensionContext, deps: { environments: EnvironmentsApi; results: ResultsPanelApi }): void {
  const files = new ReportFiles();
  /* eslint-disable no-restricted-syntax -- bounded: a command's arguments forwarded as they came */
  context.subscriptions.push(
    files,
    vscode.commands.registerCommand('paygate.runReport', (...args: unknown[]) =>
      runReportCommand({ ...deps.environments.target, results: deps.results, files }, ...args),
    ),
    vscode.commands.registerCommand('paygate.newReportTemplate', (...args: unknown[]) => newReportTemplateCommand(...args)),
  );
  /* eslint-enable no-restricted-syntax */
}
