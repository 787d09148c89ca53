import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { formatGatewayDate } from '../../core/dates';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { simulatedToday } from '../../local-gateway/simulatedDate';
import { PREVIEW_TODAY_NOTIFICATION, type PreviewToday } from '../../shared/lintProtocol';
import type { EnvironmentsApi } from '../environments/register';
import { activeEnvironmentName } from '../environments/settings';
import { log } from '../log';

// The hover's "today": with `local` active, a row without start-date is charged on the local gateway's
// simulated day, so that is the day the language server counts from (and names). Sent when the client
// starts and whenever the target or the local gateway (its clock included) changes.
export function registerPreviewToday(
  context: vscode.ExtensionContext,
  client: LanguageClient,
  environments: Pick<EnvironmentsApi, 'onDidChangeTarget' | 'localStateDir'>,
): void {
  const send = () => {
    let preview: PreviewToday = {};
    if (activeEnvironmentName() === LOCAL_ENVIRONMENT) {
      const day = simulatedToday(environments.localStateDir());
      if (day) preview = { today: formatGatewayDate(day), source: "the local gateway's simulated date" };
    }
    if (client.isRunning()) client.sendNotification(PREVIEW_TODAY_NOTIFICATION, preview).catch((err: unknown) => log().debug(String(err)));
  };
  context.subscriptions.push(client.onDidChangeState(send), environments.onDidChangeTarget(send));
}
