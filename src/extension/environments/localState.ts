import * as path from 'node:path';
import type * as vscode from 'vscode';

/**
 * Where the local gateway this extension host runs keeps its state. Apart from the manager
 * (localGateway.ts), so the hover's "today" can read the simulated clock at start-up without loading the
 * gateway itself.
 */
export function ownLocalStateDir(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'gateway');
}
