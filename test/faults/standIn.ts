import { createHash } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { parseCsv } from '../../src/core/csv/parse';
import { gatewayOrderId } from '../../src/core/orderId';

// A scripted stand-in for the gateway on 127.0.0.1. Each request takes the next fault of the plan (then
// 'ok'). It keeps its own count, by body hash and by row (client-orderid), of the requests it received
// whole and may have acted on (created payments): the fault suite's proof that no batch, and no row of
// any batch, was created twice.

export type Fault =
  | 'ok'
  | 'ok-gzip'
  | 'slow-ok'
  | 'typed-500-success'
  | 'typed-500-error'
  | 'typed-503-error'
  | 'proxy-502-empty'
  | 'proxy-504-html'
  | 'proxy-503-text'
  | 'html-500'
  | 'reset-before'
  | 'reset-after'
  | 'trickle'
  | 'truncate'
  // Answers docs/submissions.md names beside the ones above: no answer at all, the gateway's documented 500
  // (an error ID, no type), an answer past the client's 1 MiB cap, a body its Content-Encoding does not
  // decode, and the other two encodings.
  | 'silent'
  | 'untyped-500-error-id'
  | 'over-1mib'
  | 'bad-gzip'
  | 'ok-deflate'
  | 'ok-br'
  // HTTP 413 from a proxy in front of the gateway, after it read the request: nothing reached the gateway.
  | 'too-large-413-text'
  | 'too-large-413-html';

/** Faults after which the gateway behind may have created the payments (it received the whole request). */
export const MAY_HAVE_ACTED = (f: Fault) =>
  f !== 'reset-before' &&
  f !== 'typed-500-error' &&
  f !== 'typed-503-error' &&
  f !== 'untyped-500-error-id' &&
  f !== 'too-large-413-text' &&
  f !== 'too-large-413-html';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const SUCCESS = 'type=create-recurring-payment-response&status=active&recurring-payment-id=1&serial-number=s-1';

