// One HTTP call to a loopback handler (forwarding and replaying). A handler that is down, slow or cut
// short becomes an error value with the time it took, never an exception: the listener keeps serving.
//
// Each call has a connection of its own (no agent), closed once answered. Node's default agent keeps
// sockets alive and pools them even when the request says `connection: close`, if the answer does not say
// it too; an HTTP/1.1 handler such as Python's http.server then closes the socket it was told to close,
// and the next call of a burst, sent on it, is lost as "socket hang up" (a 502 for a call the handler
// never saw). A fresh loopback connection costs far less than a forward.

import * as http from 'node:http';
import { loopbackUrl, targetPath } from '../core/callbacks/loopback';
import { safeUrlPath } from '../core/output';

export const FORWARD_TIMEOUT_MS = 10_000;
/** The most of a handler's answer that is read (and passed back to the caller). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Why a call aborted by `signal` (the listener stopping) has no answer: its fate at the handler is unknown. */
export const STOPPED = 'the listener stopped before the handler answered (the handler may have received the call)';

export interface OutgoingCall {
  method: string;
  /** The received path and query: its query is added to the target's (the path is the target's, as given). */
  path: string;
  /** Raw header pairs to send (host and content-length are set for the target and the body). */
  headers: [string, string][];
  body: Buffer;
}

/** `url`: the exact URL the call went to (shown in every line, toast and JSON that speaks of it). */
export type SendResult =
  | { ok: true; url: string; status: number; headers: [string, string][]; body: Buffer; ms: number }
  | { ok: false; url: string; error: string; ms: number };

/** Headers that describe one connection, not the call: never passed on. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

export function sendToHandler(
  target: string,
  call: OutgoingCall,
  timeoutMs = FORWARD_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const t = loopbackUrl(target);
  if (!t.ok) return Promise.resolve({ ok: false, url: target, error: t.reason, ms: 0 });
  const path = targetPath(t.url, call.path);
  // As shown (through the output boundary): the URL the call went to, its query included.
  const url = `${t.url.origin}${safeUrlPath(path)}`;
  const headers: [string, string][] = call.headers.filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase()));
  headers.push(['host', t.url.host], ['content-length', String(call.body.length)], ['connection', 'close']);
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = http.request(
      {
        host: t.connectHost,
        port: t.url.port || 80,
        method: call.method,
        path,
        headers: headers.flat(),
        agent: false,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
        });
        res.on('end', () => {
          const raw = res.rawHeaders;
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
          done({ ok: true, url, status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks), ms: ms() });
        });
        res.on('error', (err) =>
          done({ ok: false, url, error: signal?.aborted ? STOPPED : `the handler's answer broke off: ${err.message}`, ms: ms() }),
        );
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal?.aborted) return done({ ok: false, url, error: STOPPED, ms: ms() });
      const why = err.code === 'ECONNREFUSED' ? `nothing is listening at ${t.url.host}` : err.message;
      done({ ok: false, url, error: `handler ${t.url.origin} unreachable: ${why}`, ms: ms() });
    });
    req.end(call.body);
  });
}
