import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until as untilEvent } from './wait';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const COMMAND = 'paygate.openCsvInTable';

function resultsTabs(label?: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('paygate.results'))
    .filter((t) => label === undefined || t.label === label);
}

/** Probes until `probe` gives a value, waking whenever the tabs change. */
function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  return untilEvent(what, probe, { events: [vscode.window.tabGroups.onDidChangeTabs] });
}

describe('results panel', () => {
  let fixture: vscode.Uri;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension installed');
    await ext.activate();
    fixture = vscode.Uri.file(path.join(ext.extensionPath, 'test', 'fixtures', 'webview', 'report-awkward.csv'));
  });

  afterEach(async () => {
    await vscode.window.tabGroups.close(resultsTabs());
  });

  it('Open CSV in PayGate Table opens a panel titled after the file', async () => {
    await vscode.commands.executeCommand(COMMAND, fixture);
    const tab = await until('the results tab', () => resultsTabs('Table: report-awkward.csv')[0]);
    assert.ok(tab.input instanceof vscode.TabInputWebview);
    assert.equal(tab.isActive, true);
  });

  it('opening the same file again reuses its panel', async () => {
    await vscode.commands.executeCommand(COMMAND, fixture);
    await until('the results tab', () => resultsTabs('Table: report-awkward.csv')[0]);
    await vscode.commands.executeCommand(COMMAND, fixture);
    assert.equal(resultsTabs('Table: report-awkward.csv').length, 1);
  });

  it('without an argument, opens the CSV of the active editor', async () => {
    const doc = await vscode.workspace.openTextDocument(fixture);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand(COMMAND);
    await until('the results tab', () => resultsTabs('Table: report-awkward.csv')[0]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
