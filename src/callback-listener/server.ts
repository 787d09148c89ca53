// `paygate listen`: a receiver on 127.0.0.1 for a gateway's callbacks. Every call is answered (200 "OK", or
// the forward target's answer, or a 4xx/5xx saying what went wrong), masked, kept in the bounded store and
// reported to `onCall`; no input and no handler can stop it serving, and stopping it answers the calls in
// flight first.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeUrlPath, terminalField } from '../core/output';
import { buildEntry, decodeForm, isForm, type CallbackEntry } from './entry';
import { InFlight } from './inFlight';
import { ForwardToSelfError, HOP_HEADER, hopsOf, isOwnAddress, newListenerId, withHop } from './loop';
import { FORWARD_TIMEOUT_MS, sendToHandler, STOPPED } from './send';
import type { CallbackStore } from './store';

/** Callbacks are a few hundred bytes; anything past this is refused with 413. */
export const MAX_CALLBACK_BODY = 64 * 1024;
/** A sender that has not finished its headers, or its body, by then gets 408. */
export const BODY_TIMEOUT_MS = 10_000;
/** Stopping waits this long for calls in flight (a forward included) to be answered; any left get 503. */
export const DRAIN_MS = 5_000;
/** After the drain, how long the 503s of the calls left get to go out before the connections are cut. */
const LAST_ANSWERS_MS = 1_000;

export interface ListenerOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  /** A loopback handler every call is passed on to (checked by the caller with loopbackUrl); never the listener itself. */
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
  drainMs?: number;
}

export interface CallbackListener {
  port: number;
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** This listener's id in the hop header of the calls it forwards. */
  id: string;
  /** Stops taking calls, answers those in flight (waiting at most the drain time), then closes. */
  close(): Promise<void>;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

export async function startCallbackListener(o: ListenerOptions = {}): Promise<CallbackListener> {
  const maxBody = o.maxBodyBytes ?? MAX_CALLBACK_BODY;
  const bodyTimeout = o.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const id = newListenerId();
  const stopping = new AbortController();
  const inFlight = new InFlight();
  const forwarding = new Set<http.ServerResponse>();
  let closing: Promise<void> | undefined;

  const refusedLine = (what: string, status: number, why: string) =>
    `${new Date().toISOString()}  ${what}refused ${status}: ${terminalField(why)}`;

  function reject(req: http.IncomingMessage, res: http.ServerResponse, status: number, why: string): void {
    o.onRejected?.(refusedLine(`${terminalField(req.method ?? '?')} ${terminalField(safeUrlPath(req.url ?? '?'))}  `, status, why));
    if (!res.headersSent) res.writeHead(status, { ...TEXT, connection: 'close' });
    res.end(`${why}\n`);
    // The rest of a huge or slow body is not read: the connection goes once the answer is out.
    res.on('finish', () => req.destroy());
  }

  /** Passes the call on; the caller gets the handler's answer, 502 when it has none, 503 when the listener stopped first. */
  async function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    entry: CallbackEntry,
    raw: Buffer,
    to: string,
  ): Promise<void> {
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    forwarding.add(res);
    const r = await sendToHandler(
      to,
      { method: entry.method, path: req.url ?? '/', headers: withHop(headers, hopsOf(req.headers), id), body: raw },
      o.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS,
      stopping.signal,
    );
    forwarding.delete(res);
    if (r.ok) {
      entry.forwarded = { status: r.status, ms: r.ms };
      const pass = r.headers.filter(
        ([k]) => !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(k.toLowerCase()),
      );
      res.writeHead(r.status, [...pass.flat(), 'content-length', String(r.body.length)]);
      res.end(r.body);
    } else {
      const status = r.error === STOPPED ? 503 : 502;
      entry.forwarded = { status, ms: r.ms, error: r.error };
      res.writeHead(status, TEXT);
      res.end(`paygate listen: ${r.error}\n`);
    }
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
      res.writeHead(200, TEXT);
      res.end('OK');
    } else await forward(req, res, entry, raw, o.forwardTo);
    try {
      o.store?.append(entry);
    } catch (err) {
      o.onRejected?.(`could not keep ${entry.id} in the store: ${terminalField((err as Error).message)}`);
    }
    o.onCall?.(entry);
  }

  /** Reads the body (bounded in size and time), then handles the call. */
  function receive(req: http.IncomingMessage, res: http.ServerResponse): void {
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
  }

  // Node checks the headers' deadline on this interval (30 s by default): a stall is answered close to it.
  const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, bodyTimeout) }, (req, res) => {
    inFlight.add(req, res);
    if (closing) return reject(req, res, 503, 'the listener is stopping');
    const hops = hopsOf(req.headers);
    if (hops.includes(id)) {
      return reject(
        req,
        res,
        508,
        `this call was already forwarded by this listener (${HOP_HEADER}: ${hops.join(', ')}): forwarding it again would loop`,
      );
    }
    receive(req, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const stalled = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const [status, title, why] = stalled
      ? [408, 'Request Timeout', `the sender did not finish its request headers within ${bodyTimeout} ms`]
      : [400, 'Bad Request', 'a request that is not HTTP'];
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 ${status} ${title}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${why.length + 1}\r\nconnection: close\r\n\r\n${why}\n`,
      );
    }
    o.onRejected?.(refusedLine('', status, why));
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
  if (o.forwardTo !== undefined && isOwnAddress(o.forwardTo, port)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw new ForwardToSelfError(o.forwardTo, port);
  }

  /** Stop taking calls; answer those in flight, waiting at most the drain time; then 503 for any left; then close. */
  async function drainAndClose(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const [, res] of inFlight.unanswered()) res.shouldKeepAlive = false;
    await inFlight.drained(o.drainMs ?? DRAIN_MS);
    stopping.abort(); // a forward still waiting is answered 503 (STOPPED) by forward()
    for (const [req, res] of inFlight.unanswered())
      if (!forwarding.has(res)) reject(req, res, 503, 'the listener stopped before the call was answered');
    await inFlight.drained(LAST_ANSWERS_MS);
    server.closeAllConnections();
    await closed;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    id,
    close: () => (closing ??= drainAndClose()),
  };
}
