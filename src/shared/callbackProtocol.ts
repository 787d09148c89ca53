// The editor tells the language server where its callback listener listens, so that a batch's
// notify_url / server_callback_url cell offers that address as a completion. Free of `vscode` and Node.

/** Client → server notification: `{ url }` while listening (`http://127.0.0.1:PORT/`), `{ url: null }` once stopped. */
export const CALLBACK_ADDRESS_NOTIFICATION = 'paygate/callbackAddress';

export interface CallbackAddressParams {
  url: string | null;
}

/** The columns that hold a callback address. */
export const CALLBACK_COLUMNS: readonly string[] = ['notify_url', 'server_callback_url'];

/** The notify_url value offered for a listener at `url`: a path that says what calls it. */
export function notifyUrlFor(url: string): string {
  return `${url.replace(/\/+$/, '')}/paygate/notify`;
}
