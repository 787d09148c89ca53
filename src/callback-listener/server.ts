// `paygate listen`: a receiver on 127.0.0.1 for a gateway's callbacks. Every call is answered (200 "OK", or
// the forward target's answer, or a 4xx/502 saying what went wrong), masked, kept in the bounded store and
// reported to `onCall`; no input and no handler can stop it serving.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildEntry, decodeForm, isForm, type CallbackEntry } from './entry';
import { FORWARD_TIMEOUT_MS, sendToHandler } from './send';
import type { CallbackStore } from './store';

/** Callbacks are a few hundred bytes; anything past this is refused with 413. */
export const MAX_CALLBACK_BODY = 64 * 1024;
/** A sender that has not finished its body by then gets 408. */
export const BODY_TIMEOUT_MS = 10_000;

export interface ListenerOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  /** A loopback handler every call is passed on to (checked by the caller with loopbackUrl). */
  forwardTo?: string;
  /** Marks each call's control valid or invalid; a function is asked per call (the key may appear later). */
  controlKey?: string | (() => string | undefined);
  store?: CallbackStore;
  /** Each call, after it was answered and stored. */
  onCall?: (entry: CallbackEntry) => void;
  /** A call refused for bad input: one line saying why. */
  onRejected?: (line: string) => void;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  forwardTimeoutMs?: number;
}

export interface CallbackListener {
  port: number;
  /** `http://127.0.0.1:PORT/` */
  url: string;
  close(): Promise<void>;
}

export async function startCallbackListener(o: ListenerOptions = {}): Promise<CallbackListener> {
  const maxBody = o.maxBodyBytes ?? MAX_CALLBACK_BODY;
  const bodyTimeout = o.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const stopping = new AbortController();

  function reject(req: http.IncomingMessage, res: http.ServerResponse, status: number, why: string): void {
    o.onRejected?.(`${new Date().toISOString()}  ${req.method ?? '?'} ${req.url ?? '?'}  refused ${status}: ${why}`);
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`${why}\n`);
    // The rest of a huge or slow body is not read: the connection goes once the answer is out.
    res.on('finish', () => req.destroy());
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const body = raw.toString('utf8');
    if (!Buffer.from(body, 'utf8').equals(raw)) return reject(req, res, 400, 'the body is not valid UTF-8');
    let fields: Record<string, string> = {};
    if (isForm(req.headers['content-type'])) {
      const form = decodeForm(body);
      if ('malformed' in form) return reject(req, res, 400, `malformed form: ${form.malformed}`);
      fields = form;
    }
    const key = typeof o.controlKey === 'function' ? o.controlKey() : o.controlKey;
    const entry = buildEntry({ method: req.method ?? 'GET', path: req.url ?? '/', rawHeaders: req.rawHeaders, body, fields }, key);
    if (o.forwardTo === undefined) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('OK');
    } else {
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      const r = await sendToHandler(
        o.forwardTo,
        { method: entry.method, path: req.url ?? '/', headers, body: raw },
        o.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS,
        stopping.signal,
      );
      if (r.ok) {
        entry.forwarded = { status: r.status, ms: r.ms };
        const pass = r.headers.filter(
          ([k]) => !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(k.toLowerCase()),
        );
        res.writeHead(r.status, [...pass.flat(), 'content-length', String(r.body.length)]);
        res.end(r.body);
      } else {
        entry.forwarded = { status: 502, ms: r.ms, error: r.error };
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`paygate listen: ${r.error}\n`);
      }
    }
    try {
      o.store?.append(entry);
    } catch (err) {
      o.onRejected?.(`could not keep ${entry.id} in the store: ${(err as Error).message}`);
    }
    o.onCall?.(entry);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) return reject(req, res, 413, `a body of ${declared} bytes is over the ${maxBody}-byte limit`);
    const timer = setTimeout(
      () => reject(req, res, 408, `the sender did not finish its body within ${bodyTimeout} ms (${size} bytes so far)`),
      bodyTimeout,
    );
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody && !over) {
        over = true;
        clearTimeout(timer);
        reject(req, res, 413, `the body passed the ${maxBody}-byte limit`);
      } else if (!over) chunks.push(c);
    });
    req.on('error', () => clearTimeout(timer));
    req.on('close', () => clearTimeout(timer));
    req.on('end', () => {
      clearTimeout(timer);
      if (over || res.headersSent) return;
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) reject(req, res, 500, `listener fault: ${(err as Error).message}`);
      });
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    o.onRejected?.(`${new Date().toISOString()}  refused 400: a request that is not HTTP`);
  });
  server.headersTimeout = bodyTimeout;
  server.requestTimeout = 0; // the per-call timer above says what happened; Node's would answer silently

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        stopping.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
