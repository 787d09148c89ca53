// Request authentication for both operations: the real OAuth 1.0a verification from core/oauth, plus
// what a server adds around it (the timestamp window and replayed nonces).

import { parseAuthorizationHeader, verifyRequest } from '../core/oauth';
import type { DemoMerchant } from './types';
import { errorMessage } from '../core/errorMessage';

/** oauth_timestamp may differ from the real clock by this much either way. */
export const TIMESTAMP_WINDOW_SECONDS = 600;

export type AuthResult = { ok: true; consumerKey: string } | { ok: false; reason: string };

/** Whether a nonce with this oauth_timestamp could still pass the window check at `nowSeconds`. */
export function nonceStillLive(timestamp: number, nowSeconds: number): boolean {
  return Math.abs(nowSeconds - timestamp) <= TIMESTAMP_WINDOW_SECONDS;
}

/**
 * Nonces seen within the timestamp window; older ones can no longer pass the window check anyway. The
 * store journals each spent nonce and gives them back at start, so a restart does not reopen replays.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  private lastPrune = 0;
  /** Nonces spent since the last take(), for the store's next commit. */
  private fresh: [string, number][] = [];

  restore(entries: Iterable<[string, number]>): void {
    for (const [k, ts] of entries) this.seen.set(k, ts);
  }

  entries(nowSeconds: number): [string, number][] {
    return [...this.seen].filter(([, ts]) => nonceStillLive(ts, nowSeconds));
  }

  /** The nonces spent since the last call (to be committed with the request that spent them). */
  take(): [string, number][] {
    const t = this.fresh;
    this.fresh = [];
    return t;
  }

  /** Records the nonce; false when it was already used. */
  use(consumerKey: string, nonce: string, timestamp: number, nowSeconds: number): boolean {
    // Pruning walks the whole map, so at most once a second, not on every request.
    if (nowSeconds !== this.lastPrune) {
      this.lastPrune = nowSeconds;
      for (const [k, ts] of this.seen) if (!nonceStillLive(ts, nowSeconds)) this.seen.delete(k);
    }
    const key = `${consumerKey}\n${nonce}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, timestamp);
    this.fresh.push([key, timestamp]);
    return true;
  }
}

/**
 * The Authorization header's shape, checked before the body is read: a request without an OAuth
 * header cannot succeed, so its body is not worth reading.
 */
export function authorizationShape(header: string | undefined): { ok: true } | { ok: false; reason: string } {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'no Authorization header' };
  let parsed: ReturnType<typeof parseAuthorizationHeader>;
  try {
    parsed = parseAuthorizationHeader(header);
  } catch {
    parsed = undefined;
  }
  if (!parsed) return { ok: false, reason: 'Authorization header is not an OAuth header' };
  return { ok: true };
}

export interface AuthRequest {
  operation: 'create' | 'report';
  method: string;
  url: string;
  /** Form-encoded body parameters (create); a JSON body (report) is never part of the signature. */
  form?: [string, string][];
  authorization: string | undefined;
}

/** Any malformed header is a refusal with a reason, never an exception (an exception would be a 500). */
export function authenticate(req: AuthRequest, merchant: DemoMerchant, nonces: NonceCache, nowMs: number): AuthResult {
  try {
    return check(req, merchant, nonces, nowMs);
  } catch (err) {
    return { ok: false, reason: `malformed request: ${errorMessage(err)}` };
  }
}

function check(req: AuthRequest, merchant: DemoMerchant, nonces: NonceCache, nowMs: number): AuthResult {
  const shape = authorizationShape(req.authorization);
  if (!shape.ok || req.authorization === undefined) return { ok: false, reason: shape.ok ? 'no Authorization header' : shape.reason };
  const parsed = parseAuthorizationHeader(req.authorization);
  if (!parsed) return { ok: false, reason: 'Authorization header is not an OAuth header' };
  const p = parsed.params;
  if (p.oauth_consumer_key !== merchant.consumerKey) return { ok: false, reason: 'unknown consumer key' };
  const method = p.oauth_signature_method;
  // The report operation states HMAC-SHA1; the create sample uses RSA-SHA256 and HMAC-SHA1 is accepted too.
  const allowed = req.operation === 'report' ? ['HMAC-SHA1'] : ['RSA-SHA256', 'HMAC-SHA1'];
  if (!method || !allowed.includes(method))
    return { ok: false, reason: `signature method ${method ?? '(none)'} not accepted for the ${req.operation} operation` };
  if (p.oauth_version !== undefined && p.oauth_version !== '1.0') return { ok: false, reason: 'oauth_version is not 1.0' };
  const ts = p.oauth_timestamp;
  if (!ts || !/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'oauth_timestamp missing or not a number' };
  const nowSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(nowSeconds - Number(ts)) > TIMESTAMP_WINDOW_SECONDS)
    return { ok: false, reason: 'oauth_timestamp outside the accepted window' };
  const nonce = p.oauth_nonce;
  if (!nonce) return { ok: false, reason: 'oauth_nonce missing' };

  const keys = method === 'RSA-SHA256' ? { rsaPublicKeyPem: merchant.rsaPublicKeyPem } : { consumerSecret: merchant.consumerSecret };
  const verified = verifyRequest({ method: req.method, url: req.url, form: req.form, authorization: req.authorization }, keys);
  if (!verified.ok) return { ok: false, reason: `signature: ${verified.reason}` };
  // Only a correctly signed request spends its nonce; a forged one must not block the real sender's.
  if (!nonces.use(merchant.consumerKey, nonce, Number(ts), nowSeconds)) return { ok: false, reason: 'oauth_nonce already used' };
  return { ok: true, consumerKey: verified.consumerKey };
}
