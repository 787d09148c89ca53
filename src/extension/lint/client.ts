// The entry of dist/language-client.js: the language client (most of the extension's weight) and what
// talks to it from the start. The entry bundle loads it right after activation returns, or sooner when
// a feature asks for the client; it runs once.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { EntryState } from '../entryState';
import { ownLocalStateDir } from '../environments/localState';
import { useLog } from '../log';
import { BatchesOnDisk } from './batchesOnDisk';
import { registerPreviewToday } from './previewToday';
import { registerLinting } from './register';

export function startLanguageClient(context: vscode.ExtensionContext, entry: EntryState): LanguageClient {
  useLog(entry.log);
  const client = registerLinting(context);
  // Batches over 50 MB, which VS Code passes to no extension: checked from disk on open and on save.
  context.subscriptions.push(new BatchesOnDisk(client));
  registerPreviewToday(context, client, {
    onDidChangeTarget: entry.targetChanged.event,
    // Until the features start a local gateway, `local` is this host's own, whose clock may have moved before.
    localStateDir: () => entry.local.manager?.stateDirInUse ?? ownLocalStateDir(context),
  });
  return client;
}
