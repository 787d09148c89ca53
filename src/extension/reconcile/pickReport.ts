import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PanelContent } from '../results/panel';
import { REPORT_TEMPLATE_SUFFIX } from '../report/templates';
import { showPick, type PickItem } from '../say';
import { ourWords, said, typed } from '../../core/output';

// Which report "Reconcile with Report..." from the palette reconciles with. A bare file dialog showed a
// new user a folder listing with only "..", and no hint that a report has to be run or saved first. The
// picker offers what can work: running a report now (from a template in the workspace, or writing one),
// the reports saved in the workspace, and a file elsewhere.

/** The most saved reports listed; more are reached through "Browse…". */
const MAX_LISTED = 50;
const EXCLUDE = '**/{node_modules,.git}/**';

type Choice = PickItem & { pick: () => Promise<PanelContent | vscode.Uri | undefined> };

export interface PickDeps {
  /** Runs a report template as "Run Report Template" does, and gives the CSV report it showed, if any. */
  runReport: (template: vscode.Uri) => Promise<PanelContent | undefined>;
}

export async function pickReport(deps: PickDeps): Promise<PanelContent | vscode.Uri | undefined> {
  const [templates, saved] = await Promise.all([
    vscode.workspace.findFiles(`**/*${REPORT_TEMPLATE_SUFFIX}`, EXCLUDE, MAX_LISTED),
    vscode.workspace.findFiles('**/*.csv', EXCLUDE, MAX_LISTED),
  ]);
  const choices: Choice[] = [runNow(templates, deps)];
  if (saved.length > 0)
    choices.push({ label: ourWords('Saved reports'), kind: vscode.QuickPickItemKind.Separator, pick: async () => undefined });
  for (const uri of saved.sort((a, b) => a.path.localeCompare(b.path)))
    choices.push({
      label: said`$(file) ${typed.text(path.basename(uri.path))}`,
      description: said`${typed.text(vscode.workspace.asRelativePath(uri))}`,
      pick: async () => uri,
    });
  choices.push({
    label: ourWords('$(folder-opened) Browse for a saved report…'),
    detail:
      saved.length === 0
        ? ourWords('No saved report (*.csv) in this workspace: run one now, or save one from its table with Export CSV.')
        : undefined,
    pick: browse,
  });
  const chosen = await showPick(choices, {
    title: ourWords('PayGate: Reconcile with Report'),
    placeHolder: ourWords('The transactions report to hold the batches against'),
  });
  return chosen?.pick();
}

function runNow(templates: vscode.Uri[], deps: PickDeps): Choice {
  if (templates.length === 0)
    return {
      label: ourWords('$(play) Run a report now'),
      detail: ourWords('No report template (*.report.json) in this workspace: writes a new one to run.'),
      pick: async () => {
        await vscode.commands.executeCommand('paygate.newReportTemplate');
        return undefined;
      },
    };
  return {
    label: ourWords('$(play) Run a report now'),
    description:
      templates.length === 1
        ? said`${typed.text(vscode.workspace.asRelativePath(templates[0]))}`
        : said`${typed.count(templates.length)} templates`,
    detail: ourWords('Runs the transactions report on the active environment and reconciles with its answer.'),
    pick: async () => {
      const template = templates.length === 1 ? templates[0] : await pickTemplate(templates);
      return template ? deps.runReport(template) : undefined;
    },
  };
}

async function pickTemplate(templates: vscode.Uri[]): Promise<vscode.Uri | undefined> {
  const chosen = await showPick(
    templates.map((uri) => ({
      label: said`${typed.text(path.basename(uri.path))}`,
      description: said`${typed.text(vscode.workspace.asRelativePath(uri))}`,
      uri,
    })),
    { title: ourWords('PayGate: Run a report now'), placeHolder: ourWords('The report template to run') },
  );
  return chosen?.uri;
}

async function browse(): Promise<vscode.Uri | undefined> {
  return (
    await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Transactions report': ['csv'] },
      openLabel: 'Reconcile with this report',
    })
  )?.[0];
}
