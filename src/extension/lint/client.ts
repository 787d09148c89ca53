// The entry of dist/language-client.js: the language client (most of the extension's weight) and what
// talks to it from the start. The entry bundle loads it right after activation returns, or sooner when
// a feature asks for the client; it runs once.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { EntryState } from '../entryState';
import { localStateDir } from '../environments/localState';
import { useLog } from '../log';
import { BatchesOnDisk } from './batchesOnDisk';
import { APPLY_FIX_ON_DISK, applyFixOnDisk, fixOnDiskMiddleware } from './fixOnDisk';
import { registerLedgerTarget } from './ledgerTarget';
import { registerPreviewToday } from './previewToday';
import { registerLinting } from './register';

export function startLanguageClient(context: vscode.ExtensionContext, entry: EntryState): LanguageClient {
  useLog(entry.log);
  // Quick fixes on a file whose line breaks the editor shows otherwise are made on its bytes (fixOnDisk.ts).
  const client = registerLinting(context, fixOnDiskMiddleware);
  context.subscriptions.push(vscode.commands.registerCommand(APPLY_FIX_ON_DISK, applyFixOnDisk));
  // Batches over 50 MB, which VS Code passes to no extension: checked from disk on open and on save.
  context.subscriptions.push(new BatchesOnDisk(client));
  const environments = {
    onDidChangeTarget: entry.targetChanged.event,
    // Until the features find or start the local gateway, its state directory holds the clock as it last was.
    localStateDir: () => entry.local.manager?.stateDirInUse ?? localStateDir(),
  };
  registerPreviewToday(context, client, environments);
  registerLedgerTarget(context, client, environments);
  return client;
}
