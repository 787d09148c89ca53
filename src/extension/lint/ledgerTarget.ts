import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { environmentTargetUrl, LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../core/payload';
import { demoEndpointId } from '../../local-gateway/merchant';
import {
  LEDGER_TARGET_NOTIFICATION,
  PAYLOAD_LIMIT_NOTIFICATION,
  type LedgerTarget,
  type PayloadLimit,
  type TeamLedgerTarget,
} from '../../shared/lintProtocol';
import { activeEnvironmentName, configuredEnvironment, pathTemplates } from '../environments/settings';
import { affectsLedger, configuredLedgerDirectory, teamLedgerSetting } from '../ledger/ledgerDirectory';
import { teamAccess } from '../ledger/teamSecrets';
import { log } from '../log';
import { said, typed } from '../../core/output';

// Tells the language server which ledger and target already-sent and cvv-after-send read: the ledger the
// Submissions view shows and the environment in the status bar, with the endpoint a submit would use.
// The active environment's maximum payload (batch-too-large) goes with it.
// Sent when the client starts, when the target or the ledger's directory setting changes, and when the
// ledger's files change (a submit from this window, another window or the terminal): the server then
// checks its open documents again. With `paygate.ledger.url` set it names the team ledger, with the password
// and team key from the editor's secret storage (over the client's own pipe to the server it started), so
// already-sent reads the store submit uses; a setting that is no URL is passed as it is, and the server says
// the guard could not be checked.

/** The team ledger of the settings with its secrets; undefined for the file ledger. */
async function teamTarget(secrets: vscode.SecretStorage): Promise<TeamLedgerTarget | undefined> {
  const setting = teamLedgerSetting();
  if (setting === undefined) return undefined;
  // Never the URL as set (it may hold a password): the server is told why it cannot read it.
  if (!setting.ok) return { url: '', problem: setting.message };
  const access = await teamAccess(secrets, setting.url);
  return {
    url: setting.url.href,
    ...(access.password !== undefined ? { password: access.password } : {}),
    ...(access.keyHex !== undefined ? { key: access.keyHex } : {}),
  };
}

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
      log().debug(said`Ledger target: the local gateway's merchant could not be read: ${typed.text(String(err))}`);
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
  let sending = Promise.resolve();
  // In order: a later change's target is never overtaken by an earlier one still reading secret storage.
  const send = () => (sending = sending.then(sendNow, (err: unknown) => log().debug(said`${typed.text(String(err))}`)));
  const sendNow = async () => {
    const found = currentTarget(environments.localStateDir);
    const team = found ? await teamTarget(context.secrets) : undefined;
    const target = found && team ? { ...found, team } : found;
    // The team ledger has no files here to watch.
    const dir = team ? undefined : target?.directory;
    if (dir !== directory) watch(dir);
    if (!client.isRunning()) return;
    client
      .sendNotification(LEDGER_TARGET_NOTIFICATION, target ?? null)
      .catch((err: unknown) => log().debug(said`${typed.text(String(err))}`));
    const limit: PayloadLimit = { maxPayloadBytes: activeMaxPayload() };
    client.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, limit).catch((err: unknown) => log().debug(said`${typed.text(String(err))}`));
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
      pending = setTimeout(() => void send(), 200);
    };
    watching = [
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      { dispose: () => pending !== undefined && clearTimeout(pending) },
    ];
  };
  context.subscriptions.push(
    client.onDidChangeState(() => void send()),
    environments.onDidChangeTarget(() => void send()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsLedger(e)) void send();
    }),
    context.secrets.onDidChange((e) => {
      if (e.key.startsWith('paygate.ledger.')) void send();
    }),
    { dispose: () => watching.forEach((d) => d.dispose()) },
  );
}
