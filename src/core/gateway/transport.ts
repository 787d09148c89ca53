import type { GatewayOutcome, HttpAnswer } from './outcome';

// Node's global fetch (undici): no dependency, AbortSignal-native timeouts, and the same code runs in the
// CLI and in VS Code's extension host. Redirects are not followed, so a POST is never silently re-sent.

export type TransportError = Extract<GatewayOutcome, { outcome: 'transport-error' }>;

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|ERR_OSSL_|HOSTNAME_MISMATCH)/;
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT']);

function errorChain(err: unknown): { name?: string; code?: string; message?: string }[] {
  const out: { name?: string; code?: string; message?: string }[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 20) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object') continue;
    const x = e as { name?: string; code?: string; message?: string; cause?: unknown; errors?: unknown[] };
    out.push({ name: x.name, code: x.code, message: x.message });
    if (x.cause !== undefined) queue.push(x.cause);
    if (Array.isArray(x.errors)) queue.push(...x.errors);
  }
  return out;
}

/** Maps what fetch threw to refused / timeout / tls / other, with a message that names the host only. */
export function classifyTransportError(err: unknown, url: string, timeoutMs: number, cancelled: boolean): TransportError {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    /* keep the text */
  }
  const chain = errorChain(err);
  if (cancelled) return { outcome: 'transport-error', kind: 'other', message: `Request to ${host} cancelled` };
  if (chain.some((e) => e.name === 'TimeoutError' || (e.code !== undefined && TIMEOUT_CODES.has(e.code)))) {
    return { outcome: 'transport-error', kind: 'timeout', message: `No answer from ${host} within ${Math.round(timeoutMs / 1000)} s` };
  }
  if (chain.some((e) => e.code === 'ECONNREFUSED')) {
    return { outcome: 'transport-error', kind: 'refused', message: `Connection refused by ${host}` };
  }
  const tls = chain.find((e) => (e.code !== undefined && TLS_CODES.test(e.code)) || /\b(SSL|TLS|certificate)\b/i.test(e.message ?? ''));
  if (tls) return { outcome: 'transport-error', kind: 'tls', message: `TLS failure with ${host}: ${tls.code ?? tls.message}` };
  const detail = chain.find((e) => e.code !== undefined) ?? chain[chain.length - 1];
  return { outcome: 'transport-error', kind: 'other', message: `Request to ${host} failed: ${detail?.code ?? detail?.message ?? String(err)}` };
}

export async function postOnce(
  request: { url: string; headers: Record<string, string>; body: string },
  o: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ ok: true; answer: HttpAnswer } | { ok: false; error: TransportError }> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
  try {
    // The body is read under the same signal, so the timeout covers the whole exchange.
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', signal });
    const body = new Uint8Array(await response.arrayBuffer());
    return { ok: true, answer: { status: response.status, contentType: response.headers.get('content-type') ?? '', body } };
  } catch (err) {
    return { ok: false, error: classifyTransportError(err, request.url, o.timeoutMs, o.signal?.aborted === true && !timeout.aborted) };
  }
}
