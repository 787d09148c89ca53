import type { GatewayOutcome } from './outcome';

// A request that failed before anything reached the gateway (transport.ts decides when that is), told by
// kind: refused, timeout, TLS, or other (DNS among them), in words that name the host and never the path.

export type TransportError = Extract<GatewayOutcome, { outcome: 'transport-error' }>;

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|ERR_OSSL_|HOSTNAME_MISMATCH)/;
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ESOCKETTIMEDOUT',
  'PAYGATE_DEADLINE',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);

function errorChain(err: unknown): { name?: string; code?: string; message?: string }[] {
  const out: { name?: string; code?: string; message?: string }[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 20) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object') continue;
    const x = e as { name?: string; code?: string; message?: string; cause?: unknown; errors?: unknown[] };
    out.push({ name: x.name, code: x.code, message: x.message });
    if (x.cause !== undefined) queue.push(x.cause);
    if (Array.isArray(x.errors)) for (const inner of x.errors) queue.push(inner);
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the gateway';
  }
}

/** A failure before anything left: refused / timeout / tls / other, with a message naming the host only. */
export function classifyTransportError(err: unknown, url: string, timeoutMs: number, cancelled: boolean): TransportError {
  const host = hostOf(url);
  const chain = errorChain(err);
  if (cancelled) return { outcome: 'transport-error', kind: 'other', message: `Request to ${host} cancelled; nothing was sent` };
  if (chain.some((e) => e.name === 'TimeoutError' || (e.code !== undefined && TIMEOUT_CODES.has(e.code)))) {
    return {
      outcome: 'transport-error',
      kind: 'timeout',
      message: `The request could not be sent to ${host} within ${Math.round(timeoutMs / 1000)} s; nothing was sent`,
    };
  }
  if (chain.some((e) => e.code === 'ECONNREFUSED')) {
    return { outcome: 'transport-error', kind: 'refused', message: `Connection refused by ${host}; nothing was sent` };
  }
  const tls = chain.find((e) => (e.code !== undefined && TLS_CODES.test(e.code)) || /\b(SSL|TLS|certificate)\b/i.test(e.message ?? ''));
  if (tls)
    return { outcome: 'transport-error', kind: 'tls', message: `TLS failure with ${host}: ${tls.code ?? tls.message}; nothing was sent` };
  const dns = chain.find((e) => e.code !== undefined && DNS_CODES.has(e.code));
  if (dns) return { outcome: 'transport-error', kind: 'other', message: `Cannot resolve ${host} (${dns.code}); nothing was sent` };
  const detail = chain.find((e) => e.code !== undefined) ?? chain[chain.length - 1];
  return {
    outcome: 'transport-error',
    kind: 'other',
    message: `Request to ${host} failed: ${detail?.code ?? detail?.message ?? String(err)}; nothing was sent`,
  };
}
