import * as vscode from 'vscode';
import type { EnvironmentsEntry } from './entryPart';
import { log } from '../log';
import { affectsGatewaySettings, configuredEnvironments, SECTION } from './settings';
import { EnvironmentStatus } from './statusBar';
import { said, typed } from '../../core/output';

// The part of environments the first screen shows: the status bar item, kept in step with the settings
// and the workspace trust (dist/first-screen.js). The local gateway and the commands load with the
// features (register.ts).

function logSettingsProblems(): void {
  for (const p of configuredEnvironments().problems) log().warn(said`Settings: ${typed.text(p)}`);
}

/** The status bar item; `targetChanged` (the entry's) fires when the settings or the trust change the target. */
export function registerEnvironmentStatus(
  context: vscode.ExtensionContext,
  local: EnvironmentsEntry['local'],
  targetChanged: EnvironmentsEntry['targetChanged'],
): EnvironmentStatus {
  const status = new EnvironmentStatus(() => local.manager?.info() ?? { running: false });
  context.subscriptions.push(
    status,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsGatewaySettings(e)) return;
      status.refresh();
      targetChanged.fire();
      if (e.affectsConfiguration(`${SECTION}.environments`)) logSettingsProblems();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => targetChanged.fire()),
  );
  logSettingsProblems();
  return status;
}