export class StandIn {
  plan: Fault[] = [];
  /** Requests received whole that may have created payments, by SHA-256 of the body. */
  readonly acted = new Map<string, number>();
  readonly received = new Map<string, number>();
  /** Rows of the requests that may have created payments, by client-orderid. */
  readonly rowsCreated = new Map<string, number>();
  /** Bodies a trial sends again on purpose (--allow-resend): their rows are counted once. */
  readonly resendAllowed = new Set<string>();
  /**
   * Rows of the requests that may have created payments, by card number: the payer. Every batch of the
   * suite gives its rows cards of their own (test/fixtures/ledger/payers.ts), so a card created twice is a
   * payer charged twice, under whatever id.
   */
  readonly payersCreated = new Map<string, number>();
  /** Bodies a trial sends on purpose with --allow-same-payer: their payers are not counted again. */
  readonly samePayerAllowed = new Set<string>();
  /** Emits 'request' as each request arrives (before it is read): a trial times a kill by it. */
  readonly events = new EventEmitter();
  private server!: http.Server;
  private readonly open = new Set<http.ServerResponse>();
  origin = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const r of this.open) r.socket?.destroy();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  count(hash: string): number {
    return this.acted.get(hash) ?? 0;
  }

  /** The client-orderids created more than once, with their counts. */
  doubleRows(): [string, number][] {
    return [...this.rowsCreated].filter(([, n]) => n > 1);
  }

  /** The cards (payers) created more than once, with their counts (masked: first 6, last 4). */
  doublePayers(): [string, number][] {
    return [...this.payersCreated].filter(([, n]) => n > 1).map(([card, n]) => [`${card.slice(0, 6)}…${card.slice(-4)}`, n]);
  }

  /** Counts the rows of a request body (`payload=` Base64 of the CSV) the gateway may have acted on. */
  private countRows(body: Buffer, payers: boolean): void {
    const payload = new URLSearchParams(body.toString('utf8')).get('payload') ?? '';
    const csv = parseCsv(Buffer.from(payload, 'base64').toString('utf8'));
    const header = csv.record(0).values;
    const at = header.indexOf('client-orderid');
    const cardAt = header.indexOf('credit-card-number');
    for (let r = 1; r < csv.recordCount; r++) {
      if (csv.isBlankAt(r)) continue;
      const values = csv.record(r).values;
      const id = at < 0 ? undefined : values[at];
      // Counted by the id as the gateway reads it (trimmed, invisible characters removed, NFC).
      const read = id === undefined ? '' : gatewayOrderId(id);
      if (/^[\p{L}\p{N}-]+$/u.test(read)) this.rowsCreated.set(read, (this.rowsCreated.get(read) ?? 0) + 1);
      const card = cardAt < 0 ? undefined : values[cardAt];
      if (payers && card) this.payersCreated.set(card, (this.payersCreated.get(card) ?? 0) + 1);
    }
  }

  private readonly arrivals: { hash: string; arrived(): void }[] = [];

  /** Resolves once a request with this body hash has been received whole. */
  arrived(hash: string): Promise<void> {
    if (this.received.has(hash)) return Promise.resolve();
    return new Promise((arrived) => this.arrivals.push({ hash, arrived }));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const fault = this.plan.shift() ?? 'ok';
    this.events.emit('request');
    if (fault === 'reset-before') {
      // The connection dies before the gateway has the whole request: nothing can have been created.
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hash = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
      this.received.set(hash, (this.received.get(hash) ?? 0) + 1);
      if (MAY_HAVE_ACTED(fault)) {
        const times = (this.acted.get(hash) ?? 0) + 1;
        this.acted.set(hash, times);
        if (times === 1 || !this.resendAllowed.has(hash)) this.countRows(Buffer.concat(chunks), !this.samePayerAllowed.has(hash));
      }
      for (const a of this.arrivals.filter((x) => x.hash === hash)) a.arrived();
      this.answer(fault, res);
    });
  }

  private answer(fault: Fault, res: http.ServerResponse): void {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    switch (fault) {
      case 'ok':
        return void res.writeHead(200, FORM).end(SUCCESS);
      case 'ok-gzip':
        return void res.writeHead(200, { ...FORM, 'Content-Encoding': 'gzip' }).end(zlib.gzipSync(SUCCESS));
      case 'slow-ok': {
        const t = setTimeout(() => res.writeHead(200, FORM).end(SUCCESS), 400);
        res.on('close', () => clearTimeout(t));
        return;
      }
      case 'typed-500-success':
        return void res.writeHead(500, FORM).end(SUCCESS);
      case 'typed-500-error':
        return void res.writeHead(500, FORM).end('type=error&error-message=Internal+error&error-id=e-1');
      case 'typed-503-error':
        return void res.writeHead(503, FORM).end('type=error&error-message=Maintenance');
      case 'proxy-502-empty':
        return void res.writeHead(502).end();
      case 'proxy-504-html':
        return void res
          .writeHead(504, { 'Content-Type': 'text/html' })
          .end('<html><head><title>504 Gateway Time-out</title></head><body><center>nginx</center></body></html>');
      case 'proxy-503-text':
        return void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('Service Unavailable');
      case 'html-500':
        return void res.writeHead(500, { 'Content-Type': 'text/html' }).end('<html><body>Internal Server Error</body></html>');
      case 'reset-after':
        return void res.socket?.destroy();
      case 'trickle': {
        // One byte every 200 ms, past the client's deadline; stopped when the client gives up.
        res.writeHead(200, { ...FORM, 'Content-Length': String(SUCCESS.length) });
        let i = 0;
        const t = setInterval(() => (i < SUCCESS.length ? res.write(SUCCESS[i++]) : clearInterval(t)), 200);
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'truncate':
        res.writeHead(200, { ...FORM, 'Content-Length': String(SUCCESS.length) });
        res.write(SUCCESS.slice(0, 10));
        return void setImmediate(() => res.socket?.destroy());
      case 'silent':
        // The request was read whole; no byte of an answer comes (the client's deadline ends it).
        return;
      case 'untyped-500-error-id':
        return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error. Error ID: e-2');
      case 'over-1mib':
        // A whole, well-formed success, but longer than any create answer may be.
        return void res.writeHead(200, FORM).end(`${SUCCESS}&padding=${'x'.repeat(1024 * 1024 + 1)}`);
      case 'bad-gzip':
        return void res.writeHead(200, { ...FORM, 'Content-Encoding': 'gzip' }).end(SUCCESS);
      case 'ok-deflate':
        return void res.writeHead(200, { ...FORM, 'Content-Encoding': 'deflate' }).end(zlib.deflateSync(SUCCESS));
      case 'ok-br':
        return void res.writeHead(200, { ...FORM, 'Content-Encoding': 'br' }).end(zlib.brotliCompressSync(SUCCESS));
      case 'too-large-413-text':
        return void res.writeHead(413, { 'Content-Type': 'text/plain' }).end('Request body too large');
      case 'too-large-413-html':
        return void res
          .writeHead(413, { 'Content-Type': 'text/html', Connection: 'close' })
          .end('<html><head><title>413 Request Entity Too Large</title></head><body><center>nginx</center></body></html>');
    }
  }
}
