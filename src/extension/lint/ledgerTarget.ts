import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { environmentTargetUrl, LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../core/payload';
import { demoEndpointId } from '../../local-gateway/merchant';
import { LEDGER_TARGET_NOTIFICATION, PAYLOAD_LIMIT_NOTIFICATION, type LedgerTarget, type PayloadLimit } from '../../shared/lintProtocol';
import { activeEnvironmentName, configuredEnvironment, pathTemplates } from '../environments/settings';
import { configuredLedgerDirectory, LEDGER_DIRECTORY_SETTING } from '../ledgerDirectory';
import { log } from '../log';

// Tells the language server which ledger and target already-sent and cvv-after-send read: the ledger the
// Submissions view shows and the environment in the status bar, with the endpoint a submit would use.
// The active environment's maximum payload (batch-too-large) goes with it.
// Sent when the client starts, when the target or the ledger's directory setting changes, and when the
// ledger's files change (a submit from this window, another window or the terminal): the server then
// checks its open documents again.

/** The target now; undefined when the active environment is not known (nothing can be sent to it). */
function currentTarget(localStateDir: () => string): LedgerTarget | undefined {
  const environment = activeEnvironmentName();
  let endpointId: string | undefined;
  let where: { localStateDir: string } | { url: string } | undefined;
  if (environment === LOCAL_ENVIRONMENT) {
    try {
      where = { localStateDir: localStateDir() };
      endpointId = demoEndpointId(where.localStateDir);
    } catch (err) {
      log().debug(`Ledger target: the local gateway's merchant could not be read: ${String(err)}`);
    }
  } else {
    const found = configuredEnvironment(environment);
    endpointId = found?.endpointId;
    // Another environment with the same base URL and endpoint id is the same target.
    const url = found && environmentTargetUrl(found, pathTemplates());
    if (url !== undefined) where = { url };
  }
  return endpointId === undefined ? undefined : { directory: configuredLedgerDirectory(), environment, endpointId, ...where };
}

/** The active environment's maximum payload (batch-too-large); the local gateway's when it names none. */
function activeMaxPayload(): number {
  const environment = activeEnvironmentName();
  return (environment === LOCAL_ENVIRONMENT ? undefined : configuredEnvironment(environment)?.maxPayloadBytes) ?? DEFAULT_MAX_PAYLOAD_BYTES;
}

export function registerLedgerTarget(
  context: vscode.ExtensionContext,
  client: LanguageClient,
  environments: { onDidChangeTarget: vscode.Event<void>; localStateDir(): string },
): void {
  let watching: vscode.Disposable[] = [];
  let directory: string | undefined;
  const send = () => {
    const target = currentTarget(environments.localStateDir);
    if (target?.directory !== directory) watch(target?.directory);
    if (!client.isRunning()) return;
    client.sendNotification(LEDGER_TARGET_NOTIFICATION, target ?? null).catch((err: unknown) => log().debug(String(err)));
    const limit: PayloadLimit = { maxPayloadBytes: activeMaxPayload() };
    client.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, limit).catch((err: unknown) => log().debug(String(err)));
  };
  // The ledger's own files, wherever the setting puts them (outside the workspace too).
  const watch = (dir: string | undefined) => {
    for (const d of watching) d.dispose();
    directory = dir;
    if (dir === undefined) return (watching = []);
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.resolve(dir)), 'ledger*.jsonl'),
    );
    let pending: ReturnType<typeof setTimeout> | undefined;
    // A submit writes a few lines in a row: one notification for them.
    const changed = () => {
      if (pending !== undefined) clearTimeout(pending);
      pending = setTimeout(send, 200);
    };
    watching = [
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      { dispose: () => pending !== undefined && clearTimeout(pending) },
    ];
  };
  context.subscriptions.push(
    client.onDidChangeState(send),
    environments.onDidChangeTarget(send),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`paygate.${LEDGER_DIRECTORY_SETTING}`)) send();
    }),
    { dispose: () => watching.forEach((d) => d.dispose()) },
  );
}
