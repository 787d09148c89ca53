import { CompletionItemKind, InsertReplaceEdit, TextEdit, type CompletionItem, type Range } from 'vscode-languageserver';
import { notifyUrlFor, type CallbackAddressParams } from '../shared/callbackProtocol';

// Where the editor's callback listener listens (paygate/callbackAddress), offered in a notify_url or
// server_callback_url cell. One value per server: the server serves one editor.

let listening: string | undefined;

export function setCallbackAddress(p: CallbackAddressParams | undefined): void {
  const url = p?.url;
  listening = typeof url === 'string' && /^http:\/\/127\.0\.0\.1:\d+\/?$/.test(url) ? url : undefined;
}

/** The listening address as a completion, or none while the editor is not listening. */
export function callbackAddressItems(range: { insert: Range; replace: Range }, insertReplace: boolean): CompletionItem[] | null {
  if (listening === undefined) return null;
  const value = notifyUrlFor(listening);
  return [
    {
      label: value,
      kind: CompletionItemKind.Value,
      detail: 'PayGate Callbacks: the address the editor listens on',
      documentation: 'Callbacks sent here appear in the PayGate Callbacks view (local gateway: each charge calls it).',
      textEdit: insertReplace ? InsertReplaceEdit.create(value, range.insert, range.replace) : TextEdit.replace(range.replace, value),
      sortText: '0',
    },
  ];
}
