import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as zlib from 'node:zlib';
import type { HttpAnswer } from './outcome';
import { classifyTransportError, type TransportError } from './transportErrors';

// node:http(s) rather than fetch, because the create operation must know one thing fetch hides: whether
// the request may have reached the gateway. Until the connection is open (TCP, and TLS for https) and the
// whole request handed to the operating system, the gateway cannot hold a whole request and a failure is a
// transport error (nothing was sent); from then on a failure leaves the request's fate unknown.
// One deadline covers the whole exchange (connect, write, headers, every body byte), answers are read up
// to a cap, a fresh connection is used per request (no keep-alive socket that may already be closed) and
// redirects are not followed, so a POST is never silently re-sent.

/** Why an exchange that had started (the request may have arrived) did not bring a whole answer. */
export type AfterSendFailure = 'timeout' | 'connection-lost' | 'truncated' | 'cancelled';

export type PostResult =
  | { ok: true; answer: StreamedAnswer }
  | { ok: false; sent: false; error: TransportError }
  | { ok: false; sent: true; kind: AfterSendFailure; message: string; status?: number };

export interface PostOptions {
  /** The whole exchange, first byte to last. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Answers longer than this are cut off (reported as truncated). */
  maxAnswerBytes: number;
  /** Receives every chunk of the answer's body as it arrives (a report streamed to its file). */
  onChunk?: (chunk: Buffer) => void;
  /** With onChunk: how many leading bytes to keep in memory for telling the answer (default all). */
  keepBytes?: number;
  /** Told the answer's status and Content-Type once its headers came, before its first chunk. */
  onAnswer?: (status: number, contentType: string) => void;
  /**
   * Told how many bytes of the request the connection has taken (headers included) of about how many,
   * a few times a second while it is written, and once when it all was: a large batch's send is seen to
   * move. Read from the socket; the request is written as it is without it.
   */
  onSent?: (sent: number, total: number) => void;
}

/** How often the bytes sent are told while a request is written. */
const SENT_EVERY_MS = 250;

/** An answer whose body went to onChunk: `body` is its first keepBytes bytes, `length` the whole. */
export interface StreamedAnswer extends HttpAnswer {
  length: number;
}

export const MiB = 1024 * 1024;

/** gzip, deflate (zlib or gzip framed) and br answers are decoded; anything else is read as it came. */
function decoderFor(header: string | string[] | undefined): zlib.Gunzip | zlib.Unzip | zlib.BrotliDecompress | undefined {
  const coding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') return zlib.createUnzip();
  if (coding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

/** The answer's headers by lower-case name (Node lower-cases them), a repeated one joined with ", ". */
function headersOf(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headersDistinct)) if (value !== undefined) out[name] = value.join(', ');
  return out;
}

function deadlineError(): Error {
  return Object.assign(new Error('deadline'), { code: 'PAYGATE_DEADLINE' });
}

/** POSTs once. Never retried; see PostResult for what a failure means. */
export function postOnce(request: PostRequest, o: PostOptions): Promise<PostResult> {
  if (o.signal?.aborted) {
    return Promise.resolve({
      ok: false,
      sent: false,
      error: classifyTransportError(new Error('cancelled'), request.url, o.timeoutMs, true),
    });
  }
  return new Promise<PostResult>((resolve) => new Exchange(request, o, resolve).start());
}

interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One POST and its answer: what has happened so far decides what a failure means (see PostResult). */
class Exchange {
  private readonly url: URL;
  private readonly host: string;
  private connected = false;
  /** The whole request was handed to the operating system: from then on the gateway may act on it. */
  private written = false;
  private settled = false;
  private status: number | undefined;
  private reason: 'deadline' | 'cancelled' | 'too-large' | undefined;
  private req!: http.ClientRequest;
  private timer: NodeJS.Timeout | undefined;
  private sentTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => {
    this.reason ??= 'cancelled';
    this.req.destroy(Object.assign(new Error('cancelled'), { code: 'ABORT_ERR' }));
  };

  constructor(
    private readonly request: PostRequest,
    private readonly o: PostOptions,
    private readonly resolve: (result: PostResult) => void,
  ) {
    this.url = new URL(request.url);
    this.host = this.url.host;
  }

