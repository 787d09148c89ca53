import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CALLBACK_ADDRESS_NOTIFICATION } from '../../shared/callbackProtocol';
import { log } from '../log';
import type { CallbackListening } from './listening';
import { said, typed } from '../../core/output';

// The listening address goes to the language server (notify_url completion): when listening starts or
// stops, and again whenever the client (re)starts, so a restarted server still knows it.
export function tellLanguageServer(context: vscode.ExtensionContext, client: LanguageClient, listening: CallbackListening): void {
  const send = () => {
    if (client.isRunning())
      client
        .sendNotification(CALLBACK_ADDRESS_NOTIFICATION, { url: listening.address ?? null })
        .catch((err: unknown) => log().debug(said`${typed.text(String(err))}`));
  };
  context.subscriptions.push(client.onDidChangeState(send), listening.onDidChangeAddress(send));
}
