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

/**
 * Reads the body up to `max` bytes. A declared Content-Length over the cap is refused before a byte is
 * read; a chunked body is counted as it arrives and the connection dropped at the cap.
 */
export function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > max) return Promise.reject(new HttpError(413, `request body larger than ${max} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new HttpError(413, `request body larger than ${max} bytes`));
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
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