  /** Sends the request under the one deadline and the caller's signal. */
  start(): void {
    const body = Buffer.from(this.request.body, 'utf8');
    const transport = this.url.protocol === 'https:' ? https : http;
    const req = (this.req = transport.request(this.url, {
      method: 'POST',
      headers: { ...this.request.headers, 'Content-Length': String(body.length) },
      agent: false,
    }));
    this.timer = setTimeout(() => {
      this.reason ??= 'deadline';
      req.destroy(deadlineError());
    }, this.o.timeoutMs);
    this.o.signal?.addEventListener('abort', this.onAbort, { once: true });
    req.on('socket', (socket) => this.watchConnection(socket));
    const onSent = this.o.onSent;
    // About the whole request: the body and the headers as written (the socket counts both).
    const total = body.length + Object.entries(req.getHeaders()).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 64);
    if (onSent)
      this.sentTimer = setInterval(() => {
        const sent = req.socket?.bytesWritten ?? 0;
        onSent(Math.min(sent, total), total);
      }, SENT_EVERY_MS);
    req.on('finish', () => {
      this.written = true;
      clearInterval(this.sentTimer);
      onSent?.(total, total);
    });
    req.on('error', (err) => this.failed(err));
    req.on('response', (res) => this.read(res));
    req.end(body);
  }

  private finish(result: PostResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    clearInterval(this.sentTimer);
    this.o.signal?.removeEventListener('abort', this.onAbort);
    this.resolve(result);
  }

  /** From the moment the connection is open (TLS included), bytes of the request may reach the gateway. */
  private watchConnection(socket: Socket): void {
    const open = () => {
      this.connected = true;
    };
    const tls = this.url.protocol === 'https:';
    if (!socket.connecting && (!tls || (socket as { encrypted?: boolean }).encrypted)) open();
    else socket.once(tls ? 'secureConnect' : 'connect', open);
  }

  private afterSend(kind: AfterSendFailure, message: string): void {
    const status = this.status;
    this.finish({ ok: false, sent: true, kind, message, ...(status !== undefined ? { status } : {}) });
  }

  private failed(err: unknown): void {
    const { host, reason, o } = this;
    // Before the last byte left, the gateway cannot have a whole request to act on: nothing was sent.
    if (!this.connected || (!this.written && this.status === undefined)) {
      this.finish({
        ok: false,
        sent: false,
        error: classifyTransportError(reason === 'deadline' ? deadlineError() : err, this.request.url, o.timeoutMs, reason === 'cancelled'),
      });
      return;
    }
    const code = (err as { code?: string } | undefined)?.code;
    if (reason === 'deadline')
      this.afterSend('timeout', `No complete answer from ${host} within ${Math.round(o.timeoutMs / 1000)} s after the request was sent`);
    else if (reason === 'cancelled') this.afterSend('cancelled', `Cancelled after the request was sent to ${host}`);
    else if (reason === 'too-large')
      this.afterSend('truncated', `The answer from ${host} exceeded ${o.maxAnswerBytes} bytes and was cut off`);
    else if (this.status !== undefined) this.afterSend('truncated', `The answer from ${host} was cut off (${code ?? 'connection closed'})`);
    else this.afterSend('connection-lost', `The connection to ${host} was lost after the request was sent (${code ?? 'closed'})`);
  }

  /** Reads the answer: decoded, capped, kept up to keepBytes, each chunk to onChunk. */
  private read(res: http.IncomingMessage): void {
    const { o, req } = this;
    this.status = res.statusCode ?? 0;
    const chunks: Buffer[] = [];
    let length = 0;
    let ended = false;
    let received = false;
    const keep = o.keepBytes ?? Infinity;
    let kept = 0;
    // A compressed answer (either operation) is read as its decoded bytes, and the cap counts those, so
    // a small bomb cannot grow past it. A body that does not decode is a cut-off answer.
    const decoder = decoderFor(res.headers['content-encoding']);
    const source = decoder ? res.pipe(decoder) : res;
    const ct = res.headers['content-type'];
    const contentType = Array.isArray(ct) ? ct.join(', ') : (ct ?? '');
    o.onAnswer?.(this.status, contentType);
    source.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > o.maxAnswerBytes) {
        this.reason ??= 'too-large';
        req.destroy(new Error('too large'));
        return;
      }
      if (kept < keep) {
        const part = kept + chunk.length <= keep ? chunk : chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
      try {
        o.onChunk?.(chunk);
      } catch (err) {
        req.destroy(err as Error);
      }
    });
    source.on('end', () => {
      ended = true;
      this.finish({
        ok: true,
        answer: {
          status: this.status ?? 0,
          contentType,
          headers: headersOf(res),
          body: new Uint8Array(Buffer.concat(chunks)),
          length,
        },
      });
    });
    res.on('end', () => {
      received = true;
    });
    res.on('error', (err) => this.failed(err));
    decoder?.on('error', (err) => {
      req.destroy();
      this.failed(err);
    });
    res.on('close', () => {
      if (!ended && !received) this.failed(Object.assign(new Error('closed'), { code: 'ECONNRESET' }));
    });
  }
}
