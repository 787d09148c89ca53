import * as vscode from 'vscode';
import { log } from '../log';
import type { ResultsPanelApi } from '../results/register';
import type { LocalGatewayManager } from '../environments/localGateway';
import { clientOrderIdOf } from '../../core/callbacks';
import { loopbackUrl } from '../../core/callbacks/loopback';
import { notifyUrlFor } from '../../shared/callbackProtocol';
import { CallbackStore, replayEntry } from '../../callback-listener';
import { demoControlKey } from '../../local-gateway';
import { localStateDir } from '../environments/localState';
import { CallbackListening } from './listening';
import { tellLanguageServer } from './languageServer';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { FeatureHost } from '../lazy';
import { CALLBACKS_VIEW, CallbacksTree, entryIdOf, entryRows } from './view';
import { ask, showError, showInfo } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed, type Said } from '../../core/output';

// The Callbacks view: start/stop the listener, copy a notify_url, show a call in the results panel, replay
// a call or forward every call to a handler under development. The listening address goes to the language
// server (notify_url completion).

const LISTENING_CONTEXT = 'paygate.callbacksListening';

export interface CallbacksDeps {
  results: ResultsPanelApi;
  local: LocalGatewayManager;
  /** The language client: the listening address is offered in notify_url cells. */
  client: LanguageClient;
  host: FeatureHost;
}

async function askLoopback(prompt: Said, value: string | undefined, allowEmpty: boolean): Promise<string | undefined> {
  return ask({
    prompt,
    value: typed.text(value ?? 'http://127.0.0.1:3000/'),
    validateInput: (v) => {
      if (allowEmpty && v.trim() === '') return undefined;
      const t = loopbackUrl(v.trim());
      return t.ok ? undefined : said`${typed.text(t.reason)}`;
    },
  });
}

export function registerCallbacks(context: vscode.ExtensionContext, deps: CallbacksDeps): CallbackListening {
  const subs = context.subscriptions;
  // The local state directory, the CLI's: `paygate callbacks list` and the view show the same calls.
  const stateDir = localStateDir();
  const controlKey = () => deps.local.running?.merchant.controlKey ?? demoControlKey(stateDir);
  const listening = new CallbackListening(new CallbackStore(stateDir), controlKey, log());
  subs.push(listening);
  const tree = new CallbacksTree(listening, controlKey);
  subs.push(tree);
  // The view itself is registered at activation (extension.ts); it shows this tree from now on.
  deps.host.tree(CALLBACKS_VIEW, tree);
  subs.push(listening.onDidChangeAddress((url) => void vscode.commands.executeCommand('setContext', LISTENING_CONTEXT, url !== undefined)));
  tellLanguageServer(context, deps.client, listening);
  const copy = () => copyNotifyUrl(listening);
  const replay = replayer(listening);
  subs.push(
    vscode.commands.registerCommand('paygate.callbacks.start', () => startListening(listening, controlKey, copy)),
    vscode.commands.registerCommand('paygate.callbacks.stop', () => listening.stop()),
    vscode.commands.registerCommand('paygate.callbacks.copyNotifyUrl', copy),
    vscode.commands.registerCommand('paygate.callbacks.open', (arg?: unknown) => openCallback(listening, deps.results, arg)),
    vscode.commands.registerCommand('paygate.callbacks.replay', replay),
    vscode.commands.registerCommand('paygate.callbacks.forward', (to?: string) => forwardTo(listening, to)),
  );
  return listening;
}

/** Copies a notify_url that reaches the listener (started first when it is not listening). */
async function copyNotifyUrl(listening: CallbackListening): Promise<string> {
  const address = listening.address ?? (await listening.start());
  const value = notifyUrlFor(address);
  await vscode.env.clipboard.writeText(value);
  void showInfo(said`PayGate: copied ${typed.text(value)} (a notify_url for your batch).`);
  return value;
}

async function startListening(
  listening: CallbackListening,
  controlKey: () => string | undefined,
  copy: () => Promise<string>,
): Promise<string | undefined> {
  try {
    const url = await listening.start();
    const key = controlKey();
    log().info(
      said`Callbacks: control checked with ${key ? said`the local gateway's demo merchant's control key` : said`no key (none known yet)`}`,
    );
    void showInfo(said`PayGate: listening for callbacks on ${typed.text(url)}`, 'Copy notify_url').then((a) => a && copy());
    return url;
  } catch (err) {
    void showError(said`PayGate: cannot listen for callbacks: ${typed.text((err as Error).message)}`);
    return undefined;
  }
}

/** Shows a kept callback (the one given, else the newest) as a property/value table. */
async function openCallback(listening: CallbackListening, results: CallbacksDeps['results'], arg?: unknown): Promise<void> {
  const id = entryIdOf(arg) ?? listening.entries().at(-1)?.id;
  const e = id ? listening.get(id) : undefined;
  if (!e) return void showInfo(said`PayGate: no callback to show.`);
  await results.showDetails({
    title: said`Callback ${typed.text(clientOrderIdOf(e.fields) ?? e.id)}`,
    columns: ['property', 'value'],
    rows: entryRows(e),
  });
}

/** The replay command; it remembers the last handler it sent to, to offer it again. */
function replayer(listening: CallbackListening) {
  let lastTarget: string | undefined;
  return async (arg?: unknown, to?: string) => {
    const id = entryIdOf(arg);
    const e = id ? listening.get(id) : undefined;
    if (!e) return void showInfo(said`PayGate: choose a callback in the Callbacks view to replay.`);
    const target =
      to ?? (await askLoopback(said`Replay this callback to (a handler on this machine)`, lastTarget ?? listening.forwardTo, false));
    if (!target) return undefined;
    lastTarget = target.trim();
    const r = await replayEntry(e, lastTarget);
    // r.url: the exact URL the call went to (the target as given, the call's query added), said everywhere.
    if (!r.ok) {
      log().warn(said`Callbacks: replay of ${typed.id(e.id)} to ${typed.text(r.url)} failed: ${typed.text(r.error)}`);
      void showError(said`PayGate: replay to ${typed.text(r.url)} failed: ${typed.text(r.error)}`);
      return r;
    }
    const note = r.masked ? ' (the kept body was masked; the masked body was sent)' : '';
    const how = said`${typed.text(r.url)}: HTTP ${typed.count(r.status)} in ${typed.count(r.ms)} ms${typed.text(note)}`;
    log().info(said`Callbacks: replayed ${typed.id(e.id)} to ${how}`);
    void showInfo(said`PayGate: replayed to ${how}`);
    return r;
  };
}

/** Sets (or, with an empty answer, clears) the loopback handler every callback is passed on to. */
async function forwardTo(listening: CallbackListening, to?: string): Promise<void> {
  const target =
    typeof to === 'string'
      ? to
      : await askLoopback(said`Forward every callback to (empty: answer 200 OK instead)`, listening.forwardTo, true);
  if (target === undefined) return;
  const value = target.trim() === '' ? undefined : target.trim();
  if (value !== undefined && !loopbackUrl(value).ok) {
    return void showError(said`PayGate: ${typed.text((loopbackUrl(value) as { reason: string }).reason)}`);
  }
  try {
    await listening.setForward(value);
  } catch (err) {
    // Refused before anything stopped: the listener goes on as it was.
    void showError(said`PayGate: not forwarding: ${typed.text(errorMessage(err))}`);
  }
}
