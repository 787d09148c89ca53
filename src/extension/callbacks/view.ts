import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { CallbackEntry } from '../../callback-listener';
import type { CallbackListening } from './listening';
import { clientOrderIdOf } from '../../core/callbacks';
import { controlText, describeEntry, repeatText, statusLook } from './look';
import { said, typed } from '../../core/output';
import { shown } from '../say';

// The "PayGate Callbacks" tree: the listening state first (address, forward target, a button copying a
// ready notify_url), then each received call, newest first: the charge's status (its icon), client-orderid,
// control checksum, time. Every label, description and tooltip passes the editor's floor (../say.ts
// `shown`), a call's time and the forward's HTTP status as typed values (issue 38); its fields were masked
// when the call was kept and are read again alone.

export const CALLBACKS_VIEW = 'paygate.callbacks';

export type CallbackNode = { kind: 'state' } | { kind: 'entry'; entry: CallbackEntry };

function statusIcon(e: CallbackEntry): vscode.ThemeIcon {
  const look = statusLook(e);
  return new vscode.ThemeIcon(look.icon, look.color === undefined ? undefined : new vscode.ThemeColor(look.color));
}

export class CallbacksTree extends Disposable implements vscode.TreeDataProvider<CallbackNode> {
  private readonly changed = this.register(new vscode.EventEmitter<CallbackNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly listening: CallbackListening,
    /** The local gateway's demo merchant's control key, shown so a handler under test can be given it. */
    private readonly controlKey: () => string | undefined,
  ) {
    super();
    this.register(listening.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(node?: CallbackNode): CallbackNode[] {
    if (node) return [];
    const entries = this.listening.entries();
    const out: CallbackNode[] = new Array<CallbackNode>(entries.length + 1);
    out[0] = { kind: 'state' };
    // Newest first without copying and reversing the whole list twice.
    for (let i = 0; i < entries.length; i++) out[i + 1] = { kind: 'entry', entry: entries[entries.length - 1 - i] };
    return out;
  }

  getTreeItem(node: CallbackNode): vscode.TreeItem {
    if (node.kind === 'state') {
      const address = this.listening.address;
      if (address === undefined) {
        const item = new vscode.TreeItem('Not listening', vscode.TreeItemCollapsibleState.None);
        item.description = 'start to receive callbacks on 127.0.0.1';
        item.iconPath = new vscode.ThemeIcon('debug-disconnect');
        item.command = { command: 'paygate.callbacks.start', title: 'Start Listening for Callbacks' };
        item.contextValue = 'paygate.callbacks.stopped';
        return item;
      }
      const item = new vscode.TreeItem(shown(said`Listening on ${typed.text(address)}`), vscode.TreeItemCollapsibleState.None);
      const forward = this.listening.forwardTo;
      item.description = forward ? shown(said`forwarding to ${typed.text(forward)}`) : 'answering 200 OK';
      item.iconPath = new vscode.ThemeIcon('radio-tower', new vscode.ThemeColor('testing.iconPassed'));
      const key = this.controlKey();
      const keyText =
        key === undefined
          ? said`No control key known yet: start the local gateway to check the control field.`
          : said`Control checked with the local gateway's demo merchant's control key: ${typed.text(key)}`;
      item.tooltip = shown(
        said`Callbacks to ${typed.text(address)} (any path) appear below. Copy a ready notify_url with the button.\n${keyText}`,
      );
      item.contextValue = 'paygate.callbacks.listening';
      return item;
    }
    const e = node.entry;
    const status = e.fields['status'] ?? e.method;
    const order = clientOrderIdOf(e.fields);
    const t = typed.text;
    const label = order ? said`${t(status)} · ${t(order)}` : said`${t(status)} ${t(e.path)}`;
    const item = new vscode.TreeItem(shown(label), vscode.TreeItemCollapsibleState.None);
    item.id = e.id;
    const fwd = e.forwarded ? said` · → ${typed.count(e.forwarded.status)}` : said``;
    item.description = shown(said`${t(describeEntry(e))} · ${typed.date(new Date(e.time).toLocaleTimeString())}${fwd}`);
    item.iconPath = statusIcon(e);
    item.contextValue = 'paygate.callback';
    const repeat = e.repeatOf ? said`\n${t(repeatText(e))}` : said``;
    const to = e.forwarded?.url ? said`\nforwarded to ${t(e.forwarded.url)}` : said``;
    const failed = e.forwarded?.error ? said`\nforward failed: ${t(e.forwarded.error)}` : said``;
    item.tooltip = shown(said`${t(e.method)} ${t(e.path)}\n${typed.date(e.time)}\n${t(controlText(e))}${repeat}${to}${failed}`);
    item.command = { command: 'paygate.callbacks.open', title: 'Show Callback', arguments: [e.id] };
    return item;
  }
}

/** The id a command was given: an entry's id (tests, the item's own command) or a tree node (menus). */
export function entryIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && (arg as CallbackNode).kind === 'entry') return (arg as { entry: CallbackEntry }).entry.id;
  return undefined;
}

/** A call as the results panel shows it: one row per field, header and property. Everything is masked already. */
export function entryRows(e: CallbackEntry): string[][] {
  const rows: string[][] = [
    ['id', e.id],
    ['time', e.time],
    ['request', `${e.method} ${e.path}`],
    ['control', controlText(e)],
    ['repeat', e.repeatOf ? repeatText(e) : 'no (the first call with its status, type, orderid and client_orderid)'],
    [
      'forwarded',
      e.forwarded
        ? `${e.forwarded.url ? `to ${e.forwarded.url}: ` : ''}${e.forwarded.status} in ${e.forwarded.ms} ms${e.forwarded.error ? ` (${e.forwarded.error})` : ''}`
        : 'no',
    ],
  ];
  for (const [k, v] of Object.entries(e.fields)) rows.push([`field ${k}`, v]);
  for (const [k, v] of e.headers) rows.push([`header ${k}`, v]);
  rows.push(['body', e.masked ? `${e.body} (card data masked)` : e.body]);
  return rows;
}
