import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { EnvironmentsEntry } from './environments/entryPart';

// What the entry bundle (dist/extension.js) creates at activation and hands to the bundles it loads later
// (dist/first-screen.js and dist/language-client.js right after activation, dist/features.js on first use).
// Each bundle has its own copy of the modules it uses, so anything with state lives here, once, owned by
// the entry. The environments' part (the status bar item, the target's change event, the local gateway) is
// theirs to name: they never import this file.
export interface EntryState extends EnvironmentsEntry {
  log: vscode.LogOutputChannel;
  /** The language client, started at most once: the first call loads dist/language-client.js. */
  client(): LanguageClient;
}
