import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultStateDir } from '../../local-gateway/merchant';

// Where the local gateway `local` keeps its state. Apart from the manager (localGateway.ts), so the hover's
// "today" can read the simulated clock at start-up without loading the gateway itself.

export const LOCAL_STATE_SETTING = 'localGateway.stateDirectory';

/**
 * The local state directory, the same as the `paygate` CLI's unless `paygate.localGateway.stateDirectory`
 * names another (a machine setting: a workspace cannot point it elsewhere). `~` is the home directory; a
 * relative path is taken from it.
 */
export function localStateDir(): string {
  const home = os.homedir();
  const named = vscode.workspace.getConfiguration('paygate').get<string>(LOCAL_STATE_SETTING)?.trim() ?? '';
  if (named === '') return defaultStateDir(process.env, home);
  const expanded = named === '~' || named.startsWith('~/') ? path.join(home, named.slice(1)) : named;
  return path.resolve(home, expanded);
}

/**
 * The state directory of a local gateway this extension host runs for itself: only with paygate.paths
 * other than the defaults, which the shared local gateway would not serve.
 */
export function ownLocalStateDir(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'gateway');
}
