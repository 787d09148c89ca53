import type * as vscode from 'vscode';
import {
  LanguageClient,
  RevealOutputChannelOn,
  TransportKind,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { DIAGNOSTIC_SOURCE, LANGUAGE_ID, LINT_SECTION, LOG_NOTIFICATION } from '../../shared/lintProtocol';
import { log, logChannel } from '../log';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';
import { serverLogLine } from './serverLogLine';

/**
 * Diagnostics, code actions, hover and completion for paygate-recurring-csv come from the PayGate
 * language server (dist/language-server.js) in its own process, so linting a big batch never blocks the
 * extension host. This only starts it: documents of the language in any URI scheme are synced, and
 * `paygate.lint.run` / `paygate.lint.debounceMs` reach it as LSP configuration (the server asks per
 * document through workspace/configuration and is told when they change).
 */
export function registerLinting(context: vscode.ExtensionContext, middleware?: Middleware): LanguageClient {
  const serverModule = context.asAbsolutePath('dist/language-server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: LANGUAGE_ID }],
    diagnosticCollectionName: DIAGNOSTIC_SOURCE,
    synchronize: { configurationSection: LINT_SECTION },
    // The server's own lines come as `Said`s (LOG_NOTIFICATION), read value by value; the client's are free text.
    initializationOptions: { paygate: { saidLog: true } },
    outputChannel: logChannel(),
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware,
  };
  const client = new LanguageClient('paygate', 'PayGate language server', serverOptions, clientOptions);
  client.onNotification(LOG_NOTIFICATION, serverLogLine);
  // Stopping a client that never got running rejects; at shutdown there is nothing left to do about it.
  context.subscriptions.push({ dispose: () => client.stop().catch(() => undefined) });
  client.start().catch((err: unknown) => log().error(said`PayGate language server did not start: ${typed.text(errorMessage(err))}`));
  return client;
}
