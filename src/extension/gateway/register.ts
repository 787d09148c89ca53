import * as vscode from 'vscode';
import type { ResultsPanelApi } from '../../webview/register';

export interface GatewayDeps {
  results: ResultsPanelApi;
}

// Submit / report / environments / secrets / history / local gateway commands. (Being built.)
export async function registerGateway(_context: vscode.ExtensionContext, _deps: GatewayDeps): Promise<void> {}
