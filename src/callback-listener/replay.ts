// Sending a kept call again. The store holds what was received, byte for byte, whenever the call held no
// card data — a gateway's callbacks never do (core/callbacks). A call that did was kept masked, and its
// replay sends the masked body: `masked` says so, and nothing unmasked ever had to be kept at rest.

import { REDACTED, type CallbackEntry } from './entry';
import { FORWARD_TIMEOUT_MS, sendToHandler, type SendResult } from './send';

export function replayEntry(entry: CallbackEntry, to: string, timeoutMs = FORWARD_TIMEOUT_MS): Promise<SendResult & { masked: boolean }> {
  const headers = entry.headers.filter(([, v]) => v !== REDACTED);
  return sendToHandler(to, { method: entry.method, path: entry.path, headers, body: Buffer.from(entry.body, 'utf8') }, timeoutMs).then(
    (r) => ({
      ...r,
      masked: entry.masked,
    }),
  );
}
