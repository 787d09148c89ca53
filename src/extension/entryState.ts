import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { LocalGatewayManager } from './environments/localGateway';
import type { EnvironmentStatus } from './environments/statusBar';

// What the entry bundle (dist/extension.js) creates at activation and hands to the bundles it loads later
// (dist/first-screen.js and dist/language-client.js right after activation, dist/features.js on first use).
// Each bundle has its own copy of the modules it uses, so anything with state lives here, once, owned by
// the entry.
export interface EntryState {
  log: vscode.LogOutputChannel;
  /** The status bar item, made by dist/first-screen.js: the first read loads that bundle if it is not yet. */
  readonly status: EnvironmentStatus;
  /** Fires when something that decides the target changed (settings, trust, the local gateway, its clock). */
  targetChanged: vscode.EventEmitter<void>;
  /** The local gateway `local` uses, once the features bundle made it. */
  local: { manager?: LocalGatewayManager };
  /** The language client, started at most once: the first call loads dist/language-client.js. */
  client(): LanguageClient;
}
