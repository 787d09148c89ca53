// Small HTTP helpers of the local gateway: bounded body reading and plain answers.

import type * as http from 'node:http';

/** The largest request body the local gateway reads (documented): about 45,000 rows of a typical batch, Base64-encoded. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Admin requests carry no meaningful body. */
export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A body over the maximum, read to its end and discarded: its size and the maximum. */
export class BodyTooLarge extends HttpError {
  constructor(
    readonly size: number,
    readonly max: number,
  ) {
    super(413, `request body of ${size} bytes is larger than the maximum of ${max} bytes`);
  }
}

/**
 * Reads the body, keeping up to `max` bytes. A body over it (by its Content-Length or as it arrives,
 * chunked) is read to its end and discarded, then refused (BodyTooLarge): the connection is never closed
 * while the client is still writing, so the client reads the answer instead of losing its connection
 * (EPIPE) and calling the outcome unknown. Only loopback clients reach it, and Node's request timeout
 * bounds how long one may write.
 */
export function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
      else chunks = [];
    });
    req.on('end', () => (size > max ? reject(new BodyTooLarge(size, max)) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

/**
 * Answers and, when the body was not (entirely) read, closes the connection after the answer, so a
 * refused upload is not read to its end just to keep the connection alive.
 */
export function send(
  res: http.ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  extra: Record<string, string> = {},
  close = false,
): void {
  const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...extra };
  if (contentType) headers['content-type'] = contentType;
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(body); // with `connection: close` Node closes the socket once the answer is out
}

export const sendJson = (res: http.ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`);
