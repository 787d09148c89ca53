// The entry of dist/first-screen.js: what the first screen shows beside the problems (the environment in
// the status bar, Submit and Forecast above a batch's header line) and the language detection. The entry
// bundle loads it in the turn after activation returns, with the language client, or sooner when a feature
// reads the status bar; it runs once. The settings checks behind the status bar and the Submit lens bring
// zod, which is most of this bundle's weight and which activation therefore does not parse.
import type * as vscode from 'vscode';
import type { EntryState } from './entryState';
import type { EnvironmentStatus } from './environments/statusBar';
import { registerEnvironmentStatus } from './environments/watch';
import { registerForecastLens } from './forecast/codeLens';
import { registerDetection } from './lint/detect';
import { useLog } from './log';
import { registerSubmitLens } from './submit/codeLens';

export interface FirstScreen {
  status: EnvironmentStatus;
}

export function showFirstScreen(context: vscode.ExtensionContext, entry: Pick<EntryState, 'log' | 'local' | 'targetChanged'>): FirstScreen {
  useLog(entry.log);
  const status = registerEnvironmentStatus(context, entry.local, entry.targetChanged);
  registerSubmitLens(context, entry.targetChanged.event);
  registerForecastLens(context);
  registerDetection(context);
  return { status };
}
