// `paygate listen`: a receiver on 127.0.0.1 for a gateway's callbacks. Every call is answered (200 "OK", or
// the forward target's answer, or a 4xx/5xx saying what went wrong), masked, kept in the bounded store and
// reported to `onCall`; no input and no handler can stop it serving, and stopping it answers the calls in
// flight first.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
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
  const listener = new Listener(o);
  const port = await listener.listen();
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    id: listener.id,
    close: () => listener.close(),
  };
}

const refusedLine = (what: string, status: number, why: string) =>
  `${new Date().toISOString()}  ${what}refused ${status}: ${terminalField(why)}`;

/** One listener's state and its steps: a call is checked (onRequest), read (receive), answered or forwarded (handle). */
class Listener {
  readonly id = newListenerId();
  private readonly maxBody: number;
  private readonly bodyTimeout: number;
  private readonly stopping = new AbortController();
  private readonly inFlight = new InFlight();
  private readonly forwarding = new Set<http.ServerResponse>();
  private closing: Promise<void> | undefined;
  private readonly server: http.Server;

  constructor(private readonly o: ListenerOptions) {
    this.maxBody = o.maxBodyBytes ?? MAX_CALLBACK_BODY;
    this.bodyTimeout = o.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    // Node checks the headers' deadline on this interval (30 s by default): a stall is answered close to it.
    this.server = http.createServer({ connectionsCheckingInterval: Math.min(1000, this.bodyTimeout) }, (req, res) =>
      this.onRequest(req, res),
    );
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket) => this.onClientError(err, socket));
    this.server.headersTimeout = this.bodyTimeout;
    this.server.requestTimeout = 0; // the per-call timer in receive() says what happened; Node's would answer silently
  }

  /** Listens on 127.0.0.1 and returns the port; refuses a forward target that is this listener. */
  async listen(): Promise<number> {
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    if (this.o.forwardTo !== undefined && isOwnAddress(this.o.forwardTo, port)) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw new ForwardToSelfError(this.o.forwardTo, port);
    }
    return port;
  }

  close(): Promise<void> {
    return (this.closing ??= this.drainAndClose());
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.inFlight.add(req, res);
    if (this.closing) return this.reject(req, res, 503, 'the listener is stopping');
    const hops = hopsOf(req.headers);
    if (hops.includes(this.id)) {
      return this.reject(
        req,
        res,
        508,
        `this call was already forwarded by this listener (${HOP_HEADER}: ${hops.join(', ')}): forwarding it again would loop`,
      );
    }
    this.receive(req, res);
  }

  private onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
    const stalled = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const [status, title, why] = stalled
      ? [408, 'Request Timeout', `the sender did not finish its request headers within ${this.bodyTimeout} ms`]
      : [400, 'Bad Request', 'a request that is not HTTP'];
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 ${status} ${title}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${why.length + 1}\r\nconnection: close\r\n\r\n${why}\n`,
      );
    }
    this.o.onRejected?.(refusedLine('', status, why));
  }

  private reject(req: http.IncomingMessage, res: http.ServerResponse, status: number, why: string): void {
    this.o.onRejected?.(refusedLine(`${terminalField(req.method ?? '?')} ${terminalField(safeUrlPath(req.url ?? '?'))}  `, status, why));
    if (!res.headersSent) res.writeHead(status, { ...TEXT, connection: 'close' });
    res.end(`${why}\n`);
    // The rest of a huge or slow body is not read: the connection goes once the answer is out.
    res.on('finish', () => req.destroy());
  }

  /** Reads the body (bounded in size and time), then handles the call. */
  private receive(req: http.IncomingMessage, res: http.ServerResponse): void {
    const { maxBody, bodyTimeout } = this;
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) return this.reject(req, res, 413, `a body of ${declared} bytes is over the ${maxBody}-byte limit`);
    const timer = setTimeout(
      () => this.reject(req, res, 408, `the sender did not finish its body within ${bodyTimeout} ms (${size} bytes so far)`),
      bodyTimeout,
    );
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody && !over) {
        over = true;
        clearTimeout(timer);
        this.reject(req, res, 413, `the body passed the ${maxBody}-byte limit`);
      } else if (!over) chunks.push(c);
    });
    req.on('error', () => clearTimeout(timer));
    req.on('close', () => clearTimeout(timer));
    req.on('end', () => {
      clearTimeout(timer);
      if (over || res.headersSent) return;
      this.handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) this.reject(req, res, 500, `listener fault: ${(err as Error).message}`);
      });
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const o = this.o;
    const body = raw.toString('utf8');
    if (!Buffer.from(body, 'utf8').equals(raw)) return this.reject(req, res, 400, 'the body is not valid UTF-8');
    // The gateway sends its fields in the query string of a GET; a form body (the POST variant) adds its
    // own, and a field in both is one field, the body's value (docs/callbacks.md, "What the listener reads").
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const query = decodeForm(q < 0 ? '' : url.slice(q + 1));
    if ('malformed' in query) return this.reject(req, res, 400, `malformed query string: ${query.malformed}`);
    let fields: Record<string, string> = query;
    if (isForm(req.headers['content-type'])) {
      const form = decodeForm(body);
      if ('malformed' in form) return this.reject(req, res, 400, `malformed form: ${form.malformed}`);
      fields = { ...query, ...form };
    }
    const key = typeof o.controlKey === 'function' ? o.controlKey() : o.controlKey;
    const entry = buildEntry({ method: req.method ?? 'GET', path: req.url ?? '/', rawHeaders: req.rawHeaders, body, fields }, key);
    if (o.forwardTo === undefined) {
      res.writeHead(200, TEXT);
      res.end('OK');
    } else await this.forward(req, res, entry, raw, o.forwardTo);
    try {
      o.store?.append(entry);
    } catch (err) {
      o.onRejected?.(`could not keep ${entry.id} in the store: ${terminalField((err as Error).message)}`);
    }
    o.onCall?.(entry);
  }

  /** Passes the call on; the caller gets the handler's answer, 502 when it has none, 503 when the listener stopped first. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse, entry: CallbackEntry, raw: Buffer, to: string): Promise<void> {
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    this.forwarding.add(res);
    const r = await sendToHandler(
      to,
      { method: entry.method, path: req.url ?? '/', headers: withHop(headers, hopsOf(req.headers), this.id), body: raw },
      this.o.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS,
      this.stopping.signal,
    );
    this.forwarding.delete(res);
    if (r.ok) {
      entry.forwarded = { url: r.url, status: r.status, ms: r.ms };
      const pass = r.headers.filter(
        ([k]) => !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(k.toLowerCase()),
      );
      res.writeHead(r.status, [...pass.flat(), 'content-length', String(r.body.length)]);
      res.end(r.body);
    } else {
      const status = r.error === STOPPED ? 503 : 502;
      entry.forwarded = { url: r.url, status, ms: r.ms, error: r.error };
      res.writeHead(status, TEXT);
      res.end(`paygate listen: ${r.error}\n`);
    }
  }

  /** Stop taking calls; answer those in flight, waiting at most the drain time; then 503 for any left; then close. */
  private async drainAndClose(): Promise<void> {
    const { server, inFlight } = this;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const [, res] of inFlight.unanswered()) res.shouldKeepAlive = false;
    await inFlight.drained(this.o.drainMs ?? DRAIN_MS);
    this.stopping.abort(); // a forward still waiting is answered 503 (STOPPED) by forward()
    for (const [req, res] of inFlight.unanswered())
      if (!this.forwarding.has(res)) this.reject(req, res, 503, 'the listener stopped before the call was answered');
    await inFlight.drained(LAST_ANSWERS_MS);
    server.closeAllConnections();
    await closed;
  }
}
