import { createHmac, createPublicKey, timingSafeEqual, verify as rsaVerify } from 'node:crypto';
import { buildBaseString, percentEncode } from './sign';

/**
 * Parses `OAuth realm="", oauth_consumer_key="...", ...` (RFC 5849 §3.5.1). Parameter values are
 * percent-decoded; the realm is a plain quoted string. Undefined when the header is not an OAuth header.
 */
export function parseAuthorizationHeader(header: string): { realm?: string; params: Record<string, string> } | undefined {
  const m = /^\s*OAuth\s+(.*)$/is.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  let realm: string | undefined;
  const re = /\s*([^\s=,]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/gy;
  const body = m[1].trim();
  let pos = 0;
  while (body.slice(pos).trim() !== '') {
    re.lastIndex = pos;
    const part = re.exec(body);
    if (!part) return undefined;
    pos = re.lastIndex;
    const [, name, raw] = part;
    if (name.toLowerCase() === 'realm') {
      realm = raw.replace(/\\(.)/g, '$1');
      continue;
    }
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    params[decodeURIComponent(name)] = value;
  }
  return realm === undefined ? { params } : { realm, params };
}

/**
 * Recomputes the base string from what the server received and checks oauth_signature. The server side
 * of signRequest (the local gateway and tests use it); keys are looked up by the caller from the consumer key.
 */
export function verifyRequest(
  input: { method: string; url: string; form?: [string, string][]; authorization: string },
  keys: { consumerSecret?: string; rsaPublicKeyPem?: string; tokenSecret?: string },
): { ok: true; consumerKey: string } | { ok: false; reason: string } {
  const parsed = parseAuthorizationHeader(input.authorization);
  if (!parsed) return { ok: false, reason: 'no OAuth Authorization header' };
  const p = parsed.params;
  for (const required of ['oauth_consumer_key', 'oauth_signature_method', 'oauth_signature', 'oauth_timestamp', 'oauth_nonce']) {
    if (p[required] === undefined) return { ok: false, reason: `missing ${required}` };
  }
  if (p.oauth_version !== undefined && p.oauth_version !== '1.0') return { ok: false, reason: 'oauth_version is not 1.0' };
  let baseString: string;
  try {
    baseString = buildBaseString(input.method, input.url, [
      ...Object.entries(p).filter(([k]) => k !== 'oauth_signature'),
      ...(input.form ?? []),
    ]);
  } catch {
    return { ok: false, reason: 'the request URL cannot be parsed' };
  }
  const signature = Buffer.from(p.oauth_signature, 'base64');
  const method = p.oauth_signature_method;
  if (method === 'HMAC-SHA1') {
    if (keys.consumerSecret === undefined) return { ok: false, reason: 'HMAC-SHA1 is not allowed for this consumer' };
    const key = `${percentEncode(keys.consumerSecret)}&${percentEncode(keys.tokenSecret ?? '')}`;
    const expected = createHmac('sha1', key).update(baseString, 'utf8').digest();
    const ok = expected.length === signature.length && timingSafeEqual(expected, signature);
    return ok ? { ok: true, consumerKey: p.oauth_consumer_key } : { ok: false, reason: 'signature mismatch' };
  }
  if (method === 'RSA-SHA256') {
    if (keys.rsaPublicKeyPem === undefined) return { ok: false, reason: 'RSA-SHA256 is not allowed for this consumer' };
    let ok: boolean;
    try {
      ok = rsaVerify('sha256', Buffer.from(baseString, 'utf8'), createPublicKey(keys.rsaPublicKeyPem), signature);
    } catch {
      return { ok: false, reason: 'the registered public key cannot be read' };
    }
    return ok ? { ok: true, consumerKey: p.oauth_consumer_key } : { ok: false, reason: 'signature mismatch' };
  }
  return { ok: false, reason: `unsupported signature method ${method}` };
}

// The verifier recomputes the base string exactly as the signer builds it.
export { buildBaseString };
