import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { formatGatewayDate } from '../../core/dates';
import { PREVIEW_TODAY_NOTIFICATION, type PreviewToday } from '../../shared/lintProtocol';
import { gatewayToday } from '../environments/gatewayToday';
import type { EnvironmentsApi } from '../environments/register';
import { log } from '../log';
import { said, typed } from '../../core/output';

// The hover's "today": with `local` active, a row without start-date is charged on the local gateway's
// simulated day, so that is the day the language server counts from (and names). Sent when the client
// starts and whenever the target or the local gateway (its clock included) changes.
export function registerPreviewToday(
  context: vscode.ExtensionContext,
  client: LanguageClient,
  environments: Pick<EnvironmentsApi, 'onDidChangeTarget' | 'localStateDir'>,
): void {
  const send = () => {
    const day = gatewayToday(environments.localStateDir);
    const preview: PreviewToday = day.source ? { today: formatGatewayDate(day.today), source: day.source } : {};
    if (client.isRunning())
      client.sendNotification(PREVIEW_TODAY_NOTIFICATION, preview).catch((err: unknown) => log().debug(said`${typed.text(String(err))}`));
  };
  context.subscriptions.push(client.onDidChangeState(send), environments.onDidChangeTarget(send));
}
